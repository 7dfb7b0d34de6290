/**
 * What a codec (JSON, CBOR) offers protocols: readers and writers compiled
 * once per schema. The contract suite runs against every implementation.
 */
import type { Schema } from "./schema/schema.js";

/** Reads bytes into a value of the schema's type; throws SerializationError on bad input. */
export type ShapeReader<T> = (bytes: Uint8Array) => T;
/** Writes a value of the schema's type to bytes; throws SerializationError on values it cannot write. */
export type ShapeWriter<T> = (value: T) => Uint8Array;

/** A codec: compile a schema into a reader and a writer (both cached per schema and settings). */
export interface Codec<Settings = unknown> {
  /** The media type of the codec's bytes, e.g. `application/json`. */
  readonly mediaType: string;
  /** The reader of `schema`'s values, compiled on first use and cached per schema and settings. */
  reader<T>(schema: Schema<T>, settings?: Settings): ShapeReader<T>;
  /** The writer of `schema`'s values, compiled on first use and cached per schema and settings. */
  writer<T>(schema: Schema<T>, settings?: Settings): ShapeWriter<T>;
}
