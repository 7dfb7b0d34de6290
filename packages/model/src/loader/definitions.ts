/**
 * The first phase of assembly: every file's shape drafts become shapes, with
 * their references resolved, duplicates compared, IDL-version rules checked,
 * `apply` statements and metadata collected, and their traits left pending.
 *
 * @internal
 */
import { PRELUDE_NAMESPACE } from "../model.js";
import { nodeEquals, setNodeKey, type NodeValue } from "../node-value.js";
import type { MemberShape, Shape } from "../shape.js";
import { withoutMember } from "../shape-id.js";
import { formatLocation, type SourceLocation } from "../source-location.js";
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
import { type AssemblyState, DEFAULT, MIXIN } from "./assembly-state.js";

/** Warns of `use` statements that name no defined shape. */
export function checkUses(asm: AssemblyState, file: FileDraft): void {
  if (!file.context) return;
  for (const id of file.context.uses.values()) {
    if (!asm.defined.has(withoutMember(id))) asm.emit("WARNING", "Model", `Use statement refers to undefined shape: ${id}`);
  }
}

// ---- definitions ----------------------------------------------------------

/** Records a shape draft as defined; a duplicate is a note when equivalent, else an error. */
export function define(asm: AssemblyState, draft: ShapeDraft, file: FileDraft): void {
  const existing = asm.definitions.get(draft.id);
  if (!existing) {
    asm.definitions.set(draft.id, { draft, file });
    return;
  }
  const a = canonical(asm, existing.draft, existing.file);
  const b = canonical(asm, draft, file);
  const where = `${formatLocation(existing.draft.location)} and ${formatLocation(draft.location)}`;
  if (nodeEquals(a, b)) {
    asm.emit(
      "NOTE",
      "Model.IgnoredDuplicateDefinition",
      `Ignoring duplicate but equivalent shape definition: ${draft.id} defined at ${where}`,
      draft.id,
      draft.location,
    );
  } else {
    asm.emit("ERROR", "Model", `Conflicting shape definition for \`${draft.id}\` found at ${where}`, draft.id, draft.location);
  }
}

/** A resolved, location-free rendering of a draft, to compare duplicates. */
function canonical(asm: AssemblyState, d: ShapeDraft, file: FileDraft): NodeValue {
  const r = (ref: RefDraft | undefined): NodeValue => (ref ? (asm.resolve(ref.text, file.context) ?? ref.text) : null);
  const rs = (refs: readonly RefDraft[] | undefined): NodeValue => (refs ? refs.map(r) : null);
  const rm = (m: Record<string, RefDraft> | undefined): NodeValue => (m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, r(v)])) : null);
  const traits = (ts: readonly TraitDraft[]): NodeValue =>
    Object.fromEntries(ts.map((t) => [asm.resolve(t.name.text, file.context) ?? t.name.text, quietNode(asm, t.value, file.context)]));
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

function quietNode(asm: AssemblyState, node: NodeDraft | undefined, context: ResolutionContext | null): NodeValue {
  if (node === undefined) return "<annotation>";
  if (node instanceof SyntacticShapeId) return asm.resolve(node.text, context) ?? node.text;
  if (Array.isArray(node)) return node.map((n) => quietNode(asm, n, context));
  if (node !== null && typeof node === "object") {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, quietNode(asm, v, context)]));
  }
  return node;
}

function addPending(asm: AssemblyState, targetId: string, trait: TraitDraft, file: FileDraft, owner: string): void {
  const id = asm.resolve(trait.name.text, file.context);
  if (id === undefined) {
    asm.emit("ERROR", "Model", `Invalid shape ID: ${trait.name.text}`, owner, trait.location);
    return;
  }
  if (id.includes("$")) {
    asm.emit("ERROR", "Model", `Trait names cannot refer to members: ${trait.name.text}`, owner, trait.location);
    return;
  }
  let list = asm.pending.get(targetId);
  if (!list) asm.pending.set(targetId, (list = []));
  list.push({ id, value: trait.value, location: trait.location, context: file.context });
}

/** Builds a shape from its draft: members, references and bindings resolved, its own and its members' traits left pending. */
export function build(asm: AssemblyState, id: string, d: ShapeDraft, file: FileDraft): void {
  const members = new Map<string, MemberShape>();
  const elidedTargets = d.forResource ? resourceTargets(asm, d.forResource, file, id) : undefined;
  const allowed = d.type === "list" || d.type === "set" ? ["member"] : d.type === "map" ? ["key", "value"] : undefined;
  for (const m of d.members) {
    if (allowed && !allowed.includes(m.name)) {
      asm.emit(
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
      asm.emit("ERROR", "Model", `Duplicate member of \`${id}\`: '${m.name}'`, id, m.location);
      continue;
    }
    members.set(m.name, buildMember(asm, id, m, d, file, elidedTargets));
  }
  checkDraftRules(asm, id, d, file);
  if (file.version.startsWith("1")) asm.v1Shapes.add(id);
  const shape: Shape = { id, type: d.type, traits: new Map(), members, mixins: asm.refs(d.mixins, file, id) ?? [], location: d.location };
  if (d.version !== undefined) shape.version = d.version;
  if (d.rename !== undefined) shape.rename = d.rename;
  const assign = (key: "operations" | "resources" | "errors" | "collectionOperations", refs: readonly RefDraft[] | undefined) => {
    const v = asm.refs(refs, file, id);
    if (v) shape[key] = v;
  };
  assign("operations", d.operations);
  assign("resources", d.resources);
  assign("errors", d.errors);
  assign("collectionOperations", d.collectionOperations);
  const identifiers = asm.refMap(d.identifiers, file, id);
  if (identifiers) shape.identifiers = identifiers;
  const properties = asm.refMap(d.properties, file, id);
  if (properties) shape.properties = properties;
  for (const key of ["create", "put", "read", "update", "delete", "list", "input", "output"] as const) {
    const v = asm.ref(d[key], file, id);
    if (v !== undefined) shape[key] = v;
  }
  if (d.type === "operation") {
    shape.input ??= "smithy.api#Unit";
    shape.output ??= "smithy.api#Unit";
    shape.errors ??= [];
  }
  asm.shapes.set(id, shape);
  for (const t of d.traits) addPending(asm, id, t, file, id);
  for (const m of d.members) if (members.get(m.name)?.location === m.location) for (const t of m.traits) addPending(asm, `${id}$${m.name}`, t, file, id);
}

/** Rules that depend on how a shape was written: IDL version features and mixin restrictions. */
function checkDraftRules(asm: AssemblyState, id: string, d: ShapeDraft, file: FileDraft): void {
  if (d.type === "set") {
    asm.emit(
      "WARNING",
      "ModelDeprecation",
      "Set shapes are deprecated and have been removed in Smithy IDL v2. Use a list shape with the @uniqueItems trait instead.",
      id,
      d.location,
    );
  }
  const v1 = file.version.startsWith("1");
  if (v1 && (d.type === "enum" || d.type === "intEnum")) {
    asm.emit("ERROR", "Model", `${d.type} shapes cannot be used in Smithy version ${file.version}`, id, d.location);
  }
  if (!v1 && d.type === "set" && file.context) {
    asm.emit("ERROR", "Model", `set shapes cannot be used in Smithy version ${file.version}`, id, d.location);
  }
  const isMixin = d.traits.some((t) => asm.resolve(t.name.text, file.context) === MIXIN);
  if (v1 && (isMixin || d.mixins.length > 0)) {
    asm.emit(
      "ERROR",
      "Model",
      `Mixins can only be used in Smithy 2.0 or later. Attempted to apply a @mixin trait to \`${id}\` in a model file using version \`${file.version}\`.`,
      id,
      d.location,
    );
  }
  if (isMixin && d.type === "operation" && (d.input || d.output)) {
    asm.emit(
      "ERROR",
      "Model",
      `Operation shapes with the mixin trait MUST target \`smithy.api#Unit\` for their input and output. Operation mixin shape \`${id}\` defines one or both of these properties.`,
      id,
      d.location,
    );
  }
  if (isMixin && d.type === "resource" && Object.keys({ ...d.properties, ...d.identifiers }).length) {
    asm.emit(
      "ERROR",
      "Model",
      `Resource shapes with the mixin trait may not define any properties. Resource mixin shape \`${id}\` defines one or more properties.`,
      id,
      d.location,
    );
  }
  if (v1) {
    for (const m of d.members) {
      if (m.traits.some((t) => asm.resolve(t.name.text, file.context) === DEFAULT)) {
        asm.emit("ERROR", "Model", "The @default trait can only be used in Smithy 2.0 or later", `${id}$${m.name}`, m.location);
      }
    }
  }
}

/** Identifier and property targets of the resource named by `for`, which elided members may take. */
function resourceTargets(asm: AssemblyState, ref: RefDraft, file: FileDraft, owner: string): Map<string, string> | undefined {
  const id = asm.ref(ref, file, owner);
  if (!id) return undefined;
  const def = asm.definitions.get(id);
  if (!def) {
    asm.emit("ERROR", "Target", `The target of the \`for\` production, \`${id}\`, is not defined in the model`, owner, ref.location);
    return undefined;
  }
  if (def.draft.type !== "resource") {
    asm.emit(
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
    const t = asm.resolve(r.text, def.file.context);
    if (t) out.set(name, t);
  }
  for (const [name, r] of Object.entries(def.draft.identifiers ?? {})) {
    const t = asm.resolve(r.text, def.file.context);
    if (t) out.set(name, t);
  }
  return out;
}

function buildMember(
  asm: AssemblyState,
  container: string,
  m: MemberDraft,
  d: ShapeDraft,
  file: FileDraft,
  resourceTargets: Map<string, string> | undefined,
): MemberShape {
  let target = "";
  if (m.target) target = asm.ref(m.target, file, `${container}$${m.name}`) ?? "";
  else if (d.type === "enum" || d.type === "intEnum") target = "smithy.api#Unit";
  else if (m.elided) target = resourceTargets?.get(m.name) ?? "";
  return { type: "member", id: `${container}$${m.name}`, name: m.name, container, target, traits: new Map(), location: m.location };
}

/** Collects the traits of an `apply` statement as pending on their target (never on an immutable prelude shape). */
export function collectApply(asm: AssemblyState, target: RefDraft, traits: readonly TraitDraft[], file: FileDraft): void {
  const id = asm.resolve(target.text, file.context);
  if (id === undefined) {
    asm.emit("ERROR", "Model", `Invalid shape ID: ${target.text}`, undefined, target.location);
    return;
  }
  const def = asm.definitions.get(withoutMember(id));
  if (def && def.file === asm.preludeFile && file !== asm.preludeFile) {
    for (const t of traits) {
      const traitId = asm.resolve(t.name.text, file.context) ?? t.name.text;
      asm.emit("ERROR", "Model", `Cannot apply \`${traitId}\` to an immutable prelude shape defined in \`${PRELUDE_NAMESPACE}\`.`, id, t.location);
    }
    return;
  }
  for (const t of traits) addPending(asm, id, t, file, id);
}

/** Merges one metadata entry: lists concatenate, equal values agree, others conflict. */
export function mergeMetadata(asm: AssemblyState, key: string, value: NodeValue, location: SourceLocation): void {
  if (!Object.hasOwn(asm.metadata, key)) {
    setNodeKey(asm.metadata, key, value);
    asm.metadataLocations.set(key, location);
    return;
  }
  const prev = asm.metadata[key]!;
  if (Array.isArray(prev) && Array.isArray(value)) {
    setNodeKey(asm.metadata, key, [...prev, ...value]);
  } else if (!nodeEquals(prev, value)) {
    asm.emit(
      "ERROR",
      "Model",
      `Metadata conflict for key \`${key}\`. Defined in both \`${formatLocation(asm.metadataLocations.get(key)!)}\` and \`${formatLocation(location)}\``,
      undefined,
      location,
    );
  }
}
