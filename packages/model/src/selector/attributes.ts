import type { NodeValue } from "../node-value.js";
import type { Shape } from "../shape.js";
import type { SelectorComparator, SelectorPathSegment } from "./ast.js";
import type { SelectorShape } from "./neighbors.js";

/**
 * An attribute value met while resolving an attribute path. `undefined` is
 * the spec's "empty value". Projections are kept flat and hold only present
 * values.
 * @internal
 */
export type AttributeValue =
  | { readonly t: "shape"; readonly shape: SelectorShape }
  | { readonly t: "id"; readonly id: string }
  | { readonly t: "traits"; readonly shape: SelectorShape }
  | { readonly t: "service"; readonly shape: Shape }
  | { readonly t: "vars" }
  | { readonly t: "node"; readonly value: NodeValue }
  | { readonly t: "literal"; readonly value: string }
  | { readonly t: "projection"; readonly items: readonly AttributeValue[] };

/** Variables in scope while evaluating a selector. @internal */
export type Variables = ReadonlyMap<string, ReadonlySet<SelectorShape>> | undefined;

const VARS: AttributeValue = { t: "vars" };

/** Whether an attribute value exists (spec: "attribute existence"). @internal */
export function isPresent(v: AttributeValue | undefined): v is AttributeValue {
  if (v === undefined) return false;
  if (v.t === "node") return v.value !== null;
  if (v.t === "projection") return v.items.length > 0;
  return true;
}

/** String form of a node value: strings, numbers and booleans; others are "". @internal */
export function nodeToString(value: NodeValue | undefined): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "boolean":
      return String(value);
    default:
      return "";
  }
}

/** The string form of an attribute value, as used by string comparators. @internal */
export function attributeToString(v: AttributeValue | undefined): string {
  if (v === undefined) return "";
  switch (v.t) {
    case "shape":
    case "service":
      return v.shape.id;
    case "id":
      return v.id;
    case "node":
      return nodeToString(v.value);
    case "literal":
      return v.value;
    default:
      return "";
  }
}

function project(values: Iterable<AttributeValue | undefined>): AttributeValue {
  const items: AttributeValue[] = [];
  for (const v of values) {
    if (!isPresent(v)) continue;
    if (v.t === "projection") items.push(...v.items);
    else items.push(v);
  }
  return { t: "projection", items };
}

function nodes(values: Iterable<NodeValue>): AttributeValue {
  const items: AttributeValue[] = [];
  for (const value of values) if (value !== null) items.push({ t: "node", value });
  return { t: "projection", items };
}

const literal = (value: string | number): AttributeValue => ({ t: "literal", value: String(value) });

/** Resolves one path segment against a value. @internal */
export function getProperty(v: AttributeValue | undefined, seg: SelectorPathSegment, vars: Variables): AttributeValue | undefined {
  if (!isPresent(v)) return undefined;
  const fn = seg.kind === "function";
  const name = seg.name;
  switch (v.t) {
    case "shape":
      if (fn) return undefined;
      switch (name) {
        case "id":
          return { t: "id", id: v.shape.id };
        case "trait":
          return { t: "traits", shape: v.shape };
        case "service":
          return v.shape.type === "service" ? { t: "service", shape: v.shape } : undefined;
        case "var":
          return VARS;
        case "shape":
          return v;
        default:
          return undefined;
      }
    case "id": {
      const id = v.id;
      const hash = id.indexOf("#");
      const dollar = id.indexOf("$", hash);
      if (fn) return name === "length" ? literal(id.length) : undefined;
      switch (name) {
        case "namespace":
          return literal(id.slice(0, hash));
        case "name":
          return literal(id.slice(hash + 1, dollar < 0 ? undefined : dollar));
        case "member":
          return dollar < 0 ? undefined : literal(id.slice(dollar + 1));
        default:
          return undefined;
      }
    }
    case "service":
      if (fn) return undefined;
      if (name === "id") return { t: "id", id: v.shape.id };
      if (name === "version") return v.shape.version === undefined ? undefined : literal(v.shape.version);
      return undefined;
    case "traits": {
      const traits = v.shape.traits;
      if (fn) {
        if (name === "keys") return project(Array.from(traits.keys(), (id): AttributeValue => ({ t: "id", id })));
        if (name === "values") return nodes(traits.values());
        if (name === "length") return literal(traits.size);
        return undefined;
      }
      const traitId = seg.kind === "property" ? seg.traitId : name;
      const value = traits.get(traitId);
      return value === undefined ? undefined : { t: "node", value };
    }
    case "vars": {
      if (fn) return undefined;
      const set = vars?.get(name);
      if (!set) return undefined;
      const items: AttributeValue[] = [];
      for (const shape of set) items.push({ t: "shape", shape });
      return { t: "projection", items };
    }
    case "node": {
      const value = v.value;
      if (Array.isArray(value)) {
        if (!fn) return undefined;
        if (name === "values") return nodes(value);
        if (name === "length") return literal(value.length);
        return undefined;
      }
      if (typeof value === "object" && value !== null) {
        if (fn) {
          if (name === "keys") return project(Object.keys(value).map(literal));
          if (name === "values") return nodes(Object.values(value));
          if (name === "length") return literal(Object.keys(value).length);
          return undefined;
        }
        if (!Object.hasOwn(value, name)) return undefined;
        const child = value[name];
        return child === undefined || child === null ? undefined : { t: "node", value: child };
      }
      if (typeof value === "string" && fn && name === "length") return literal(value.length);
      return undefined;
    }
    case "literal":
      return fn && name === "length" ? literal(v.value.length) : undefined;
    case "projection":
      if (fn && name === "first") return v.items[0];
      return project(v.items.map((item) => getProperty(item, seg, vars)));
  }
}

/** Resolves a whole path. @internal */
export function resolvePath(start: AttributeValue, path: readonly SelectorPathSegment[], vars: Variables, from = 0): AttributeValue | undefined {
  let v: AttributeValue | undefined = start;
  for (let i = from; i < path.length && v !== undefined; i++) v = getProperty(v, path[i], vars);
  return v;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Compares two scalar strings. Both exist. @internal */
export function compareScalars(comparator: SelectorComparator, a: string, b: string, caseInsensitive: boolean): boolean {
  switch (comparator) {
    case ">":
    case ">=":
    case "<":
    case "<=": {
      if (!NUMBER.test(a) || !NUMBER.test(b)) return false;
      const x = Number(a);
      const y = Number(b);
      return comparator === ">" ? x > y : comparator === ">=" ? x >= y : comparator === "<" ? x < y : x <= y;
    }
    default:
      break;
  }
  if (caseInsensitive) {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  switch (comparator) {
    case "=":
      return a === b;
    case "!=":
      return a !== b;
    case "^=":
      return a.startsWith(b);
    case "$=":
      return a.endsWith(b);
    case "*=":
      return a.includes(b);
    default:
      return false;
  }
}

function stringSet(items: readonly AttributeValue[], caseInsensitive: boolean): Set<string> {
  const set = new Set<string>();
  for (const item of items) {
    const s = attributeToString(item);
    set.add(caseInsensitive ? s.toLowerCase() : s);
  }
  return set;
}

function isSubset(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

function compareProjections(comparator: SelectorComparator, lhs: AttributeValue | undefined, rhs: AttributeValue | undefined, ci: boolean): boolean {
  if (lhs?.t !== "projection" || rhs?.t !== "projection") return comparator === "{!=}";
  const a = stringSet(lhs.items, ci);
  const b = stringSet(rhs.items, ci);
  switch (comparator) {
    case "{=}":
      return isSubset(a, b) && isSubset(b, a);
    case "{!=}":
      return !(isSubset(a, b) && isSubset(b, a));
    case "{<}":
      return isSubset(a, b);
    default: // {<<}
      return isSubset(a, b) && !isSubset(b, a);
  }
}

/**
 * Compares a resolved left value with each right value: matches if any right
 * value matches (and, for projections, any item of the left projection).
 * @internal
 */
export function compareValues(
  comparator: SelectorComparator,
  lhs: AttributeValue | undefined,
  rhs: readonly (AttributeValue | undefined)[],
  caseInsensitive: boolean,
): boolean {
  if (comparator[0] === "{") {
    for (const r of rhs) if (compareProjections(comparator, lhs, r, caseInsensitive)) return true;
    return false;
  }
  if (comparator === "?=") {
    const present = isPresent(lhs);
    for (const r of rhs) {
      const s = attributeToString(r).toLowerCase();
      if (s === "true" ? present : s === "false" ? !present : false) return true;
    }
    return false;
  }
  if (!isPresent(lhs)) return false;
  for (const r of rhs) {
    if (!isPresent(r)) continue;
    if (lhs.t === "projection") {
      for (const item of lhs.items) if (compareOne(comparator, item, r, caseInsensitive)) return true;
    } else if (compareOne(comparator, lhs, r, caseInsensitive)) return true;
  }
  return false;
}

function compareOne(comparator: SelectorComparator, lhs: AttributeValue, rhs: AttributeValue, ci: boolean): boolean {
  const a = attributeToString(lhs);
  if (rhs.t === "projection") {
    for (const item of rhs.items) if (compareScalars(comparator, a, attributeToString(item), ci)) return true;
    return false;
  }
  return compareScalars(comparator, a, attributeToString(rhs), ci);
}
