// Fuzz targets: protocol-grpc's protobuf reader (over the kitchen-sink
// message its tests use: every scalar, wrapper, map, oneof, timestamp and
// document) and its gRPC message framing (5-byte prefixes, gzip, a receive
// limit), read from bodies cut into chunks at random places.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { arbitraryFor, concat, mutated, preview } from "@anvil/codec-contract";
import { ProtocolError, SerializationError } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { compileProtobufReader, compileProtobufWriter } from "@anvil/protocol-grpc/protobuf";
import { frameMessage, readMessages } from "@anvil/protocol-grpc/wire";
import fc from "fast-check";
import { cut, iterate } from "./chunks.mjs";

const KITCHEN = fileURLToPath(new URL("../../../packages/protocol-grpc/fixtures/kitchen.smithy", import.meta.url));

/** The kitchen-sink message, and encodings of values generated from it. */
function kitchen() {
  const { model } = loadModel({ sources: [{ file: KITCHEN, text: readFileSync(KITCHEN, "utf8") }] });
  const Everything = schemasFromModel(model).shape("anvil.grpctest#Everything");
  const write = compileProtobufWriter(Everything);
  const valid = [];
  for (const value of fc.sample(arbitraryFor(Everything, { maxDepth: 3, maxLength: 4 }), { numRuns: 300, seed: 7 })) {
    try {
      valid.push(write(value));
    } catch {
      // A generated value the proto mapping cannot carry (a `__proto__` map key, say): not a seed.
    }
  }
  return { Everything, valid };
}

const varint = (n) => {
  const out = [];
  let v = BigInt(n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
};

/** Protobuf edge vectors: over-long and 10-byte varints, lengths past the end, the group and reserved wire types, field 0, huge field numbers. */
function protobufEdges() {
  const b = (...xs) => Uint8Array.from(xs.flat());
  return [
    b(),
    b(0x08, ...new Array(10).fill(0xff), 0x01), // an 11-byte varint
    b(0x08, ...new Array(9).fill(0xff), 0x7f), // a 10-byte varint beyond 64 bits
    b(0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00), // an over-long zero
    b(0x08, 0x80), // cut short
    b(0x12, 0xff, 0xff, 0xff, 0xff, 0x0f), // a 4 GiB string
    b(0x12, ...varint(2 ** 31), 0x61),
    b(0x12, 0x05, 0x61), // past the end
    b(0x1a, 0x7f), // bytes past the end
    b(0x0b, 0x0c), // a start group, an end group
    b(0x0b), // an unfinished group
    b(0x0c), // a stray end group
    b(0x0e), // wire type 6
    b(0x0f), // wire type 7
    b(0x00, 0x01), // field 0
    b(...varint((2 ** 29 - 1) * 8), 0x01), // the largest field number
    b(...varint(2 ** 29 * 8), 0x01), // beyond it
    b(0x4d, 0x01, 0x02), // a fixed32 cut short
    b(0x51, 0x01, 0x02, 0x03), // a fixed64 cut short
    b(0x12, 0x02, 0xc3, 0x28), // bad UTF-8 in a string
    b(0x12, 0x03, 0xed, 0xa0, 0x80), // a surrogate in UTF-8
    b(0x6a, 0x02, 0x08, 0x01), // a message where a scalar might be
    b(...new Array(2000).fill([0x6a, 0x00]).flat()), // the same message field again and again
    b(...Array.from({ length: 64 }, () => [0x6a, 0x7f]).flat()), // nested lengths claiming more than their parent
  ];
}

export const protobuf = {
  decoder: "@anvil/protocol-grpc protobuf reader (schema-compiled), the kitchen-sink message",
  typed: "SerializationError",
  setup() {
    const { Everything, valid } = kitchen();
    const read = compileProtobufReader(Everything);
    const edges = protobufEdges();
    // Known field tags followed by arbitrary bytes reach deeper than random bytes do.
    const tags = [...new Set(valid.map((v) => v[0]))];
    const tagged = fc
      .array(fc.tuple(fc.constantFrom(...tags), fc.uint8Array({ maxLength: 12 })), { maxLength: 12 })
      .map((parts) => concat(...parts.map(([t, rest]) => concat(Uint8Array.of(t), rest))));
    return {
      seeds: edges.length,
      arbitrary: fc.oneof(
        { arbitrary: mutated(valid, false), weight: 4 },
        { arbitrary: fc.uint8Array({ maxLength: 300 }), weight: 1 },
        { arbitrary: tagged, weight: 2 },
        { arbitrary: fc.constantFrom(...edges), weight: 1 },
        { arbitrary: mutated(edges, false), weight: 1 },
      ),
      run: (bytes) => read(bytes),
      isTyped: (error) => SerializationError.is(error),
      describe: (bytes) => preview(bytes, 400),
    };
  },
};

export const grpcFrames = {
  decoder: "@anvil/protocol-grpc/wire readMessages: 5-byte prefixes, gzip, the receive limit, bodies in random chunks",
  typed: "ProtocolError (a gRPC status)",
  async: true,
  setup() {
    const { valid } = kitchen();
    const compressed = (m) => {
      const z = gzipSync(m);
      const out = new Uint8Array(5 + z.length);
      out[0] = 1;
      new DataView(out.buffer).setUint32(1, z.length);
      out.set(z, 5);
      return out;
    };
    // Bodies of one to three messages, some compressed.
    const bodies = fc.sample(
      fc
        .array(fc.tuple(fc.constantFrom(...valid), fc.boolean()), { minLength: 0, maxLength: 3 })
        .map((ms) => concat(...ms.map(([m, z]) => (z ? compressed(m) : frameMessage(m))))),
      { numRuns: 200, seed: 11 },
    );
    const b = (...xs) => Uint8Array.from(xs.flat());
    const edges = [
      b(0, 0, 0, 0, 0),
      b(0, 0, 0, 0),
      b(2, 0, 0, 0, 0),
      b(0xff, 0, 0, 0, 1, 0),
      b(0, 0x7f, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), // 2^31 - 1 claimed, 10 bytes there
      b(0, 0xff, 0xff, 0xff, 0xff),
      b(0, 0, 0x40, 0, 1), // 4 MiB + 1
      b(0, 0, 0x10, 0, 1), // 1 MiB + 1
      b(0, 0, 0x10, 0, 0), // exactly 1 MiB, none of it there
      b(1, 0, 0, 0, 3, 1, 2, 3), // "compressed", not gzip
      b(1, 0, 0, 0, 0), // compressed, empty
      concat(b(1, 0, 0, 0, 20), gzipSync(new Uint8Array(0)).subarray(0, 20)),
      // A gzip bomb: 64 KiB that inflates to 64 MiB, past the receive limit.
      (() => {
        const z = gzipSync(new Uint8Array(64 * 1024 * 1024));
        const out = new Uint8Array(5 + z.length);
        out[0] = 1;
        new DataView(out.buffer).setUint32(1, z.length);
        out.set(z, 5);
        return out;
      })(),
    ];
    const body = fc.oneof(
      { arbitrary: mutated(bodies, false), weight: 4 },
      { arbitrary: fc.constantFrom(...bodies), weight: 1 },
      { arbitrary: fc.uint8Array({ maxLength: 64 }), weight: 1 },
      { arbitrary: fc.constantFrom(...edges), weight: 1 },
      { arbitrary: mutated(edges.slice(0, -1), false), weight: 1 },
    );
    const encoding = fc.constantFrom(undefined, "identity", "gzip", "gzip", "gzip", "deflate", "snappy", "");
    // Receive limits: 1 MiB rather than the default 4 MiB, whose refusal of a gzip bomb inflates 4 MiB first
    // (12-30 ms here: bounded work, not a hang, but near the 50 ms an input on a busy machine).
    const max = fc.constantFrom(1024 * 1024, 1024 * 1024, 64, 0);
    return {
      seeds: edges.length + bodies.length,
      arbitrary: fc.record({ body, at: fc.array(fc.nat(), { maxLength: 6 }), encoding, max }),
      async run({ body, at, encoding, max }) {
        let n = 0;
        for await (const m of readMessages(iterate(cut(body, at)), { encoding, maxMessageBytes: max, side: "fuzz" })) n += m.byteLength;
        return n;
      },
      isTyped: (error) => ProtocolError.is(error),
      describe: ({ body, at, encoding, max }) => `encoding ${encoding}, limit ${max}, cut at ${JSON.stringify(at)}: ${preview(body, 400)}`,
    };
  },
};
