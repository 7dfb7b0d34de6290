/**
 * Example matching for fakes: whether an incoming value matches an example
 * value of the same schema. One set of rules serves generated fakes and
 * `anvil serve --fake`: members present in the example must equal the
 * incoming ones, members absent (or null) in the example match anything,
 * lists match element by element with equal length, maps per key with equal
 * size, unions on the named variant (then its value), documents anything,
 * and floats compare `NaN` and the infinities as values.
 */
import type { ListSchema, MapSchema, Schema, StructSchema, UnionSchema } from "../schema/schema.js";
import { BigDecimal } from "../values/big-decimal.js";

/** Whether `value` matches `example` (an example value of the same schema). */
export type ExampleMatcher = (example: unknown, value: unknown) => boolean;

const cache = new WeakMap<Schema, ExampleMatcher>();

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * Compiles the example matcher of a schema once (cached per schema; recursive
 * schemas terminate because the matcher is registered before its members are
 * compiled).
 *
 * @param schema - The schema both values belong to.
 */
export function compileExampleMatcher(schema: Schema): ExampleMatcher {
  const cached = cache.get(schema);
  if (cached) return cached;
  // Registered before compiling members, so recursion finds it.
  let compiled: ExampleMatcher = () => false;
  const lazy: ExampleMatcher = (e, v) => compiled(e, v);
  cache.set(schema, lazy);
  compiled = compile(schema);
  cache.set(schema, compiled);
  return compiled;
}

function compile(schema: Schema): ExampleMatcher {
  // A streamed member (blob bytes or events) cannot be compared before the handler runs.
  if (schema.traits.streaming) return () => true;
  switch (schema.kind) {
    case "structure":
      return structMatcher(schema);
    case "union":
      return unionMatcher(schema);
    case "list":
      return listMatcher(schema);
    case "map":
      return mapMatcher(schema);
    case "document":
      return () => true;
    case "float":
    case "double":
      return (e, v) => e === v || (Number.isNaN(e) && Number.isNaN(v));
    case "byte":
    case "short":
    case "integer":
    case "long":
    case "bigInteger":
      return numbersEqual;
    case "bigDecimal":
      return (e, v) => BigDecimal.is(e) && (BigDecimal.is(v) || typeof v === "number" || typeof v === "bigint") && e.equals(v);
    case "timestamp":
      return (e, v) => e instanceof Date && v instanceof Date && e.getTime() === v.getTime();
    case "blob":
      return bytesEqual;
    default:
      // boolean, string, enum, intEnum
      return (e, v) => e === v;
  }
}

const isIntegral = (x: unknown): x is number | bigint => typeof x === "bigint" || (typeof x === "number" && Number.isInteger(x));

// long and bigInteger values may arrive as a number or a bigint: `1` equals `1n`.
function numbersEqual(e: unknown, v: unknown): boolean {
  if (e === v) return true;
  return (typeof e === "bigint" || typeof v === "bigint") && isIntegral(e) && isIntegral(v) && BigInt(e) === BigInt(v);
}

function bytesEqual(e: unknown, v: unknown): boolean {
  if (!(e instanceof Uint8Array) || !(v instanceof Uint8Array) || e.byteLength !== v.byteLength) return false;
  for (let i = 0; i < e.byteLength; i++) if (e[i] !== v[i]) return false;
  return true;
}

function structMatcher(schema: StructSchema<unknown>): ExampleMatcher {
  const names = schema.members.map((m) => m.name);
  const matchers = schema.members.map((m) => compileExampleMatcher(m.target));
  return (e, v) => {
    if (!isObject(e) || !isObject(v)) return false;
    for (let i = 0; i < names.length; i++) {
      const expected = e[names[i]!];
      if (expected === undefined || expected === null) continue;
      const actual = v[names[i]!];
      if (actual === undefined || actual === null || !matchers[i]!(expected, actual)) return false;
    }
    return true;
  };
}

function unionMatcher(schema: UnionSchema<unknown>): ExampleMatcher {
  const byName = new Map(schema.members.map((m) => [m.name, m] as const));
  return (e, v) => {
    if (!isObject(e) || !isObject(v) || e.$case !== v.$case) return false;
    const member = byName.get(e.$case as string);
    // An unknown variant in an example can only be compared as a whole.
    return member ? compileExampleMatcher(member.target)(e.value, v.value) : e.value === v.value;
  };
}

function elementMatcher(schema: Schema): ExampleMatcher {
  const inner = compileExampleMatcher(schema);
  // Sparse collections: a null example element matches only null.
  return (e, v) => (e === null || v === null ? e === v : inner(e, v));
}

function listMatcher(schema: ListSchema<unknown>): ExampleMatcher {
  const element = elementMatcher(schema.member.target);
  return (e, v) => {
    if (!Array.isArray(e) || !Array.isArray(v) || e.length !== v.length) return false;
    for (let i = 0; i < e.length; i++) if (!element(e[i], v[i])) return false;
    return true;
  };
}

function mapMatcher(schema: MapSchema<unknown>): ExampleMatcher {
  const value = elementMatcher(schema.value.target);
  return (e, v) => {
    if (!isObject(e) || !isObject(v)) return false;
    const keys = Object.keys(e);
    if (keys.length !== Object.keys(v).length) return false;
    for (const key of keys) if (!Object.hasOwn(v, key) || !value(e[key], v[key])) return false;
    return true;
  };
}
