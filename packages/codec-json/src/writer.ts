/**
 * The schema-compiled JSON writer: a closure tree, compiled once per schema
 * and settings (`write/`: one module per kind), that concatenates JSON text
 * with keys quoted at compile time.
 */
import { BigDecimal, type Schema } from "@anvil/core";
import { encodeUtf8 } from "@anvil/core/protocol";
import { parseExact } from "./exact-parse.js";
import { toSerializationError } from "./failure.js";
import { exactInteger, RawNumber } from "./numbers.js";
import { defineData, timestampFormatOf } from "./schema-info.js";
import { type JsonSettings, resolveSettings } from "./settings.js";
import { compileSchema } from "./write/compile.js";

/**
 * A compiled JSON writer: call it with a value to get JSON text. Throws
 * `SerializationError` (message `encode json: ...`) on values that do not
 * fit the schema.
 */
export interface JsonWriter<T> {
  /** Encodes a value of the schema as JSON text. */
  (value: T): string;
  /** The JSON text as UTF-8 bytes. */
  toBytes(value: T): Uint8Array;
  /**
   * A JSON-compatible value (plain objects, arrays, strings, numbers,
   * booleans, null) for embedding in a larger document. Numbers a double
   * cannot hold exactly stay exact: `JSON.rawJSON` values where the runtime
   * has it, else `bigint` (integers) and `BigDecimal` (decimals).
   */
  toValue(value: T): unknown;
}

type Obj = Record<string, unknown>;

const isArray = Array.isArray;

const writers = new WeakMap<Schema, Map<string, JsonWriter<unknown>>>();

/**
 * Compiles a writer for a schema. Compiled once per schema object and
 * settings; later calls return the cached writer.
 */
export function compileWriter<T>(schema: Schema<T>, settings?: JsonSettings): JsonWriter<T> {
  const s = resolveSettings(settings);
  let bySettings = writers.get(schema);
  if (bySettings === undefined) writers.set(schema, (bySettings = new Map()));
  const cached = bySettings.get(s.key);
  if (cached !== undefined) return cached as JsonWriter<T>;

  const enc = compileSchema(schema, s, timestampFormatOf(schema.traits, s));
  const write = ((value: T): string => {
    try {
      return enc(value, 0);
    } catch (error) {
      throw toSerializationError(error, "encode json");
    }
  }) as JsonWriter<T>;
  write.toBytes = (value: T): Uint8Array => encodeUtf8(write(value));
  write.toValue = (value: T): unknown => {
    const text = write(value);
    try {
      return materialize(parseExact(text, Number.MAX_SAFE_INTEGER));
    } catch (error) {
      throw toSerializationError(error, "encode json");
    }
  };
  bySettings.set(s.key, write as JsonWriter<unknown>);
  return write;
}

const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;

/** Replaces RawNumber leaves of a freshly parsed tree with exact values. */
function materialize(v: unknown): unknown {
  if (typeof v !== "object" || v === null) return v;
  if (v instanceof RawNumber) {
    if (rawJSON !== undefined) return rawJSON(v.text);
    const x = exactInteger(v.text);
    return x === undefined || x === null ? BigDecimal.from(v.text) : x;
  }
  if (isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = materialize(v[i]);
    return v;
  }
  const o = v as Obj;
  for (const key in o) {
    const e = o[key];
    if (typeof e === "object" && e !== null) defineData(o, key, materialize(e));
  }
  return o;
}
