import { type HttpBody, ProtocolError, SerializationError } from "@anvil/core";
import type { WholeBody } from "@anvil/core/protocol";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_RECEIVE_BYTES, frameMessage, oneMessageOptions, readMessages, type ReadMessagesOptions, readOneMessage } from "./frames.js";
import { decodeGrpcMessage, encodeGrpcMessage } from "./message-text.js";
import { customMetadata, decodeBinaryHeader, encodeBinaryHeader } from "./metadata.js";
import { GrpcStatus, statusFromHttp, statusName } from "./status.js";
import { decodeRpcStatus, encodeRpcStatus } from "./status-details.js";
import { formatTimeout, parseTimeout } from "./timeout.js";

const options: ReadMessagesOptions = { maxMessageBytes: DEFAULT_MAX_RECEIVE_BYTES, encoding: undefined, side: "test" };

async function collect(chunks: Uint8Array[], opts = options): Promise<number[][]> {
  async function* body() {
    yield* chunks;
  }
  const out: number[][] = [];
  for await (const m of readMessages(body(), opts)) out.push([...m]);
  return out;
}

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(ProtocolError.is(error)).toBe(true);
    return (error as ProtocolError).code;
  }
  throw new Error("expected a failure");
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
}

describe("message framing", () => {
  it("prefixes a message with its flag and big-endian length", () => {
    expect([...frameMessage(new Uint8Array([7, 8, 9]))]).toEqual([0, 0, 0, 0, 3, 7, 8, 9]);
  });

  it("reads messages split across chunks at every offset, and several per chunk", async () => {
    const wire = new Uint8Array([...frameMessage(new Uint8Array([1, 2, 3])), ...frameMessage(new Uint8Array(0)), ...frameMessage(new Uint8Array([4]))]);
    for (let cut = 0; cut <= wire.length; cut++) {
      expect(await collect([wire.subarray(0, cut), wire.subarray(cut)])).toEqual([[1, 2, 3], [], [4]]);
    }
    expect(await collect([...wire].map((b) => new Uint8Array([b])))).toEqual([[1, 2, 3], [], [4]]);
  });

  it("refuses a message over the limit from its prefix alone (RESOURCE_EXHAUSTED), before the body arrives", async () => {
    const prefix = new Uint8Array([0, 0x7f, 0xff, 0xff, 0xff]);
    expect(await failure(collect([prefix]))).toBe("RESOURCE_EXHAUSTED");
    const justOver = frameMessage(new Uint8Array(11)).subarray(0, 5);
    expect(await failure(collect([justOver], { ...options, maxMessageBytes: 10 }))).toBe("RESOURCE_EXHAUSTED");
  });

  it("fails a body that ends inside a message or carries a bad flag (INTERNAL)", async () => {
    expect(await failure(collect([new Uint8Array([0, 0, 0, 0, 4, 1])]))).toBe("INTERNAL");
    expect(await failure(collect([new Uint8Array([0, 0, 0])]))).toBe("INTERNAL");
    expect(await failure(collect([new Uint8Array([2, 0, 0, 0, 0])]))).toBe("INTERNAL");
  });

  it("S2: gunzips compressed messages, bounded by the limit after inflation", async () => {
    const plain = new Uint8Array(1000).fill(7);
    const gz = new Uint8Array(await new Response(new Blob([plain]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
    const framed = frameMessage(gz);
    framed[0] = 1;
    const got = await collect([framed], { ...options, encoding: "gzip" });
    expect(got[0]).toEqual([...plain]);
    expect(await failure(collect([framed], { ...options, encoding: "gzip", maxMessageBytes: 999 }))).toBe("RESOURCE_EXHAUSTED");
    expect(await failure(collect([framed]))).toBe("INTERNAL");
    expect(await failure(collect([framed], { ...options, encoding: "snappy" }))).toBe("UNIMPLEMENTED");
  });
});

describe("the message of a unary call", () => {
  const unary = oneMessageOptions(DEFAULT_MAX_RECEIVE_BYTES, "test");
  const small = oneMessageOptions(10, "test");

  async function* chunked(...chunks: Uint8Array[]) {
    yield* chunks;
  }

  /** The message `readOneMessage` hands over, as numbers (undefined for none); its failure, thrown or rejected, as a rejection. */
  async function one(body: HttpBody, options = unary, headers: Pick<Headers, "get"> = new Headers()): Promise<unknown> {
    return readOneMessage(body, headers, options, (message) => (message === undefined ? undefined : [...message]));
  }

  it("reads one message however the body is cut, and nothing from an empty body", async () => {
    const wire = frameMessage(new Uint8Array([1, 2, 3]));
    for (let cut = 0; cut <= wire.length; cut++) {
      expect(await one(chunked(wire.subarray(0, cut), wire.subarray(cut)))).toEqual([1, 2, 3]);
    }
    expect(await one(wire)).toEqual([1, 2, 3]);
    expect(await one(chunked())).toBeUndefined();
    expect(await one(undefined)).toBeUndefined();
  });

  it("refuses a message over the limit from its prefix, before the rest arrives", async () => {
    async function* hangs() {
      yield new Uint8Array([0, 0, 0, 0, 11]);
      await new Promise(() => undefined); // the rest never comes
    }
    expect(await failure(one(hangs(), small))).toBe("RESOURCE_EXHAUSTED");
  });

  it("S3: reads a body still arriving chunk by chunk, so a prefix announcing too much is refused on a stream left open", async () => {
    // An adapter's whole-body read would wait for the end, which a client leaving the stream open never sends.
    const open = (first: Uint8Array): WholeBody => ({
      readWhole: () => new Promise(() => undefined),
      async *[Symbol.asyncIterator]() {
        yield first;
        await new Promise(() => undefined);
      },
    });
    expect(await failure(one(open(new Uint8Array([0, 0x80, 0, 0, 0]))))).toBe("RESOURCE_EXHAUSTED");
    expect(await failure(one(open(new Uint8Array([0, 0, 0, 0, 11])), small))).toBe("RESOURCE_EXHAUSTED");
  });

  it("fails two messages (UNIMPLEMENTED), a cut message and a bad flag (INTERNAL)", async () => {
    const single = frameMessage(new Uint8Array([1]));
    expect(await failure(one(chunked(single, single)))).toBe("UNIMPLEMENTED");
    expect(await failure(one(chunked(single.subarray(0, 5))))).toBe("INTERNAL");
    expect(await failure(one(chunked(new Uint8Array([3, 0, 0, 0, 0]))))).toBe("INTERNAL");
  });

  it("S2: asks for the encoding of a compressed message only, and gunzips it within the limit", async () => {
    const plain = new Uint8Array(100).fill(7);
    const framed = frameMessage(await gzip(plain));
    framed[0] = 1;
    const asked: string[] = [];
    const headers = (encoding: string | null): Pick<Headers, "get"> => ({ get: (name) => (asked.push(name), name === "grpc-encoding" ? encoding : null) });
    expect(await one(frameMessage(new Uint8Array([1])), unary, headers("gzip"))).toEqual([1]);
    expect(asked).toEqual([]);
    expect(await one(framed, unary, headers("gzip"))).toEqual([...plain]);
    expect(asked).toEqual(["grpc-encoding"]);
    expect(await failure(one(framed, small, headers("gzip")))).toBe("RESOURCE_EXHAUSTED");
    expect(await failure(one(framed, unary, headers(null)))).toBe("INTERNAL");
    expect(await failure(one(framed, unary, headers("identity")))).toBe("INTERNAL");
    expect(await failure(one(framed, unary, headers("snappy")))).toBe("UNIMPLEMENTED");
  });
});

describe("framed messages", () => {
  it("are distinct bytes, each zero-flagged, however many are framed and however large", () => {
    const frames = Array.from({ length: 2000 }, (_, i) => frameMessage(new Uint8Array(i % 700).fill(i & 0xff)));
    frames.forEach((frame, i) => {
      const length = i % 700;
      expect(frame.byteLength).toBe(5 + length);
      expect(frame[0]).toBe(0);
      expect(new DataView(frame.buffer, frame.byteOffset).getUint32(1)).toBe(length);
      expect(frame.subarray(5).every((b) => b === (i & 0xff))).toBe(true);
    });
  });
});

describe("status codes", () => {
  it.each([
    [400, "INTERNAL"],
    [401, "UNAUTHENTICATED"],
    [403, "PERMISSION_DENIED"],
    [404, "UNIMPLEMENTED"],
    [429, "UNAVAILABLE"],
    [431, "INTERNAL"],
    [502, "UNAVAILABLE"],
    [503, "UNAVAILABLE"],
    [504, "UNAVAILABLE"],
    [500, "UNKNOWN"],
    [200, "UNKNOWN"],
  ])("E4: maps HTTP %i without grpc-status to %s", (http, name) => {
    expect(statusName(statusFromHttp(http))).toBe(name);
  });

  it("names codes", () => {
    expect(statusName(GrpcStatus.DEADLINE_EXCEEDED)).toBe("DEADLINE_EXCEEDED");
    expect(statusName(99)).toBe("UNKNOWN");
  });
});

describe("grpc-timeout", () => {
  it.each([
    ["100m", 100],
    ["1S", 1000],
    ["2M", 120_000],
    ["1H", 3_600_000],
    ["5000u", 5],
    ["1000000n", 1],
    ["99999999m", 99_999_999],
  ])("parses %s as %f ms", (text, ms) => expect(parseTimeout(text)).toBe(ms));

  it.each(["", "100", "123456789m", "1x", "-1m", "1.5S"])("refuses %j", (text) => expect(parseTimeout(text)).toBeUndefined());

  it("formats milliseconds, in a coarser unit past eight digits, never earlier than asked", () => {
    expect(formatTimeout(250)).toBe("250m");
    expect(formatTimeout(0.2)).toBe("1m");
    expect(formatTimeout(100_000_000)).toBe("100000S");
    expect(parseTimeout(formatTimeout(123_456_789_012))!).toBeGreaterThanOrEqual(123_456_789_012);
  });
});

describe("grpc-message", () => {
  it.each([["plain text"], ["100% sure"], ["naïve ☃ \n"], [""]])("round-trips %j", (text) => {
    const encoded = encodeGrpcMessage(text);
    expect(encoded).toMatch(/^[\x20-\x7e]*$/);
    expect(decodeGrpcMessage(encoded)).toBe(text);
  });

  it("keeps malformed escapes as they are", () => {
    expect(decodeGrpcMessage("50%% off %zz %4")).toBe("50%% off %zz %4");
    expect(encodeGrpcMessage("a%b")).toBe("a%25b");
  });
});

describe("metadata", () => {
  it("encodes -bin values as base64 and decodes padded, unpadded and repeated values", () => {
    const bytes = new Uint8Array([0, 1, 254, 255]);
    expect(encodeBinaryHeader(bytes)).toBe("AAH+/w==");
    expect([...decodeBinaryHeader("AAH+/w==")]).toEqual([...bytes]);
    expect([...decodeBinaryHeader("AAH+/w")]).toEqual([...bytes]);
    expect([...decodeBinaryHeader("AAE, /v8")]).toEqual([...bytes]);
  });

  it("leaves gRPC's own headers out of the custom metadata", () => {
    const headers = new Headers({ "content-type": "application/grpc", "grpc-timeout": "1S", "x-user": "ada", "trace-bin": "AA==" });
    const names: string[] = [];
    customMetadata(headers).forEach((_v, name) => names.push(name));
    expect(names).toEqual(["trace-bin", "x-user"]);
  });
});

describe("google.rpc.Status", () => {
  it("round-trips a status with details", () => {
    const status = {
      code: 5,
      message: "no such city: Zürich",
      details: [{ typeUrl: "type.googleapis.com/ex.NoSuchCity", value: new Uint8Array([10, 1, 65]) }],
    };
    const decoded = decodeRpcStatus(encodeRpcStatus(status));
    expect(decoded.code).toBe(5);
    expect(decoded.message).toBe(status.message);
    expect(decoded.details[0]!.typeUrl).toBe(status.details[0]!.typeUrl);
    expect([...decoded.details[0]!.value]).toEqual([10, 1, 65]);
  });

  it("throws a SerializationError on bytes that are not a status", () => {
    expect(() => decodeRpcStatus(new Uint8Array([0x12, 0x7f]))).toThrow(SerializationError);
    expect(() => decodeRpcStatus(new Uint8Array([0x08, 0x80]))).toThrow(SerializationError);
  });
});
