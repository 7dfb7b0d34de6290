/**
 * Synthesized values: what a fake answers where the model gives no example.
 * Strings echo the member name (fitted to `@length`, or following
 * `@pattern`; JSON text such as `{}` when their `@mediaType` is JSON), numbers are 0 clamped into `@range`, booleans true,
 * timestamps one fixed instant, blobs the member name's bytes, documents a
 * string, enums and intEnums their first value, unions the first variant
 * that can be synthesized, lists and maps max(1, `@length` min) entries,
 * `@httpResponseCode` members 200. Recursion ends by omitting a recursive
 * optional member or emitting an empty collection; recursion through
 * required members that cannot end is an {@link UnterminatedRecursionError}.
 */
import type { ListSchema, MapSchema, Schema, StructSchema, Traits, UnionSchema } from "@anvil/core";
import { BigDecimal } from "@anvil/core";
import { baseMediaType } from "@anvil/core/protocol";
import { patternString, patternTest } from "./pattern.js";

/** The instant every synthesized timestamp holds: 2024-01-01T00:00:00Z. */
export const SYNTHESIZED_INSTANT = 1_704_067_200_000;

/**
 * Recursion through required members (or non-empty collections) that no
 * value can end. `shapes` lists the cycle, first shape repeated last.
 */
export class UnterminatedRecursionError extends Error {
  /** Always `"UnterminatedRecursionError"`. */
  override readonly name = "UnterminatedRecursionError";
  constructor(
    /** The shape ids of the cycle, in order, the first repeated last (`["ex#A", "ex#B", "ex#A"]`). */
    readonly shapes: readonly string[],
  ) {
    super(`synthesize: recursion through required members cannot end: ${shapes.join(" -> ")}`);
  }
}

const FAIL: unique symbol = Symbol("cannot synthesize");
type Result = unknown | typeof FAIL;

const encoder = new TextEncoder();

/** Code points of a string (what `@length` counts). */
const codePoints = (s: string): number => [...s].length;

function fitText(base: string, length: Traits["length"]): string {
  const min = length?.min === undefined ? 0 : Number(length.min);
  const max = length?.max === undefined ? Infinity : Number(length.max);
  const seed = [...(base === "" ? "x" : base)];
  const out = [...base];
  while (out.length < min) out.push(seed[out.length % seed.length]!);
  if (out.length > max) out.length = Math.max(min, max);
  return out.join("");
}

/** Whether a `@mediaType` is JSON: `application/json`, or any `+json` type (`application/problem+json`), parameters aside. */
function isJsonMediaType(mediaType: string): boolean {
  const essence = baseMediaType(mediaType);
  return essence === "application/json" || essence.endsWith("+json");
}

/**
 * JSON text for a JSON `@mediaType` string: `{}` (variant n: `{"name":n}`,
 * so values stay distinct), padded with whitespace to a `@length` minimum;
 * `0` when `@length` allows fewer than two characters; undefined when it
 * allows none.
 */
function jsonText(name: string, variant: number, length: Traits["length"]): string | undefined {
  const min = length?.min === undefined ? 0 : Number(length.min);
  const max = length?.max === undefined ? Infinity : Number(length.max);
  const candidates = [variant ? JSON.stringify({ [name]: variant }) : "{}", "{}", String(variant % 10)];
  const text = candidates.find((c) => codePoints(c) <= max);
  if (text === undefined) return undefined;
  const pad = min - codePoints(text);
  // Whitespace before the last character keeps it the same JSON value.
  return pad > 0 ? `${text.slice(0, -1)}${" ".repeat(pad)}${text.slice(-1)}` : text;
}

function clamp(value: number, range: Traits["range"], integral: boolean): number {
  let v = value;
  if (range?.min !== undefined && v < Number(range.min)) v = Number(range.min);
  if (range?.max !== undefined && v > Number(range.max)) v = Number(range.max);
  if (!integral) return v;
  const up = Math.ceil(v);
  return range?.max !== undefined && up > Number(range.max) ? Math.floor(v) : up;
}

/** Walks schemas, keeping the structures and unions on the path to detect recursion. */
class Synthesizer {
  private readonly path: Schema[] = [];
  /** The first cycle met through a value that could not be synthesized. */
  cycle: string[] | undefined;

  value(schema: Schema, traits: Traits, name: string, variant: number): Result {
    if (traits.streaming && schema.kind === "union") return this.events(schema);
    switch (schema.kind) {
      case "structure":
      case "union":
        return this.nested(schema, variant);
      case "list":
        return this.list(schema, traits, name);
      case "map":
        return this.map(schema, traits, name);
      case "string":
        return this.string(traits, name, variant);
      case "enum":
        return schema.values.length ? schema.values[variant % schema.values.length]!.value : FAIL;
      case "intEnum":
        return schema.values.length ? schema.values[variant % schema.values.length]!.value : FAIL;
      case "boolean":
        return variant % 2 === 0;
      case "byte":
      case "short":
      case "integer":
      case "long":
      case "bigInteger":
        return clamp(variant, traits.range, true);
      case "float":
      case "double":
        return clamp(variant, traits.range, false);
      case "bigDecimal":
        return BigDecimal.from(String(clamp(variant, traits.range, false)));
      case "timestamp":
        return new Date(SYNTHESIZED_INSTANT + variant * 1000);
      case "blob":
        return Uint8Array.from(encoder.encode(fitText(variant ? `${name}${variant}` : name, traits.length)));
      case "document":
        return name;
      default:
        return FAIL;
    }
  }

  private nested(schema: StructSchema<unknown> | UnionSchema<unknown>, variant: number): Result {
    const at = this.path.indexOf(schema);
    if (at >= 0) {
      this.cycle ??= [...this.path.slice(at), schema].map((s) => s.id);
      return FAIL;
    }
    this.path.push(schema);
    try {
      return schema.kind === "structure" ? this.struct(schema, variant) : this.union(schema, variant);
    } finally {
      this.path.pop();
    }
  }

  struct(schema: StructSchema<unknown>, variant: number, given?: Readonly<Record<string, unknown>>): Result {
    const out: Record<string, unknown> = {};
    for (const m of schema.members) {
      const present = given?.[m.name];
      if (given !== undefined) {
        if (present !== undefined) out[m.name] = present;
        if (present !== undefined || !m.traits.required) continue;
      }
      // Extra JSON members and unknown fields are nothing a fake needs to invent.
      if (m.traits.jsonUnknown && !m.traits.required) continue;
      const v = m.traits.httpResponseCode ? clamp(200, m.traits.range, true) : this.value(m.target, m.traits, m.name, variant);
      if (v === FAIL) {
        if (m.traits.required) return FAIL;
        continue;
      }
      out[m.name] = v;
    }
    return out;
  }

  private union(schema: UnionSchema<unknown>, variant: number): Result {
    for (const m of schema.members) {
      const v = this.value(m.target, m.traits, m.name, variant);
      if (v !== FAIL) return { $case: m.name, value: v };
    }
    return FAIL;
  }

  /** An event stream: one event, of the first variant that is not an error. */
  private events(schema: UnionSchema<unknown>): Result {
    for (const m of schema.members) {
      if (m.target.traits.error) continue;
      const v = this.value(m.target, m.traits, m.name, 0);
      if (v !== FAIL) return [{ $case: m.name, value: v }];
    }
    return [];
  }

  private count(traits: Traits): number {
    return Math.max(1, traits.length?.min === undefined ? 0 : Number(traits.length.min));
  }

  private list(schema: ListSchema<unknown>, traits: Traits, name: string): Result {
    const out: unknown[] = [];
    const n = this.count(traits);
    for (let i = 0; i < n; i++) {
      const v = this.value(schema.member.target, schema.member.traits, name, i);
      if (v === FAIL) return Number(traits.length?.min ?? 0) > 0 ? FAIL : [];
      out.push(v);
    }
    return out;
  }

  private map(schema: MapSchema<unknown>, traits: Traits, name: string): Result {
    const out: Record<string, unknown> = {};
    const n = this.count(traits);
    for (let i = 0; i < n; i++) {
      const key = this.value(schema.key.target, schema.key.traits, name, i);
      const v = this.value(schema.value.target, schema.value.traits, name, i);
      if (key === FAIL || v === FAIL || typeof key !== "string") return Number(traits.length?.min ?? 0) > 0 ? FAIL : {};
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  private string(traits: Traits, name: string, variant: number): string {
    const matches = traits.pattern === undefined ? undefined : patternTest(traits.pattern);
    if (traits.uuidFormat) return `00000000-0000-4000-8000-${variant.toString(16).padStart(12, "0")}`;
    if (traits.mediaType !== undefined && isJsonMediaType(traits.mediaType)) {
      const json = jsonText(name, variant, traits.length);
      if (json !== undefined && (matches === undefined || matches(json))) return json;
    }
    const text = fitText(variant ? `${name}${variant}` : name, traits.length);
    if (traits.pattern === undefined || matches === undefined || matches(text)) return text;
    const min = traits.length?.min === undefined ? 0 : Number(traits.length.min);
    const generated = patternString(traits.pattern, min);
    if (generated !== undefined) return generated;
    // An expression the generator cannot follow: a few plain candidates, else the name (validation will say).
    for (const seed of [name.toLowerCase(), name.toUpperCase(), "a", "A", "0", "a0"]) {
      const candidate = fitText(seed, traits.length);
      if (matches(candidate)) return candidate;
    }
    return text;
  }
}

/**
 * A synthesized value of a schema.
 *
 * @param schema - The shape to synthesize a value of.
 * @param name - The name strings, blobs and documents echo (a member name).
 * @param traits - The traits that constrain it: a member's merged traits, or the schema's own.
 * @throws {@link UnterminatedRecursionError} when required recursion cannot end.
 */
export function synthesize(schema: Schema, name: string, traits: Traits = schema.traits): unknown {
  const s = new Synthesizer();
  const v = s.value(schema, traits, name, 0);
  if (v === FAIL) throw new UnterminatedRecursionError(s.cycle ?? [schema.id]);
  return v;
}

/**
 * A structure value with the required members `given` lacks synthesized
 * (and nothing else added): how an example output or error becomes a
 * complete answer. Nested structures are completed the same way.
 *
 * @param schema - The structure.
 * @param given - The members the example lists.
 * @throws {@link UnterminatedRecursionError} when a missing required member cannot be synthesized.
 */
export function completeStructure(schema: StructSchema<unknown>, given: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return complete(schema, given) as Record<string, unknown>;
}

function complete(schema: Schema, value: unknown): unknown {
  if (value === null || value === undefined || typeof value !== "object") return value;
  switch (schema.kind) {
    case "structure": {
      const given: Record<string, unknown> = {};
      for (const m of schema.members) {
        const v = (value as Record<string, unknown>)[m.name];
        if (v === undefined) continue;
        // Streamed members: bytes stay as they are; events (a list of union values) are completed one by one.
        if (m.target.traits.streaming) given[m.name] = Array.isArray(v) ? v.map((event) => complete(m.target, event)) : complete(m.target, v);
        else given[m.name] = complete(m.target, v);
      }
      const s = new Synthesizer();
      const out = s.struct(schema as StructSchema<unknown>, 0, given);
      if (out === FAIL) throw new UnterminatedRecursionError(s.cycle ?? [schema.id]);
      return out;
    }
    case "union": {
      const u = value as { $case?: string; value?: unknown };
      const m = schema.members.find((x) => x.name === u.$case);
      return m ? { $case: u.$case, value: complete(m.target, u.value) } : value;
    }
    case "list":
      return Array.isArray(value) ? value.map((v) => complete(schema.member.target, v)) : value;
    case "map": {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        Object.defineProperty(out, key, {
          value: complete(schema.value.target, (value as Record<string, unknown>)[key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    default:
      return value;
  }
}
