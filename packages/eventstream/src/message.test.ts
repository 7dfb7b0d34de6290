import { EventStreamCodec, Int64, type Message, type MessageHeaderValue } from "@smithy/eventstream-codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SerializationError } from "@anvil/core";
import { decodeEventMessage, encodeEventMessage, type EventHeaderValue, type EventMessage } from "./message.js";

const utf8 = new TextEncoder();

describe("event messages", () => {
  it.each<[string, EventHeaderValue]>([
    ["boolean true", { type: "boolean", value: true }],
    ["boolean false", { type: "boolean", value: false }],
    ["byte", { type: "byte", value: -7 }],
    ["short", { type: "short", value: -300 }],
    ["integer", { type: "integer", value: 70000 }],
    ["long (safe)", { type: "long", value: 4294967294 }],
    ["long (negative)", { type: "long", value: -5 }],
    ["long (beyond 2^53, a bigint)", { type: "long", value: 2n ** 62n + 1n }],
    ["binary", { type: "binary", value: Uint8Array.of(0, 1, 255) }],
    ["string", { type: "string", value: "héllo" }],
    ["timestamp", { type: "timestamp", value: new Date(1730384114000) }],
    ["uuid", { type: "uuid", value: "0f0e0d0c-0b0a-4908-8706-050403020100" }],
  ])("round-trip a %s header", (_label, header) => {
    const message: EventMessage = { headers: { h: header }, body: utf8.encode("body") };
    expect(decodeEventMessage(encodeEventMessage(message))).toEqual(message);
  });

  it("keeps header order and an empty body", () => {
    const frame = encodeEventMessage({ headers: { b: { type: "string", value: "1" }, a: { type: "string", value: "2" } }, body: new Uint8Array(0) });
    const decoded = decodeEventMessage(frame);
    expect(Object.keys(decoded.headers)).toEqual(["b", "a"]);
    expect(decoded.body.byteLength).toBe(0);
  });

  it("decodes a body that does not share the frame's buffer", () => {
    const frame = encodeEventMessage({ headers: {}, body: utf8.encode("abc") });
    const { body } = decodeEventMessage(frame);
    frame.fill(0);
    expect(new TextDecoder().decode(body)).toBe("abc");
  });

  it.each<[string, (frame: Uint8Array) => Uint8Array]>([
    ["too short", (f) => f.subarray(0, 10)],
    ["a wrong total length", (f) => f.subarray(0, f.length - 1)],
    ["a corrupt prelude checksum", (f) => flip(f, 9)],
    ["a corrupt message checksum", (f) => flip(f, f.length - 1)],
    ["a corrupt header", (f) => flip(f, 14)],
  ])("V1: rejects a frame with %s as a SerializationError", (_label, corrupt) => {
    const frame = encodeEventMessage({ headers: { name: { type: "string", value: "value" } }, body: utf8.encode("{}") });
    expect(() => decodeEventMessage(corrupt(frame))).toThrow(SerializationError);
  });

  it("rejects headers the format cannot carry as SerializationErrors", () => {
    const long = "x".repeat(300);
    expect(() => encodeEventMessage({ headers: { [long]: { type: "string", value: "" } }, body: new Uint8Array(0) })).toThrow(SerializationError);
    expect(() => encodeEventMessage({ headers: { t: { type: "timestamp", value: new Date(Number.NaN) } }, body: new Uint8Array(0) })).toThrow(
      SerializationError,
    );
    expect(() => encodeEventMessage({ headers: { l: { type: "long", value: 1.5 } }, body: new Uint8Array(0) })).toThrow(SerializationError);
  });

  it("V1: holds frames to aws-c-event-stream's bounds both ways: header names of 127 bytes, 128 KiB of headers", () => {
    // Frames the format can carry but AWS's bounds refuse, made with the codec itself.
    const raw = new EventStreamCodec(
      (bytes) => new TextDecoder().decode(bytes),
      (text) => utf8.encode(text),
    );
    const string = (value: string) => ({ type: "string", value }) as const;
    const longName = raw.encode({ headers: { ["n".repeat(200)]: string("v") }, body: new Uint8Array(0) });
    expect(() => decodeEventMessage(longName)).toThrow(/^decode event stream: a header name is longer than 127 bytes$/);
    const manyBytes = raw.encode({
      headers: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`h${i}`, string("v".repeat(30_000))])),
      body: new Uint8Array(0),
    });
    expect(() => decodeEventMessage(manyBytes)).toThrow(/^decode event stream: headers longer than 131072 bytes$/);
    // The longest name allowed, in UTF-8 bytes (é is two), and headers just under the bound, read back.
    const edge = { ["é".repeat(63) + "n"]: string("v"), big: string("v".repeat(32_000)) };
    expect(decodeEventMessage(encodeEventMessage({ headers: edge, body: new Uint8Array(0) })).headers).toEqual(edge);
    // And the writer makes no frame a reader would refuse.
    expect(() => encodeEventMessage({ headers: { ["é".repeat(64)]: string("v") }, body: new Uint8Array(0) })).toThrow(SerializationError);
    const tooMany = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`h${i}`, string("v".repeat(30_000))]));
    expect(() => encodeEventMessage({ headers: tooMany, body: new Uint8Array(0) })).toThrow(/headers longer than 131072 bytes/);
  });

  it("never crashes on random bytes: a message or a SerializationError", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          decodeEventMessage(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(SerializationError);
        }
      }),
    );
  });

  it("never crashes on valid framing around random headers and body", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 32 }), (headers, body) => {
        const frame = withChecksums(headers, body);
        try {
          decodeEventMessage(frame);
        } catch (error) {
          expect(error).toBeInstanceOf(SerializationError);
        }
      }),
    );
  });
});

function flip(frame: Uint8Array, index: number): Uint8Array {
  const copy = frame.slice();
  copy[index] = copy[index]! ^ 0xff;
  return copy;
}

/** A frame with correct lengths and checksums around arbitrary header bytes (to reach the header parser). */
function withChecksums(headers: Uint8Array, body: Uint8Array): Uint8Array {
  // The codec checks lengths and CRCs before it parses headers: compute them for our header bytes.
  const length = 16 + headers.length + body.length;
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  view.setUint32(0, length);
  view.setUint32(4, headers.length);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  out.set(headers, 12);
  out.set(body, 12 + headers.length);
  view.setUint32(length - 4, crc32(out.subarray(0, length - 4)));
  return out;
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

describe("event messages, against @smithy/eventstream-codec", () => {
  // As this package configured it before it had a codec of its own: UTF-8 that does not decode is an error.
  const strict = new TextDecoder("utf-8", { fatal: true });
  const smithy = new EventStreamCodec(
    (bytes) => strict.decode(bytes),
    (text) => utf8.encode(text),
  );
  const header: fc.Arbitrary<EventHeaderValue> = fc.oneof(
    fc.boolean().map((value) => ({ type: "boolean" as const, value })),
    fc.integer({ min: -128, max: 127 }).map((value) => ({ type: "byte" as const, value })),
    fc.integer({ min: -32768, max: 32767 }).map((value) => ({ type: "short" as const, value })),
    fc.integer().map((value) => ({ type: "integer" as const, value })),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((big) => {
      const safe = big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER);
      return { type: "long" as const, value: safe ? Number(big) : big };
    }),
    fc.uint8Array({ maxLength: 40 }).map((value) => ({ type: "binary" as const, value })),
    fc.string({ unit: "grapheme", maxLength: 40 }).map((value) => ({ type: "string" as const, value })),
    fc.integer({ min: -8.64e15, max: 8.64e15 }).map((ms) => ({ type: "timestamp" as const, value: new Date(ms) })),
    fc.uuid().map((value) => ({ type: "uuid" as const, value })),
  );
  const message: fc.Arbitrary<EventMessage> = fc.record({
    headers: fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), header, { maxKeys: 6 }),
    body: fc.uint8Array({ maxLength: 100 }),
  });

  /** The message as the reference codec takes it: longs as its Int64. */
  function toSmithy(m: EventMessage): Message {
    const headers: Record<string, MessageHeaderValue> = {};
    for (const [name, h] of Object.entries(m.headers)) {
      let value = h as MessageHeaderValue;
      if (h.type === "long") {
        const bytes = new Uint8Array(8);
        new DataView(bytes.buffer).setBigInt64(0, BigInt(h.value), false);
        value = { type: "long", value: new Int64(bytes) };
      }
      Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true }); // `__proto__` too
    }
    return { headers, body: m.body };
  }

  it("writes the frames it writes, byte for byte", () => {
    fc.assert(
      fc.property(message, (m) => {
        expect(encodeEventMessage(m)).toEqual(smithy.encode(toSmithy(m)));
      }),
    );
  });

  it("reads the frames it writes", () => {
    fc.assert(
      fc.property(message, (m) => {
        const decoded = decodeEventMessage(smithy.encode(toSmithy(m)));
        expect(decoded).toEqual(m);
      }),
    );
  });

  it("refuses what it refuses: random bytes decode in both or in neither", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 16 }), (headers, body) => {
        const frame = withChecksums(headers, body);
        let ours: EventMessage | undefined;
        let theirs: Message | undefined;
        try {
          ours = decodeEventMessage(frame);
        } catch {}
        try {
          theirs = smithy.decode(frame);
        } catch {}
        expect(ours === undefined).toBe(theirs === undefined);
      }),
    );
  });
});
