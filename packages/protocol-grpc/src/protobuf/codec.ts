/**
 * The public face of the protobuf codec: readers and writers compiled once
 * per schema. A structure is a message; a union is a message holding its
 * oneof; any other schema is a one-field message (`value = 1`).
 */
import type { Codec, Schema } from "@anvil/core";
import { describe, fail, toSerializationError } from "./failure.js";
import { messageFor } from "./messages.js";
import { ProtoReader } from "./reader-buffer.js";
import { ProtoWriter } from "./writer-buffer.js";

/** A compiled protobuf reader: message bytes in, a value of the schema out. */
export type ProtobufReader<T> = (bytes: Uint8Array) => T;
/** A compiled protobuf writer: a value of the schema in, message bytes out. */
export type ProtobufWriter<T> = (value: T) => Uint8Array;

const readers = new WeakMap<Schema, ProtobufReader<any>>();
const writers = new WeakMap<Schema, ProtobufWriter<any>>();
const shared = new ProtoWriter();

/**
 * Compiles a reader for a schema (cached per schema). Malformed bytes throw a
 * `SerializationError` (`decode protobuf: ...`) with the path of the field.
 *
 * @example
 * ```ts
 * const read = compileProtobufReader(ForecastSchema);
 * const forecast = read(bytes);
 * ```
 */
export function compileProtobufReader<T>(schema: Schema<T>): ProtobufReader<T> {
  const cached = readers.get(schema);
  if (cached) return cached;
  const { readBody } = messageFor(schema);
  const reader = (bytes: Uint8Array): T => {
    try {
      if (!(bytes instanceof Uint8Array)) fail(`expected bytes, got ${describe(bytes)}`);
      const r = new ProtoReader(bytes);
      const value = readBody(r, bytes.length);
      if (value === undefined) fail(`expected ${schema.kind}, got an empty message`);
      return value as T;
    } catch (error) {
      throw toSerializationError(error, "decode protobuf");
    }
  };
  readers.set(schema, reader);
  return reader;
}

/**
 * Compiles a writer for a schema (cached per schema). Values that do not fit
 * the schema throw a `SerializationError` (`encode protobuf: ...`).
 *
 * @example
 * ```ts
 * const write = compileProtobufWriter(ForecastSchema);
 * const bytes = write({ date: new Date(), highC: 21 });
 * ```
 */
export function compileProtobufWriter<T>(schema: Schema<T>): ProtobufWriter<T> {
  const cached = writers.get(schema);
  if (cached) return cached;
  const { writeBody } = messageFor(schema);
  const writer = (value: T): Uint8Array => {
    // a getter in the value could call back into a writer: give it its own buffer
    const w = shared.busy ? new ProtoWriter(256) : shared;
    w.busy = true;
    w.reset();
    try {
      if (value === undefined || value === null) fail(`expected ${schema.kind}, got ${describe(value)}`);
      writeBody(value, w);
      return w.result();
    } catch (error) {
      throw toSerializationError(error, "encode protobuf");
    } finally {
      w.busy = false;
      if (w.buf.length > 1 << 22) {
        // do not pin a huge buffer after one large write
        w.buf = new Uint8Array(8192);
        w.view = new DataView(w.buf.buffer);
      }
    }
  };
  writers.set(schema, writer);
  return writer;
}

/**
 * The protobuf codec (`application/protobuf`), as protocols take it: field
 * numbers from `@protoIndex`, the alloy mapping of Smithy types (see the
 * package README). Readers and writers are cached per schema.
 *
 * @example
 * ```ts
 * const bytes = protobufCodec.writer(GetForecastInput)({ city: "Paris" });
 * const input = protobufCodec.reader(GetForecastInput)(bytes);
 * ```
 */
export const protobufCodec: Codec = Object.freeze({
  mediaType: "application/protobuf",
  reader: compileProtobufReader,
  writer: compileProtobufWriter,
});
