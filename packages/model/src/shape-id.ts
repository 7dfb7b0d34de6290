/**
 * Shape id syntax: `namespace#Name` with an optional `$member`. Namespaces are
 * dot-separated identifiers; identifiers start with a letter or `_`.
 */
const IDENTIFIER = "[A-Za-z_][A-Za-z0-9_]*";
const ABSOLUTE = new RegExp(`^${IDENTIFIER}(\\.${IDENTIFIER})*#${IDENTIFIER}(\\$${IDENTIFIER})?$`);
const RELATIVE = new RegExp(`^${IDENTIFIER}(\\$${IDENTIFIER})?$`);
const NAMESPACE = new RegExp(`^${IDENTIFIER}(\\.${IDENTIFIER})*$`);
const IDENT = new RegExp(`^${IDENTIFIER}$`);

/** Whether `text` is an absolute shape id (`ns#Name` or `ns#Name$member`). */
export function isAbsoluteShapeId(text: string): boolean {
  return ABSOLUTE.test(text);
}

/** Whether `text` is a relative shape id (`Name` or `Name$member`). */
export function isRelativeShapeId(text: string): boolean {
  return RELATIVE.test(text);
}

/** Whether `text` is a valid namespace. */
export function isNamespace(text: string): boolean {
  return NAMESPACE.test(text);
}

/** Whether `text` is a valid identifier (member names, shape names). */
export function isIdentifier(text: string): boolean {
  return IDENT.test(text);
}

/** The parts of an absolute shape id. */
export interface ShapeIdParts {
  /** The namespace, before `#`: `example.weather` in `example.weather#City$name`. */
  readonly namespace: string;
  /** The shape name, between `#` and `$`: `City` in `example.weather#City$name`. */
  readonly name: string;
  /** The member name, after `$`; `undefined` when the id names no member. */
  readonly member: string | undefined;
}

/** Splits an absolute shape id; assumes it is valid. */
export function splitShapeId(id: string): ShapeIdParts {
  const hash = id.indexOf("#");
  const dollar = id.indexOf("$", hash);
  return {
    namespace: id.slice(0, hash),
    name: dollar < 0 ? id.slice(hash + 1) : id.slice(hash + 1, dollar),
    member: dollar < 0 ? undefined : id.slice(dollar + 1),
  };
}

/** The namespace of an absolute shape id. */
export function namespaceOf(id: string): string {
  return id.slice(0, id.indexOf("#"));
}

/** The name of an absolute shape id, without namespace or member. */
export function nameOf(id: string): string {
  const hash = id.indexOf("#");
  const dollar = id.indexOf("$", hash);
  return dollar < 0 ? id.slice(hash + 1) : id.slice(hash + 1, dollar);
}

/** The id without its member part (`ns#A$b` → `ns#A`). */
export function withoutMember(id: string): string {
  const dollar = id.indexOf("$");
  return dollar < 0 ? id : id.slice(0, dollar);
}

/** How messages name a trait: `smithy.api#tags` reads as `tags`, other namespaces in full (as Smithy does). */
export function traitDisplayName(id: string): string {
  return id.startsWith("smithy.api#") ? id.slice("smithy.api#".length) : id;
}
