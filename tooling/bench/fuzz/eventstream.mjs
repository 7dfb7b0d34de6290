// Fuzz target: @anvil/eventstream's frame splitting and message decoding
// (`splitFrames` over a body in random chunks, `decodeEventMessage` on each
// frame). Mutated frames mostly fail their CRCs, so half of them get their
// prelude and message CRCs made right again after the mutation: the header
// parser then sees the garbage.
import { crc32 } from "node:zlib";
import { concat, mutated, preview } from "@anvil/codec-contract";
import { SerializationError } from "@anvil/core";
import { decodeEventMessage, encodeEventMessage, splitFrames } from "@anvil/eventstream";
import fc from "fast-check";
import { cut, iterate } from "./chunks.mjs";

/** Header values of every type the format has. */
const header = fc.oneof(
  fc.boolean().map((value) => ({ type: "boolean", value })),
  fc.integer({ min: -128, max: 127 }).map((value) => ({ type: "byte", value })),
  fc.integer({ min: -32768, max: 32767 }).map((value) => ({ type: "short", value })),
  fc.integer().map((value) => ({ type: "integer", value })),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((value) => ({ type: "long", value })),
  fc.uint8Array({ maxLength: 16 }).map((value) => ({ type: "binary", value })),
  fc.string({ maxLength: 16 }).map((value) => ({ type: "string", value })),
  fc.date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true }).map((value) => ({ type: "timestamp", value })),
  fc.uuid().map((value) => ({ type: "uuid", value })),
);
const message = fc.record({
  headers: fc.dictionary(
    fc.oneof(fc.constantFrom(":event-type", ":message-type", ":content-type", ":exception-type"), fc.string({ minLength: 1, maxLength: 8 })),
    header,
    {
      maxKeys: 5,
    },
  ),
  body: fc.uint8Array({ maxLength: 64 }),
});

/** A frame with its prelude CRC and message CRC computed again (lengths as they are). */
function recrc(frame) {
  if (frame.length < 16) return frame;
  const out = frame.slice();
  const view = new DataView(out.buffer);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  view.setUint32(out.length - 4, crc32(out.subarray(0, out.length - 4)));
  return out;
}

export const eventstream = {
  decoder: "@anvil/eventstream splitFrames + decodeEventMessage, bodies in random chunks",
  typed: "SerializationError",
  async: true,
  setup() {
    const frames = [];
    for (const m of fc.sample(message, { numRuns: 300, seed: 5 })) {
      try {
        frames.push(encodeEventMessage(m));
      } catch {
        // A header the format cannot carry (a name over 255 bytes): not a seed.
      }
    }
    const b = (...xs) => Uint8Array.from(xs.flat());
    const u32 = (n) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
    /** A frame of these header bytes and body, lengths and CRCs right. */
    const frame = (headers, body = b()) =>
      recrc(b(...u32(16 + headers.length + body.length), ...u32(headers.length), 0, 0, 0, 0, ...headers, ...body, 0, 0, 0, 0));
    const edges = [
      b(),
      b(0, 0, 0, 16),
      frame(b()), // the smallest frame
      recrc(b(...u32(16), ...u32(1), 0, 0, 0, 0, 0, 0, 0, 0)), // headers longer than the frame
      b(...u32(15), 0, 0, 0, 0),
      b(...u32(0xffffffff), 0, 0, 0, 0),
      b(...u32(16 * 1024 * 1024 + 128 * 1024 + 17), 0, 0, 0, 0),
      // A header of each wire type (and type 10, none such) with its value cut off.
      ...Array.from({ length: 11 }, (_, type) => frame(b(1, 0x61, type))),
      // A string header claiming 65535 bytes; a header name of length 0; a name running past the headers.
      frame(b(1, 0x61, 7, 0xff, 0xff)),
      frame(b(0, 0)),
      frame(b(9, 0x61)),
      // A uuid header cut at the body, a timestamp header at the extremes.
      frame(b(1, 0x61, 9, 1, 2, 3), b(4, 5)),
      frame(b(1, 0x61, 8, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)),
      frame(b(1, 0x61, 8, 0x80, 0, 0, 0, 0, 0, 0, 0)),
    ];
    const streams = fc.sample(
      fc.array(fc.constantFrom(...frames), { maxLength: 3 }).map((fs) => concat(...fs)),
      { numRuns: 200, seed: 6 },
    );
    const body = fc.oneof(
      { arbitrary: mutated(streams, false), weight: 2 },
      { arbitrary: mutated(frames, false).map(recrc), weight: 3 },
      { arbitrary: fc.constantFrom(...streams), weight: 1 },
      { arbitrary: fc.uint8Array({ maxLength: 64 }), weight: 1 },
      { arbitrary: fc.constantFrom(...edges), weight: 1 },
      { arbitrary: mutated(edges, false).map(recrc), weight: 1 },
    );
    const limit = fc.constantFrom(undefined, undefined, 1024, 16);
    return {
      seeds: edges.length,
      arbitrary: fc.record({ body, at: fc.array(fc.nat(), { maxLength: 6 }), limit }),
      async run({ body, at, limit }) {
        let n = 0;
        for await (const frame of splitFrames(iterate(cut(body, at)), limit)) n += decodeEventMessage(frame).body.length;
        return n;
      },
      isTyped: (error) => SerializationError.is(error),
      describe: ({ body, at, limit }) => `frame limit ${limit ?? "default"}, cut at ${JSON.stringify(at)}: ${preview(body, 400)}`,
    };
  },
};
