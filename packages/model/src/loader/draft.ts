/**
 * The intermediate form a file loader (IDL or JSON AST) produces. References
 * are kept as written, with their location, and resolved when the whole model
 * is known, because a relative name may refer to a shape of another file.
 *
 * @internal
 */
import type { ShapeType } from "../shape.js";
import type { SourceLocation } from "../source-location.js";
import type { ValidationEvent } from "../validation-event.js";

/** A shape reference as written: absolute (`ns#Name`, `ns#Name$member`) or relative (`Name`). */
export interface RefDraft {
  readonly text: string;
  readonly location: SourceLocation;
}

/** An unquoted identifier used as a node value in the IDL; it resolves to a shape id string. */
export class SyntacticShapeId {
  constructor(
    readonly text: string,
    readonly location: SourceLocation,
  ) {}
}

/** A node value whose unquoted shape ids are not resolved yet. */
export type NodeDraft = null | boolean | number | bigint | string | SyntacticShapeId | NodeDraft[] | { [key: string]: NodeDraft };

/** A trait application. `value` is `undefined` for an annotation (`@foo` with no parentheses). */
export interface TraitDraft {
  readonly name: RefDraft;
  readonly value: NodeDraft | undefined;
  readonly location: SourceLocation;
}

/** A member as written. `target` is absent when elided (`$name` or a member of an enum). */
export interface MemberDraft {
  readonly name: string;
  readonly target: RefDraft | undefined;
  /** Declared with `$name` (target taken from a mixin or the resource). */
  readonly elided: boolean;
  readonly traits: TraitDraft[];
  readonly location: SourceLocation;
}

/** A shape definition as written. The id is absolute (definitions always are). */
export interface ShapeDraft {
  readonly id: string;
  readonly type: Exclude<ShapeType, "member">;
  readonly location: SourceLocation;
  readonly traits: TraitDraft[];
  readonly members: MemberDraft[];
  readonly mixins: RefDraft[];
  /** IDL `for Resource`: a resource whose identifiers and properties may be elided. */
  readonly forResource?: RefDraft;

  version?: string;
  rename?: Record<string, string>;
  operations?: RefDraft[];
  resources?: RefDraft[];
  errors?: RefDraft[];
  identifiers?: Record<string, RefDraft>;
  properties?: Record<string, RefDraft>;
  create?: RefDraft;
  put?: RefDraft;
  read?: RefDraft;
  update?: RefDraft;
  delete?: RefDraft;
  list?: RefDraft;
  collectionOperations?: RefDraft[];
  input?: RefDraft;
  output?: RefDraft;
}

/** An `apply` statement (or a JSON AST `"type": "apply"` entry). */
export interface ApplyDraft {
  readonly target: RefDraft;
  readonly traits: TraitDraft[];
  readonly location: SourceLocation;
}

/** A metadata entry. */
export interface MetadataDraft {
  readonly key: string;
  readonly value: NodeDraft;
  readonly location: SourceLocation;
}

/** How relative references of one file resolve: its namespace and `use` statements. */
export interface ResolutionContext {
  readonly namespace: string;
  /** Local name → absolute shape id, from `use` statements. */
  readonly uses: ReadonlyMap<string, string>;
}

/** Everything one file contributes to a model. */
export interface FileDraft {
  readonly file: string;
  /** The declared IDL / JSON AST version ("1.0", "2.0", ...). IDL files without `$version` are "1.0". */
  readonly version: string;
  /** Null for JSON AST files, where every reference must be absolute. */
  readonly context: ResolutionContext | null;
  readonly metadata: MetadataDraft[];
  readonly shapes: ShapeDraft[];
  readonly applies: ApplyDraft[];
  /** Syntax errors and warnings found while reading the file. */
  readonly events: ValidationEvent[];
  /** Reading stopped at an error before the end of the file; what was read is not to be used. */
  readonly incomplete?: boolean;
}
