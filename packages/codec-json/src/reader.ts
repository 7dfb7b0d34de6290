/**
 * The schema-compiled JSON reader. Text goes through the native JSON.parse
 * (or the exact parser, when big numbers may be present); a closure tree
 * compiled once per schema and settings (`read/`: one module per kind) then
 * checks and converts the parsed value into Anvil's value model, with the
 * state of the pass ({@link ReadPass}) passed down explicitly.
 */
import type { Schema } from "@anvil/core";
import { mayHoldExponent, mayHoldLongDigits, mayHoldLossyNumber, parseExact } from "./exact-parse.js";
import { Failure, mismatch, toSerializationError } from "./failure.js";
import { compileSchema } from "./read/compile.js";
import { RETRY_EXACT, type ReadPass } from "./read/pass.js";
import { exactNumbersOf, timestampFormatOf } from "./schema-info.js";
import { type JsonSettings, resolveSettings } from "./settings.js";

/**
 * A compiled JSON reader: call it with JSON text or UTF-8 bytes. Throws
 * `SerializationError` (message `decode json: ...`, `path` a JSON pointer)
 * on anything that is not valid JSON of the schema.
 */
export interface JsonReader<T> {
  /** Decodes one JSON document, given as text or UTF-8 bytes, into a value of the schema. */
  (input: string | Uint8Array): T;
  /**
   * Converts an already-parsed JSON value (from `JSON.parse`), e.g. a payload
   * member or an error body. `path` is the JSON pointer of `parsed` within
   * its document, prefixed to error paths. The value may be reused in the result.
   */
  fromValue(parsed: unknown, path?: string): T;
}

const readers = new WeakMap<Schema, Map<string, JsonReader<unknown>>>();

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Whether Object.prototype has enumerable properties, which for-in over parsed objects would visit. */
function prototypePolluted(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/**
 * Compiles a reader for a schema. Compiled once per schema object and
 * settings; later calls return the cached reader.
 */
export function compileReader<T>(schema: Schema<T>, settings?: JsonSettings): JsonReader<T> {
  const s = resolveSettings(settings);
  let bySettings = readers.get(schema);
  if (bySettings === undefined) readers.set(schema, (bySettings = new Map()));
  const cached = bySettings.get(s.key);
  if (cached !== undefined) return cached as JsonReader<T>;

  const conv = compileSchema(schema, s, timestampFormatOf(schema.traits, s));
  const exact = exactNumbersOf(schema);
  const maxDepth = s.maxDepth;
  /** Converts a tree parsed from `text`; `sure` when its numbers are known to be exact. */
  const convertParsed = (parsed: unknown, sure: boolean, text: string): T => {
    const pass: ReadPass = { owned: !prototypePolluted(), unsure: !sure, underflowSeen: false };
    try {
      const value = conv(parsed, 0, pass) as T;
      if (sure || !pass.underflowSeen || !mayHoldExponent(text)) return value;
    } catch (error) {
      if (error !== RETRY_EXACT) throw error;
    }
    return convertParsed(parseExact(text, maxDepth), true, text);
  };
  const read = ((input: string | Uint8Array): T => {
    try {
      let text: string;
      if (typeof input === "string") text = input;
      else if (input instanceof Uint8Array) text = decodeUtf8(input);
      else throw mismatch("JSON text or bytes", input);
      if (exact === 2 ? mayHoldLossyNumber(text) : exact === 1 && mayHoldLongDigits(text)) return convertParsed(parseExact(text, maxDepth), true, text);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Failure("invalid JSON text");
      }
      return convertParsed(parsed, exact !== 1, text);
    } catch (error) {
      throw toSerializationError(error, "decode json");
    }
  }) as JsonReader<T>;
  read.fromValue = (parsed: unknown, path = ""): T => {
    try {
      return conv(parsed, 0, { owned: false, unsure: false, underflowSeen: false }) as T;
    } catch (error) {
      throw toSerializationError(error, "decode json", path);
    }
  };
  bySettings.set(s.key, read as JsonReader<unknown>);
  return read;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new Failure("invalid UTF-8");
  }
}
