/**
 * Assembles the drafts of many files into one resolved model: resolves
 * references, merges duplicates and metadata, applies `apply` statements,
 * flattens nothing but resolves mixins (members and traits inherited), and
 * coerces trait values.
 *
 * @internal
 */
import { Model, PRELUDE_NAMESPACE } from "../model.js";
import { copyExactNumbers, isNodeObject, nodeEquals, setNodeKey, stringifyNode, type NodeValue } from "../node-value.js";
import type { MemberShape, Shape } from "../shape.js";
import { isAbsoluteShapeId, traitDisplayName, withoutMember } from "../shape-id.js";
import { formatLocation, type SourceLocation } from "../source-location.js";
import type { ValidationEvent } from "../validation-event.js";
import {
  SyntacticShapeId,
  type FileDraft,
  type MemberDraft,
  type NodeDraft,
  type RefDraft,
  type ResolutionContext,
  type ShapeDraft,
  type TraitDraft,
} from "./draft.js";

/** Options of {@link assemble}. */
export interface AssembleOptions {
  /** Unknown traits become warnings (their values kept) instead of errors. */
  readonly allowUnknownTraits?: boolean;
}

/** The result of assembling drafts. */
export interface AssembleResult {
  readonly model: Model;
  readonly events: ValidationEvent[];
}

interface Definition {
  readonly draft: ShapeDraft;
  readonly file: FileDraft;
}

interface PendingTrait {
  readonly id: string;
  readonly value: NodeDraft | undefined;
  readonly location: SourceLocation;
  readonly context: ResolutionContext | null;
}

const MIXIN = "smithy.api#mixin";
const TRAIT = "smithy.api#trait";
const DEFAULT = "smithy.api#default";
const ENUM_VALUE = "smithy.api#enumValue";
const BOX = "smithy.api#box";
const NUMERIC = new Set(["byte", "short", "integer", "long", "float", "double"]);

class Assembler {
  readonly events: ValidationEvent[] = [];
  private readonly definitions = new Map<string, Definition>();
  /** Every defined top-level id, including duplicates: the resolution universe. */
  private readonly defined = new Set<string>();
  /** Local and applied traits, keyed by shape or member id, in application order. */
  private readonly pending = new Map<string, PendingTrait[]>();
  private readonly shapes = new Map<string, Shape>();
  private readonly metadata: Record<string, NodeValue> = {};
  private readonly metadataLocations = new Map<string, SourceLocation>();

  constructor(
    private files: readonly FileDraft[],
    private readonly options: AssembleOptions,
    private readonly preludeFile: FileDraft | undefined,
    private readonly builtinFiles: ReadonlySet<FileDraft>,
  ) {}

  run(): AssembleResult {
    for (const file of this.files) this.events.push(...file.events);
    // A file whose reading stopped at an error contributes nothing, as in Smithy: its
    // half-read shapes would only add misleading follow-on errors.
    this.files = this.files.filter((f) => !f.incomplete);
    for (const file of this.files) for (const d of file.shapes) this.defined.add(d.id);
    for (const file of this.files) for (const d of file.shapes) this.define(d, file);
    for (const file of this.files) this.checkUses(file);
    for (const [id, { draft, file }] of this.definitions) this.build(id, draft, file);
    for (const file of this.files) {
      for (const apply of file.applies) this.collectApply(apply.target, apply.traits, file);
      for (const entry of file.metadata) this.mergeMetadata(entry.key, this.resolveNode(entry.value, file.context, undefined), entry.location);
    }
    this.resolveMixins();
    this.checkPendingTargets();
    this.applyTraits();
    this.finishShapes();
    const builtins = new Set<string>();
    for (const [id, def] of this.definitions) if (this.builtinFiles.has(def.file) && this.shapes.has(id)) builtins.add(id);
    return { model: new Model(this.shapes, this.metadata, builtins), events: this.events };
  }

  // ---- events -------------------------------------------------------------

  private emit(severity: ValidationEvent["severity"], id: string, message: string, shapeId?: string, location?: SourceLocation): void {
    this.events.push({ severity, id, message, ...(shapeId ? { shapeId } : {}), ...(location ? { location } : {}) });
  }

  // ---- references ---------------------------------------------------------

  /** Resolves a reference as written, following Smithy's relative-id rules. */
  resolve(text: string, context: ResolutionContext | null): string | undefined {
    if (text.includes("#")) return isAbsoluteShapeId(text) ? text : undefined;
    if (!context) return undefined;
    // The same few names (String, Integer, local shapes) are resolved over and over.
    let cache = this.resolved.get(context);
    if (!cache) this.resolved.set(context, (cache = new Map()));
    let id = cache.get(text);
    if (id === undefined) cache.set(text, (id = this.resolveRelative(text, context)));
    return id;
  }

  private readonly resolved = new WeakMap<ResolutionContext, Map<string, string>>();

  private resolveRelative(text: string, context: ResolutionContext): string {
    const dollar = text.indexOf("$");
    const name = dollar < 0 ? text : text.slice(0, dollar);
    const member = dollar < 0 ? "" : text.slice(dollar);
    const used = context.uses.get(name);
    if (used) return used + member;
    // Before the namespace statement (metadata), relative ids resolve in the prelude namespace, as upstream.
    const local = `${context.namespace || PRELUDE_NAMESPACE}#${name}`;
    if (this.defined.has(local)) return local + member;
    const prelude = `${PRELUDE_NAMESPACE}#${name}`;
    if (this.defined.has(prelude) && this.isPreludeId(prelude)) return prelude + member;
    return local + member;
  }

  private isBuiltin(id: string): boolean {
    const def = this.definitions.get(id);
    return def !== undefined && this.builtinFiles.has(def.file);
  }

  private isPreludeId(id: string): boolean {
    const def = this.definitions.get(id);
    return def ? def.file === this.preludeFile : id.startsWith(`${PRELUDE_NAMESPACE}#`);
  }

  private ref(ref: RefDraft | undefined, file: FileDraft, owner: string): string | undefined {
    if (!ref) return undefined;
    const id = this.resolve(ref.text, file.context);
    if (id === undefined) this.emit("ERROR", "Model", `Invalid shape ID: ${ref.text}`, owner, ref.location);
    return id;
  }

  private refs(refs: readonly RefDraft[] | undefined, file: FileDraft, owner: string): string[] | undefined {
    if (!refs) return undefined;
    const out: string[] = [];
    for (const r of refs) {
      const id = this.ref(r, file, owner);
      if (id !== undefined) out.push(id);
    }
    return out;
  }

  private refMap(refs: Record<string, RefDraft> | undefined, file: FileDraft, owner: string): Record<string, string> | undefined {
    if (!refs) return undefined;
    const out: Record<string, string> = {};
    for (const [k, r] of Object.entries(refs)) {
      const id = this.ref(r, file, owner);
      if (id !== undefined) out[k] = id;
    }
    return out;
  }

  /** Turns a draft node into a node value, resolving unquoted shape ids. */
  resolveNode(node: NodeDraft, context: ResolutionContext | null, shapeId: string | undefined): NodeValue {
    if (node instanceof SyntacticShapeId) {
      const id = this.resolve(node.text, context) ?? node.text;
      if (!this.defined.has(withoutMember(id))) {
        this.emit(
          "DANGER",
          "SyntacticShapeIdTarget",
          `Syntactic shape ID \`${node.text}\` does not resolve to a valid shape ID: \`${id}\`. Did you mean to quote this string? Are you missing a model file?`,
          undefined,
          node.location,
        );
      }
      return id;
    }
    // Values without unquoted shape ids are shared with the draft rather than copied:
    // most trait values are small literals, and copying them all is pure garbage.
    if (Array.isArray(node)) {
      let out: NodeValue[] | undefined;
      for (let i = 0; i < node.length; i++) {
        const item = node[i]!;
        const v = typeof item === "object" && item !== null ? this.resolveNode(item, context, shapeId) : (item as NodeValue);
        if (out) out.push(v);
        else if (v !== item) {
          (out = node.slice(0, i) as NodeValue[]).push(v);
          copyExactNumbers(node, out);
        }
      }
      return out ?? (node as NodeValue[]);
    }
    if (node !== null && typeof node === "object") {
      let out: Record<string, NodeValue> | undefined;
      for (const k in node) {
        const item = node[k]!;
        const v = typeof item === "object" && item !== null ? this.resolveNode(item, context, shapeId) : (item as NodeValue);
        if (v !== item && !out) {
          out = { ...(node as Record<string, NodeValue>) };
          copyExactNumbers(node, out);
        }
        if (out) setNodeKey(out, k, v);
      }
      return out ?? (node as Record<string, NodeValue>);
    }
    return node;
  }

  private checkUses(file: FileDraft): void {
    if (!file.context) return;
    for (const id of file.context.uses.values()) {
      if (!this.defined.has(withoutMember(id))) this.emit("WARNING", "Model", `Use statement refers to undefined shape: ${id}`);
    }
  }

  // ---- definitions ----------------------------------------------------------

  private define(draft: ShapeDraft, file: FileDraft): void {
    const existing = this.definitions.get(draft.id);
    if (!existing) {
      this.definitions.set(draft.id, { draft, file });
      return;
    }
    const a = this.canonical(existing.draft, existing.file);
    const b = this.canonical(draft, file);
    const where = `${formatLocation(existing.draft.location)} and ${formatLocation(draft.location)}`;
    if (nodeEquals(a, b)) {
      this.emit(
        "NOTE",
        "Model.IgnoredDuplicateDefinition",
        `Ignoring duplicate but equivalent shape definition: ${draft.id} defined at ${where}`,
        draft.id,
        draft.location,
      );
    } else {
      this.emit("ERROR", "Model", `Conflicting shape definition for \`${draft.id}\` found at ${where}`, draft.id, draft.location);
    }
  }

  /** A resolved, location-free rendering of a draft, to compare duplicates. */
  private canonical(d: ShapeDraft, file: FileDraft): NodeValue {
    const r = (ref: RefDraft | undefined): NodeValue => (ref ? (this.resolve(ref.text, file.context) ?? ref.text) : null);
    const rs = (refs: readonly RefDraft[] | undefined): NodeValue => (refs ? refs.map(r) : null);
    const rm = (m: Record<string, RefDraft> | undefined): NodeValue => (m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, r(v)])) : null);
    const traits = (ts: readonly TraitDraft[]): NodeValue =>
      Object.fromEntries(ts.map((t) => [this.resolve(t.name.text, file.context) ?? t.name.text, this.quietNode(t.value, file.context)]));
    return {
      type: d.type,
      traits: traits(d.traits),
      mixins: rs(d.mixins),
      members: d.members.map((m) => ({ name: m.name, target: r(m.target), traits: traits(m.traits) })),
      version: d.version ?? null,
      rename: d.rename ?? null,
      operations: rs(d.operations),
      resources: rs(d.resources),
      errors: rs(d.errors),
      identifiers: rm(d.identifiers),
      properties: rm(d.properties),
      create: r(d.create),
      put: r(d.put),
      read: r(d.read),
      update: r(d.update),
      delete: r(d.delete),
      list: r(d.list),
      collectionOperations: rs(d.collectionOperations),
      input: r(d.input),
      output: r(d.output),
    };
  }

  private quietNode(node: NodeDraft | undefined, context: ResolutionContext | null): NodeValue {
    if (node === undefined) return "<annotation>";
    if (node instanceof SyntacticShapeId) return this.resolve(node.text, context) ?? node.text;
    if (Array.isArray(node)) return node.map((n) => this.quietNode(n, context));
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, this.quietNode(v, context)]));
    }
    return node;
  }

  private addPending(targetId: string, trait: TraitDraft, file: FileDraft, owner: string): void {
    const id = this.resolve(trait.name.text, file.context);
    if (id === undefined) {
      this.emit("ERROR", "Model", `Invalid shape ID: ${trait.name.text}`, owner, trait.location);
      return;
    }
    if (id.includes("$")) {
      this.emit("ERROR", "Model", `Trait names cannot refer to members: ${trait.name.text}`, owner, trait.location);
      return;
    }
    let list = this.pending.get(targetId);
    if (!list) this.pending.set(targetId, (list = []));
    list.push({ id, value: trait.value, location: trait.location, context: file.context });
  }

  private build(id: string, d: ShapeDraft, file: FileDraft): void {
    const members = new Map<string, MemberShape>();
    const resourceTargets = d.forResource ? this.resourceTargets(d.forResource, file, id) : undefined;
    const allowed = d.type === "list" || d.type === "set" ? ["member"] : d.type === "map" ? ["key", "value"] : undefined;
    for (const m of d.members) {
      if (allowed && !allowed.includes(m.name)) {
        this.emit(
          "ERROR",
          "Model",
          d.type === "map"
            ? `Map shapes may only have \`key\` and \`value\` members, but found \`${m.name}\``
            : `${d.type === "set" ? "Set" : "List"} shapes may only have a \`member\` member, but found \`${m.name}\``,
          id,
          m.location,
        );
        continue;
      }
      if (members.has(m.name)) {
        this.emit("ERROR", "Model", `Duplicate member of \`${id}\`: '${m.name}'`, id, m.location);
        continue;
      }
      members.set(m.name, this.buildMember(id, m, d, file, resourceTargets));
    }
    this.checkDraftRules(id, d, file);
    if (file.version.startsWith("1")) this.v1Shapes.add(id);
    const shape: Shape = { id, type: d.type, traits: new Map(), members, mixins: this.refs(d.mixins, file, id) ?? [], location: d.location };
    if (d.version !== undefined) shape.version = d.version;
    if (d.rename !== undefined) shape.rename = d.rename;
    const assign = (key: "operations" | "resources" | "errors" | "collectionOperations", refs: readonly RefDraft[] | undefined) => {
      const v = this.refs(refs, file, id);
      if (v) shape[key] = v;
    };
    assign("operations", d.operations);
    assign("resources", d.resources);
    assign("errors", d.errors);
    assign("collectionOperations", d.collectionOperations);
    const identifiers = this.refMap(d.identifiers, file, id);
    if (identifiers) shape.identifiers = identifiers;
    const properties = this.refMap(d.properties, file, id);
    if (properties) shape.properties = properties;
    for (const key of ["create", "put", "read", "update", "delete", "list", "input", "output"] as const) {
      const v = this.ref(d[key], file, id);
      if (v !== undefined) shape[key] = v;
    }
    if (d.type === "operation") {
      shape.input ??= "smithy.api#Unit";
      shape.output ??= "smithy.api#Unit";
      shape.errors ??= [];
    }
    this.shapes.set(id, shape);
    for (const t of d.traits) this.addPending(id, t, file, id);
    for (const m of d.members) if (members.get(m.name)?.location === m.location) for (const t of m.traits) this.addPending(`${id}$${m.name}`, t, file, id);
  }

  /** Shapes defined in IDL/JSON 1.0 files, whose members get 1.0 nullability semantics. */
  private readonly v1Shapes = new Set<string>();

  /** Rules that depend on how a shape was written: IDL version features and mixin restrictions. */
  private checkDraftRules(id: string, d: ShapeDraft, file: FileDraft): void {
    if (d.type === "set") {
      this.emit(
        "WARNING",
        "ModelDeprecation",
        "Set shapes are deprecated and have been removed in Smithy IDL v2. Use a list shape with the @uniqueItems trait instead.",
        id,
        d.location,
      );
    }
    const v1 = file.version.startsWith("1");
    if (v1 && (d.type === "enum" || d.type === "intEnum")) {
      this.emit("ERROR", "Model", `${d.type} shapes cannot be used in Smithy version ${file.version}`, id, d.location);
    }
    if (!v1 && d.type === "set" && file.context) {
      this.emit("ERROR", "Model", `set shapes cannot be used in Smithy version ${file.version}`, id, d.location);
    }
    const isMixin = d.traits.some((t) => this.resolve(t.name.text, file.context) === MIXIN);
    if (v1 && (isMixin || d.mixins.length > 0)) {
      this.emit(
        "ERROR",
        "Model",
        `Mixins can only be used in Smithy 2.0 or later. Attempted to apply a @mixin trait to \`${id}\` in a model file using version \`${file.version}\`.`,
        id,
        d.location,
      );
    }
    if (isMixin && d.type === "operation" && (d.input || d.output)) {
      this.emit(
        "ERROR",
        "Model",
        `Operation shapes with the mixin trait MUST target \`smithy.api#Unit\` for their input and output. Operation mixin shape \`${id}\` defines one or both of these properties.`,
        id,
        d.location,
      );
    }
    if (isMixin && d.type === "resource" && Object.keys({ ...d.properties, ...d.identifiers }).length) {
      this.emit(
        "ERROR",
        "Model",
        `Resource shapes with the mixin trait may not define any properties. Resource mixin shape \`${id}\` defines one or more properties.`,
        id,
        d.location,
      );
    }
    if (v1) {
      for (const m of d.members) {
        if (m.traits.some((t) => this.resolve(t.name.text, file.context) === DEFAULT)) {
          this.emit("ERROR", "Model", "The @default trait can only be used in Smithy 2.0 or later", `${id}$${m.name}`, m.location);
        }
      }
    }
  }

  /** Identifier and property targets of the resource named by `for`, which elided members may take. */
  private resourceTargets(ref: RefDraft, file: FileDraft, owner: string): Map<string, string> | undefined {
    const id = this.ref(ref, file, owner);
    if (!id) return undefined;
    const def = this.definitions.get(id);
    if (!def) {
      this.emit("ERROR", "Target", `The target of the \`for\` production, \`${id}\`, is not defined in the model`, owner, ref.location);
      return undefined;
    }
    if (def.draft.type !== "resource") {
      this.emit(
        "ERROR",
        "Model",
        `The target of the \`for\` production must be a resource shape, but found a ${def.draft.type} shape: ${id}`,
        owner,
        ref.location,
      );
      return undefined;
    }
    const out = new Map<string, string>();
    for (const [name, r] of Object.entries(def.draft.properties ?? {})) {
      const t = this.resolve(r.text, def.file.context);
      if (t) out.set(name, t);
    }
    for (const [name, r] of Object.entries(def.draft.identifiers ?? {})) {
      const t = this.resolve(r.text, def.file.context);
      if (t) out.set(name, t);
    }
    return out;
  }

  private buildMember(container: string, m: MemberDraft, d: ShapeDraft, file: FileDraft, resourceTargets: Map<string, string> | undefined): MemberShape {
    let target = "";
    if (m.target) target = this.ref(m.target, file, `${container}$${m.name}`) ?? "";
    else if (d.type === "enum" || d.type === "intEnum") target = "smithy.api#Unit";
    else if (m.elided) target = resourceTargets?.get(m.name) ?? "";
    return { type: "member", id: `${container}$${m.name}`, name: m.name, container, target, traits: new Map(), location: m.location };
  }

  private collectApply(target: RefDraft, traits: readonly TraitDraft[], file: FileDraft): void {
    const id = this.resolve(target.text, file.context);
    if (id === undefined) {
      this.emit("ERROR", "Model", `Invalid shape ID: ${target.text}`, undefined, target.location);
      return;
    }
    const def = this.definitions.get(withoutMember(id));
    if (def && def.file === this.preludeFile && file !== this.preludeFile) {
      for (const t of traits) {
        const traitId = this.resolve(t.name.text, file.context) ?? t.name.text;
        this.emit("ERROR", "Model", `Cannot apply \`${traitId}\` to an immutable prelude shape defined in \`${PRELUDE_NAMESPACE}\`.`, id, t.location);
      }
      return;
    }
    for (const t of traits) this.addPending(id, t, file, id);
  }

  private mergeMetadata(key: string, value: NodeValue, location: SourceLocation): void {
    if (!Object.hasOwn(this.metadata, key)) {
      setNodeKey(this.metadata, key, value);
      this.metadataLocations.set(key, location);
      return;
    }
    const prev = this.metadata[key]!;
    if (Array.isArray(prev) && Array.isArray(value)) {
      setNodeKey(this.metadata, key, [...prev, ...value]);
    } else if (!nodeEquals(prev, value)) {
      this.emit(
        "ERROR",
        "Model",
        `Metadata conflict for key \`${key}\`. Defined in both \`${formatLocation(this.metadataLocations.get(key)!)}\` and \`${formatLocation(location)}\``,
        undefined,
        location,
      );
    }
  }

  // ---- mixins -------------------------------------------------------------

  private resolveMixins(): void {
    const state = new Map<string, "visiting" | "done" | "failed">();
    const cycles = new Set<string>();
    const visit = (id: string, stack: string[]): boolean => {
      const s = state.get(id);
      if (s === "done") return true;
      if (s === "failed") return false;
      const shape = this.shapes.get(id);
      if (!shape) return false;
      if (s === "visiting") {
        const cycle = stack.slice(stack.indexOf(id));
        for (const c of cycle) cycles.add(c);
        return false;
      }
      state.set(id, "visiting");
      stack.push(id);
      let ok = true;
      for (const mixin of shape.mixins) {
        const found = this.shapes.has(mixin) && visit(mixin, stack);
        if (found) continue;
        ok = false;
        if (cycles.has(id) && this.shapes.has(mixin)) continue;
        // Like upstream, a shape with elided members reports the first member that needed the mixin.
        const elided = [...shape.members.values()].find((m) => !m.target);
        if (elided) this.emit("ERROR", "Model", `Cannot apply mixin to ${elided.id}: ${mixin} not found`, id, elided.location);
        else this.emit("ERROR", "Model", `Cannot apply mixin to ${id}: ${mixin} not found`, id, shape.location);
      }
      stack.pop();
      if (cycles.has(id)) ok = false;
      if (ok) {
        this.applyMixins(shape);
        ok = this.checkRequiredMembers(shape);
      }
      state.set(id, ok ? "done" : "failed");
      return ok;
    };
    for (const id of [...this.shapes.keys()]) visit(id, []);
    const components = cycles.size > 0 ? this.mixinComponents() : new Map<string, string[]>();
    for (const id of cycles) {
      const others = (components.get(id) ?? []).filter((c) => c !== id && cycles.has(c));
      this.emit("ERROR", "Model", `Unable to resolve mixins; cycles detected between this shape and [${others.join(", ")}]`, id, this.shapes.get(id)?.location);
    }
    for (const [id, s] of state) {
      if (s !== "failed") continue;
      this.shapes.delete(id);
      this.removed.add(id);
    }
  }

  /** Ids of shapes dropped because they could not be built; traits aimed at them are not reported again. */
  private readonly removed = new Set<string>();

  /** Lists need `member`, maps `key` and `value` (after mixins); a shape without them cannot be built. */
  private checkRequiredMembers(shape: Shape): boolean {
    const names = shape.type === "list" || shape.type === "set" ? ["member"] : shape.type === "map" ? ["key", "value"] : [];
    const missing = names.filter((n) => !shape.members.has(n));
    if (missing.length === 0) return true;
    this.emit(
      "ERROR",
      "Model",
      `Missing required member${missing.length > 1 ? "s" : ""} of shape \`${shape.id}\`: ${missing.join(", ")}`,
      shape.id,
      shape.location,
    );
    return false;
  }

  /**
   * The strongly connected components of the mixin graph, each listed as
   * upstream Smithy lists a cycle in its message: Tarjan's algorithm over
   * "is mixed into" edges, visiting shapes in the order a Java `HashMap` of
   * shape ids iterates them (mixins follow the shape that first names them).
   * The corpus expects those messages verbatim.
   */
  private mixinComponents(): Map<string, string[]> {
    const roots = [...this.shapes.keys()].filter((id) => !this.isPreludeId(id) && !this.isBuiltin(id));
    const dependents = new Map<string, string[]>();
    const node = (id: string) => {
      if (!dependents.has(id)) dependents.set(id, []);
    };
    for (const id of javaHashMapOrder(roots)) {
      node(id);
      for (const mixin of new Set(this.shapes.get(id)!.mixins)) {
        node(mixin);
        dependents.get(mixin)!.push(id);
      }
    }
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const components = new Map<string, string[]>();
    const connect = (id: string) => {
      index.set(id, index.size);
      low.set(id, index.get(id)!);
      stack.push(id);
      onStack.add(id);
      for (const next of dependents.get(id)!) {
        if (!index.has(next)) {
          connect(next);
          low.set(id, Math.min(low.get(id)!, low.get(next)!));
        } else if (onStack.has(next)) {
          low.set(id, Math.min(low.get(id)!, index.get(next)!));
        }
      }
      if (low.get(id) !== index.get(id)) return;
      const component: string[] = [];
      let popped: string;
      do {
        popped = stack.pop()!;
        onStack.delete(popped);
        component.push(popped);
      } while (popped !== id);
      if (component.length > 1) for (const member of component) components.set(member, component);
    };
    for (const id of dependents.keys()) if (!index.has(id)) connect(id);
    return components;
  }

  private applyMixins(shape: Shape): void {
    if (shape.mixins.length === 0) return;
    const inheritedMembers = new Map<string, MemberShape>();
    const inheritedTraits = new Map<string, NodeValue>();
    const wrongType: string[] = [];
    for (const mixinId of shape.mixins) {
      const mixin = this.shapes.get(mixinId)!;
      if (!mixin.traits.has(MIXIN) && !this.pendingHas(mixinId, MIXIN)) {
        this.emit("ERROR", "Target", `Attempted to use ${mixinId} as a mixin, but it is not marked with the mixin trait`, shape.id, shape.location);
      }
      if (mixin.type !== shape.type && !(isListLike(mixin.type) && isListLike(shape.type))) wrongType.push(mixinId);
      const local = this.mixinLocalTraits(mixin);
      for (const [traitId, value] of this.effectiveTraits(mixin)) {
        if (traitId === MIXIN || local.has(traitId)) continue;
        inheritedTraits.set(traitId, value);
      }
      for (const m of mixin.members.values()) {
        const own = shape.members.get(m.name);
        const prior = inheritedMembers.get(m.name);
        if (own?.target && own.target !== m.target) {
          this.emit("ERROR", "Model", `Member conflicts with an inherited mixin member: \`${m.id}\``, own.id, own.location);
          continue;
        }
        if (prior && prior.target !== m.target) {
          this.emit("ERROR", "Model", `Member conflicts with an inherited mixin member: \`${prior.id}\``, prior.id, shape.location);
          continue;
        }
        const traits = new Map(prior ? [...prior.traits, ...this.effectiveTraits(m)] : this.effectiveTraits(m));
        inheritedMembers.set(m.name, {
          type: "member",
          id: `${shape.id}$${m.name}`,
          name: m.name,
          container: shape.id,
          target: m.target,
          traits,
          location: m.location,
          mixinMember: m.mixinMember ?? m.id,
          inheritedTraits: new Set(traits.keys()),
        });
      }
    }
    if (wrongType.length) {
      this.emit(
        "ERROR",
        "Model",
        `Mixins may only be mixed into shapes of the same type. The following mixins were applied to the ${shape.type} shape \`${shape.id}\` which are not ${shape.type} shapes: [${wrongType.map((m) => `\`${m}\``).join(", ")}]`,
        shape.id,
        shape.location,
      );
    }
    const merged = new Map<string, MemberShape>(inheritedMembers);
    for (const [name, local] of shape.members) {
      const inherited = inheritedMembers.get(name);
      if (!inherited || (local.target && local.target !== inherited.target)) {
        merged.set(name, local);
        continue;
      }
      // A redeclared member keeps the inherited target and traits; its own traits are pending and override.
      merged.set(name, { ...inherited, location: local.location });
    }
    shape.members.clear();
    for (const [k, v] of merged) shape.members.set(k, v);
    this.inheritProperties(shape);
    for (const [k, v] of inheritedTraits) shape.traits.set(k, v);
    (shape as { inheritedTraits?: ReadonlySet<string> }).inheritedTraits = new Set(inheritedTraits.keys());
    // Mixin traits are final before this shape's own traits are applied, so resolve the mixin's pending ones first.
  }

  /** Services, resources and operations inherit their mixins' bindings (mixin entries first). */
  private inheritProperties(shape: Shape): void {
    if (shape.type !== "service" && shape.type !== "resource" && shape.type !== "operation") return;
    const union = (key: "operations" | "resources" | "errors" | "collectionOperations") => {
      const out: string[] = [];
      for (const mixinId of shape.mixins) for (const id of this.shapes.get(mixinId)?.[key] ?? []) if (!out.includes(id)) out.push(id);
      for (const id of shape[key] ?? []) if (!out.includes(id)) out.push(id);
      if (out.length || shape[key]) shape[key] = out;
    };
    union("operations");
    union("resources");
    union("errors");
    union("collectionOperations");
    for (const mixinId of shape.mixins) {
      const mixin = this.shapes.get(mixinId)!;
      if (shape.version === undefined && mixin.version !== undefined) shape.version = mixin.version;
      if (mixin.rename) shape.rename = { ...mixin.rename, ...shape.rename };
      for (const key of ["create", "put", "read", "update", "delete", "list"] as const) {
        const v = mixin[key];
        if (shape[key] === undefined && v !== undefined) shape[key] = v;
      }
    }
  }

  private pendingHas(id: string, traitId: string): boolean {
    return this.pending.get(id)?.some((p) => p.id === traitId) ?? false;
  }

  /** A shape's traits as they will be once its pending traits are applied (mixins are resolved in order). */
  private effectiveTraits(shape: Shape | MemberShape): Map<string, NodeValue> {
    this.applyPendingTo(shape);
    return shape.traits;
  }

  private mixinLocalTraits(mixin: Shape): Set<string> {
    const value = this.effectiveTraits(mixin).get(MIXIN);
    const out = new Set<string>();
    if (isNodeObject(value) && Array.isArray(value.localTraits)) {
      for (const t of value.localTraits) if (typeof t === "string") out.add(t);
    }
    return out;
  }

  // ---- traits -------------------------------------------------------------

  private checkPendingTargets(): void {
    for (const [targetId, traits] of this.pending) {
      if (this.lookup(targetId)) continue;
      if (this.removed.has(withoutMember(targetId))) {
        this.pending.delete(targetId);
        continue;
      }
      for (const t of traits) {
        this.emit("ERROR", "Model", `Trait \`${traitDisplayName(t.id)}\` applied to unknown shape \`${targetId}\``, undefined, t.location);
      }
      this.pending.delete(targetId);
    }
  }

  private lookup(id: string): Shape | MemberShape | undefined {
    const dollar = id.indexOf("$");
    if (dollar < 0) return this.shapes.get(id);
    return this.shapes.get(id.slice(0, dollar))?.members.get(id.slice(dollar + 1));
  }

  private readonly applied = new WeakSet<Shape | MemberShape>();

  private applyTraits(): void {
    for (const shape of this.shapes.values()) {
      this.applyPendingTo(shape);
      for (const m of shape.members.values()) this.applyPendingTo(m);
    }
  }

  /** Applies the pending (own and `apply`) traits of one shape or member, once. */
  private applyPendingTo(target: Shape | MemberShape): void {
    if (this.applied.has(target)) return;
    this.applied.add(target);
    const pending = this.pending.get(target.id);
    if (!pending) return;
    if (pending.length === 1) {
      const p = pending[0]!;
      const value = this.traitValue(p, target.id);
      if (value === undefined) return;
      target.traits.set(p.id, value);
      if (target.inheritedTraits?.has(p.id)) {
        const inherited = new Set(target.inheritedTraits);
        inherited.delete(p.id);
        (target as { inheritedTraits?: ReadonlySet<string> }).inheritedTraits = inherited;
      }
      return;
    }
    const own = new Map<string, { value: NodeValue; location: SourceLocation }>();
    for (const p of pending) {
      const value = this.traitValue(p, target.id);
      if (value === undefined) continue;
      const prior = own.get(p.id);
      if (!prior) {
        own.set(p.id, { value, location: p.location });
        continue;
      }
      if (nodeEquals(prior.value, value)) continue;
      if (Array.isArray(prior.value) && Array.isArray(value) && this.isListTrait(p.id)) {
        prior.value = [...prior.value, ...value];
        continue;
      }
      this.emit(
        "ERROR",
        "Model",
        `Conflicting \`${p.id}\` trait found on shape \`${target.id}\`. The previous trait was defined at \`${formatLocation(prior.location)}\`, and a conflicting trait was defined at \`${formatLocation(p.location)}\`.`,
        target.id,
        p.location,
      );
    }
    const inherited = target.inheritedTraits ? new Set(target.inheritedTraits) : undefined;
    for (const [id, { value }] of own) {
      target.traits.set(id, value);
      inherited?.delete(id);
    }
    if (inherited) (target as { inheritedTraits?: ReadonlySet<string> }).inheritedTraits = inherited;
  }

  private isListTrait(traitId: string): boolean {
    const t = this.shapes.get(traitId)?.type;
    return t === "list" || t === "set";
  }

  /** Resolves a pending trait's value, coercing annotations; undefined when the trait is rejected. */
  private traitValue(p: PendingTrait, shapeId: string): NodeValue | undefined {
    const def = this.shapes.get(p.id);
    if (!def || !(def.traits.has(TRAIT) || this.pendingHas(p.id, TRAIT))) {
      if (def) {
        this.emit(
          "ERROR",
          "Model",
          `Shape \`${p.id}\` cannot be applied as a trait. If this is a custom trait, please add \`@trait\` to this shape.`,
          p.id,
          p.location,
        );
        return undefined;
      }
      const message = `Unable to resolve trait \`${p.id}\`. If this is a custom trait, then it must be defined before it can be used in a model.`;
      if (!this.options.allowUnknownTraits) {
        this.emit("ERROR", "Model", message, shapeId, p.location);
        return undefined;
      }
      this.emit("WARNING", "Model", message, shapeId, p.location);
      return p.value === undefined ? {} : this.resolveNode(p.value, p.context, shapeId);
    }
    if (p.value !== undefined) return this.resolveNode(p.value, p.context, shapeId);
    switch (def.type) {
      case "structure":
      case "map":
        return {};
      case "list":
      case "set":
        return [];
      default:
        return null;
    }
  }

  // ---- final touches --------------------------------------------------------

  private finishShapes(): void {
    this.upgradeV1();
    for (const shape of this.shapes.values()) {
      if (shape.type === "enum") {
        for (const m of shape.members.values()) {
          m.target ||= "smithy.api#Unit";
          if (!m.traits.has(ENUM_VALUE)) m.traits.set(ENUM_VALUE, m.name);
        }
      }
      if (shape.type === "intEnum") for (const m of shape.members.values()) m.target ||= "smithy.api#Unit";
      if (shape.type === "enum" || shape.type === "intEnum") this.checkEnum(shape);
      for (const m of shape.members.values()) {
        if (m.target) continue;
        this.emit(
          "ERROR",
          "Model",
          "Member target was elided, but no bound resource or mixin contained a matching identifier or member name.",
          m.id,
          m.location,
        );
        shape.members.delete(m.name);
      }
    }
  }

  private checkEnum(shape: Shape): void {
    if (shape.members.size === 0) {
      this.emit(
        "ERROR",
        "Model",
        shape.type === "enum" ? "enum must have at least one entry" : "intEnum shapes must have at least one member",
        shape.id,
        shape.location,
      );
    }
    for (const m of shape.members.values()) {
      const value = m.traits.get(ENUM_VALUE);
      if (shape.type === "enum") {
        if (typeof value !== "string") {
          this.emit("ERROR", "EnumShape", `enum members can only be assigned string values, but found: ${stringifyNode(value)}`, m.id, m.location);
        }
      } else if (value === undefined) {
        this.emit("ERROR", "EnumShape", "intEnum members must have the @enumValue trait with an integer value", m.id, m.location);
      } else if (typeof value === "bigint") {
        this.emit("ERROR", "EnumShape", `intEnum members must fit within an integer, but found: ${value}`, m.id, m.location);
      } else if (typeof value !== "number") {
        this.emit("ERROR", "EnumShape", `intEnum members require integer values, but found: ${stringifyNode(value)}`, m.id, m.location);
      } else if (!Number.isInteger(value)) {
        this.emit("ERROR", "EnumShape", "intEnum members do not support floating point values", m.id, m.location);
      } else if (value < -2147483648 || value > 2147483647) {
        this.emit("ERROR", "EnumShape", `intEnum members must fit within an integer, but found: ${value}`, m.id, m.location);
      }
    }
  }

  /**
   * Smithy 1.0 made members that target unboxed numbers and booleans non-null
   * with a zero value. Smithy 2.0 says the same with `@default`, so 1.0
   * structures are upgraded the way Smithy's own loader upgrades them.
   */
  private upgradeV1(): void {
    for (const id of this.v1Shapes) {
      const shape = this.shapes.get(id);
      if (!shape || shape.type !== "structure") continue;
      for (const m of shape.members.values()) {
        if (m.traits.has(DEFAULT) || m.traits.has(BOX)) continue;
        const target = this.shapes.get(m.target);
        if (!target || target.traits.has(BOX)) continue;
        const zero = target.type === "boolean" ? false : NUMERIC.has(target.type) ? 0 : undefined;
        if (zero === undefined) continue;
        const primitive = m.target.startsWith("smithy.api#Primitive");
        if (primitive || (this.v1Shapes.has(target.id) && !target.id.startsWith("smithy.api#"))) m.traits.set(DEFAULT, zero);
      }
    }
  }
}

function isListLike(type: string): boolean {
  return type === "list" || type === "set";
}

/**
 * Orders absolute shape ids as a `java.util.HashMap<ShapeId, …>` of the
 * default capacity iterates them: by bucket of Smithy's `ShapeId.hashCode`,
 * then by insertion.
 */
function javaHashMapOrder(ids: readonly string[]): string[] {
  let capacity = 16;
  while (ids.length > capacity * 0.75) capacity *= 2;
  const javaHash = (s: string) => {
    let h = 0;
    for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
    return h;
  };
  const bucket = (id: string) => {
    const hash = id.indexOf("#");
    const dollar = id.indexOf("$", hash);
    const name = dollar < 0 ? id.slice(hash + 1) : id.slice(hash + 1, dollar);
    const member = dollar < 0 ? 0 : javaHash(id.slice(dollar + 1));
    const h = (17 + Math.imul(Math.imul(31, javaHash(id.slice(0, hash))), 31) + Math.imul(javaHash(name), 17) + member) | 0;
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return ids
    .map((id, i) => ({ id, i, b: bucket(id) }))
    .sort((x, y) => x.b - y.b || x.i - y.i)
    .map((x) => x.id);
}

/**
 * Assembles file drafts into a model. The prelude draft, when given, is
 * immutable; shapes of `builtinFiles` are marked as built in.
 */
export function assemble(
  files: readonly FileDraft[],
  options: AssembleOptions = {},
  preludeFile?: FileDraft,
  builtinFiles: ReadonlySet<FileDraft> = new Set(),
): AssembleResult {
  return new Assembler(files, options, preludeFile, builtinFiles).run();
}
