/**
 * What the phases of assembly share: the definitions and shapes built so
 * far, the traits waiting to be applied, the events, and the reference
 * rules (relative shape ids, syntactic shape ids in trait values) every
 * phase resolves with. The phases are `definitions.ts` (drafts to shapes),
 * `mixins.ts`, `traits.ts` and `finish.ts`; `assembler.ts` runs them.
 *
 * @internal
 */
import { PRELUDE_NAMESPACE } from "../model.js";
import { copyExactNumbers, setNodeKey, type NodeValue } from "../node-value.js";
import type { MemberShape, Shape } from "../shape.js";
import { isAbsoluteShapeId, withoutMember } from "../shape-id.js";
import type { SourceLocation } from "../source-location.js";
import type { ValidationEvent } from "../validation-event.js";
import { SyntacticShapeId, type FileDraft, type NodeDraft, type RefDraft, type ResolutionContext, type ShapeDraft } from "./draft.js";
import type { AssembleOptions } from "./assembler.js";

/** A shape as first defined, with the file it came from. */
export interface Definition {
  readonly draft: ShapeDraft;
  readonly file: FileDraft;
}

/** A trait waiting to be applied to a shape or member: its id, its value as written and where. */
export interface PendingTrait {
  readonly id: string;
  readonly value: NodeDraft | undefined;
  readonly location: SourceLocation;
  readonly context: ResolutionContext | null;
}

export const MIXIN = "smithy.api#mixin";
export const TRAIT = "smithy.api#trait";
export const DEFAULT = "smithy.api#default";
export const ENUM_VALUE = "smithy.api#enumValue";
export const BOX = "smithy.api#box";
export const NUMERIC = new Set(["byte", "short", "integer", "long", "float", "double"]);

/** The state of one assembly. */
export class AssemblyState {
  readonly events: ValidationEvent[] = [];
  readonly definitions = new Map<string, Definition>();
  /** Every defined top-level id, including duplicates: the resolution universe. */
  readonly defined = new Set<string>();
  /** Local and applied traits, keyed by shape or member id, in application order. */
  readonly pending = new Map<string, PendingTrait[]>();
  readonly shapes = new Map<string, Shape>();
  readonly metadata: Record<string, NodeValue> = {};
  readonly metadataLocations = new Map<string, SourceLocation>();

  /** The files assembled: those whose reading completed. */
  readonly files: readonly FileDraft[];

  constructor(
    files: readonly FileDraft[],
    readonly options: AssembleOptions,
    readonly preludeFile: FileDraft | undefined,
    readonly builtinFiles: ReadonlySet<FileDraft>,
  ) {
    for (const file of files) this.events.push(...file.events);
    // A file whose reading stopped at an error contributes nothing, as in Smithy: its
    // half-read shapes would only add misleading follow-on errors.
    this.files = files.filter((f) => !f.incomplete);
  }

  // ---- events -------------------------------------------------------------

  emit(severity: ValidationEvent["severity"], id: string, message: string, shapeId?: string, location?: SourceLocation): void {
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

  isBuiltin(id: string): boolean {
    const def = this.definitions.get(id);
    return def !== undefined && this.builtinFiles.has(def.file);
  }

  isPreludeId(id: string): boolean {
    const def = this.definitions.get(id);
    return def ? def.file === this.preludeFile : id.startsWith(`${PRELUDE_NAMESPACE}#`);
  }

  ref(ref: RefDraft | undefined, file: FileDraft, owner: string): string | undefined {
    if (!ref) return undefined;
    const id = this.resolve(ref.text, file.context);
    if (id === undefined) this.emit("ERROR", "Model", `Invalid shape ID: ${ref.text}`, owner, ref.location);
    return id;
  }

  refs(refs: readonly RefDraft[] | undefined, file: FileDraft, owner: string): string[] | undefined {
    if (!refs) return undefined;
    const out: string[] = [];
    for (const r of refs) {
      const id = this.ref(r, file, owner);
      if (id !== undefined) out.push(id);
    }
    return out;
  }

  refMap(refs: Record<string, RefDraft> | undefined, file: FileDraft, owner: string): Record<string, string> | undefined {
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

  /** Shapes defined in IDL/JSON 1.0 files, whose members get 1.0 nullability semantics. */
  readonly v1Shapes = new Set<string>();

  /** Ids of shapes dropped because they could not be built; traits aimed at them are not reported again. */
  readonly removed = new Set<string>();

  pendingHas(id: string, traitId: string): boolean {
    return this.pending.get(id)?.some((p) => p.id === traitId) ?? false;
  }

  lookup(id: string): Shape | MemberShape | undefined {
    const dollar = id.indexOf("$");
    if (dollar < 0) return this.shapes.get(id);
    return this.shapes.get(id.slice(0, dollar))?.members.get(id.slice(dollar + 1));
  }

  readonly applied = new WeakSet<Shape | MemberShape>();
}
