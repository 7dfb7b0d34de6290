import { Model } from "./model.js";
import type { NodeObject, NodeValue } from "./node-value.js";
import type { MemberShape, Shape, Traits } from "./shape.js";

/** A Smithy JSON AST document. */
export interface JsonAst {
  /** The JSON AST version, such as `2.0`. */
  smithy: string;
  /** Model metadata by key; absent when the model has none. */
  metadata?: Record<string, NodeValue>;
  /** Shape definitions and `apply` entries, keyed by absolute shape id. */
  shapes: Record<string, NodeObject>;
}

/** Options of {@link modelToJsonAst}. */
export interface JsonAstOptions {
  /** Include the prelude and Anvil's bundled trait shapes (default false). */
  readonly includePrelude?: boolean;
}

const UNIT = "smithy.api#Unit";

function localTraits(traits: Traits, inherited: ReadonlySet<string> | undefined): NodeObject | undefined {
  let out: NodeObject | undefined;
  for (const [id, value] of traits) {
    if (inherited?.has(id)) continue;
    (out ??= {})[id] = value;
  }
  return out;
}

const ref = (target: string): NodeObject => ({ target });
const refs = (targets: readonly string[]): NodeObject[] => targets.map(ref);
const refMap = (m: Record<string, string>): NodeObject => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, ref(v)]));

function memberAst(member: MemberShape): NodeObject {
  const out: NodeObject = { target: member.target };
  const traits = localTraits(member.traits, member.inheritedTraits);
  if (traits) out.traits = traits;
  return out;
}

function shapeAst(shape: Shape, applies: Record<string, NodeObject>): NodeObject {
  const out: NodeObject = { type: shape.type };
  if (shape.mixins.length) out.mixins = refs(shape.mixins);
  const own: MemberShape[] = [];
  for (const m of shape.members.values()) {
    if (!m.mixinMember) own.push(m);
    else {
      const introduced = localTraits(m.traits, m.inheritedTraits);
      if (introduced) applies[m.id] = { type: "apply", traits: introduced };
    }
  }
  switch (shape.type) {
    case "list":
    case "set":
      for (const m of own) out[m.name] = memberAst(m);
      break;
    case "map":
      for (const m of own) out[m.name] = memberAst(m);
      break;
    case "structure":
    case "union":
    case "enum":
    case "intEnum":
      out.members = Object.fromEntries(own.map((m) => [m.name, memberAst(m)]));
      break;
    case "service":
      if (shape.version !== undefined) out.version = shape.version;
      if (shape.operations?.length) out.operations = refs(shape.operations);
      if (shape.resources?.length) out.resources = refs(shape.resources);
      if (shape.errors?.length) out.errors = refs(shape.errors);
      if (shape.rename && Object.keys(shape.rename).length) out.rename = { ...shape.rename };
      break;
    case "resource":
      if (shape.identifiers && Object.keys(shape.identifiers).length) out.identifiers = refMap(shape.identifiers);
      if (shape.properties && Object.keys(shape.properties).length) out.properties = refMap(shape.properties);
      for (const k of ["create", "put", "read", "update", "delete", "list"] as const) {
        const v = shape[k];
        if (v) out[k] = ref(v);
      }
      if (shape.operations?.length) out.operations = refs(shape.operations);
      if (shape.collectionOperations?.length) out.collectionOperations = refs(shape.collectionOperations);
      if (shape.resources?.length) out.resources = refs(shape.resources);
      break;
    case "operation":
      if (shape.input && shape.input !== UNIT) out.input = ref(shape.input);
      if (shape.output && shape.output !== UNIT) out.output = ref(shape.output);
      if (shape.errors?.length) out.errors = refs(shape.errors);
      break;
    default:
      break;
  }
  const traits = localTraits(shape.traits, shape.inheritedTraits);
  if (traits) out.traits = traits;
  return out;
}

/**
 * Writes a model as a Smithy JSON AST (version 2.0). Shapes with mixins are
 * written unflattened, as Smithy does: inherited members and traits are left
 * out, and traits introduced on inherited members become `apply` entries.
 */
export function modelToJsonAst(model: Model, options: JsonAstOptions = {}): JsonAst {
  const shapes: Record<string, NodeObject> = {};
  const applies: Record<string, NodeObject> = {};
  for (const shape of model.shapes.values()) {
    if (!options.includePrelude && model.isBuiltin(shape.id)) continue;
    shapes[shape.id] = shapeAst(shape, applies);
  }
  Object.assign(shapes, applies);
  const ast: JsonAst = { smithy: "2.0", shapes };
  if (Object.keys(model.metadata).length) ast.metadata = { ...model.metadata };
  return ast;
}

/**
 * Returns a model with mixins flattened away: every shape holds its inherited
 * members and traits as its own, and the mixin shapes themselves are removed.
 */
export function flattenMixins(model: Model): Model {
  const shapes = new Map<string, Shape>();
  for (const shape of model.shapes.values()) {
    if (shape.traits.has("smithy.api#mixin")) continue;
    const members = new Map<string, MemberShape>();
    for (const m of shape.members.values()) {
      members.set(m.name, {
        type: "member",
        id: m.id,
        name: m.name,
        container: m.container,
        target: m.target,
        traits: new Map(m.traits),
        location: m.location,
      });
    }
    const { inheritedTraits: _inherited, ...rest } = shape;
    shapes.set(shape.id, { ...rest, traits: new Map(shape.traits), members, mixins: [] });
  }
  return new Model(shapes, model.metadata, new Set([...model.builtins].filter((id) => shapes.has(id))));
}
