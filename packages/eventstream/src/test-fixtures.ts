/**
 * Our own event-stream fixtures for the tests: a `@streaming` union with
 * every header type, explicit and implicit payloads and an error variant,
 * and a JSON payload codec that needs no codec package.
 *
 * @internal
 */
import { blob, boolean, byte, integer, long, member, short, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { type Schema, SerializationError } from "@anvil/core";
import type { EventPayloadCodec } from "./events.js";

/** An event of `@eventHeader` members of every header type. */
export const Reading = struct("test.events#Reading", [
  member("flag", boolean, { eventHeader: true }),
  member("tiny", byte, { eventHeader: true }),
  member("small", short, { eventHeader: true }),
  member("count", integer, { eventHeader: true }),
  member("big", long, { eventHeader: true }),
  member("tag", blob, { eventHeader: true }),
  member("label", string, { eventHeader: true }),
  member("at", timestamp, { eventHeader: true }),
]);
/** An event whose `@eventPayload` is a blob. */
export const Chunk = struct("test.events#Chunk", [member("data", blob, { eventPayload: true })]);
/** An event whose `@eventPayload` is a string. */
export const Note = struct("test.events#Note", [member("text", string, { eventPayload: true })]);
/** A structure payload. */
export const Point = struct("test.events#Point", [member("x", integer), member("y", integer)]);
/** An event with a header and a structure `@eventPayload`. */
export const Located = struct("test.events#Located", [member("source", string, { eventHeader: true }), member("point", Point, { eventPayload: true })]);
/** An event with a header and implicit payload members. */
export const Loose = struct("test.events#Loose", [member("source", string, { eventHeader: true }), member("note", string), member("n", integer)]);
/** An `@error` variant: written as an exception message. */
export const Overheated = struct("test.events#Overheated", [member("message", string), member("celsius", integer)], { error: "client" });

/** The stream under test. */
export const Telemetry = union(
  "test.events#Telemetry",
  [
    member("reading", Reading),
    member("chunk", Chunk),
    member("note", Note),
    member("located", Located),
    member("loose", Loose),
    member("overheated", Overheated),
  ],
  { streaming: true },
);

const utf8 = new TextEncoder();
const text = new TextDecoder();

/**
 * Plain JSON that writes only a structure's own members (as schema-compiled
 * codecs do): enough to test the event mapping, which does not depend on
 * the codec.
 */
export const plainJson: EventPayloadCodec = Object.freeze({
  mediaType: "application/json",
  reader: (_schema: Schema) => (bytes: Uint8Array) => {
    try {
      return JSON.parse(text.decode(bytes)) as unknown;
    } catch (cause) {
      // Codecs throw SerializationErrors for bad input; so does this one.
      throw new SerializationError("decode json: not JSON", { cause });
    }
  },
  writer: (schema: Schema) => (value: unknown) => {
    if (schema.kind !== "structure") return utf8.encode(JSON.stringify(value));
    const own: Record<string, unknown> = {};
    for (const m of schema.members) own[m.name] = (value as Record<string, unknown>)[m.name];
    return utf8.encode(JSON.stringify(own));
  },
});

/** An async iterable of values, counting how many were pulled. */
export function counted<T>(values: readonly T[]): { readonly iterable: AsyncIterable<T>; pulled(): number; returned(): boolean } {
  let pulled = 0;
  let returned = false;
  const iterable: AsyncIterable<T> = {
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        async next() {
          if (i >= values.length) return { done: true, value: undefined };
          pulled++;
          return { done: false, value: values[i++]! };
        },
        async return() {
          returned = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { iterable, pulled: () => pulled, returned: () => returned };
}
