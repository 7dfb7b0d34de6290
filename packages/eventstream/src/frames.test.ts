import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SerializationError } from "@anvil/core";
import { splitFrames } from "./frames.js";
import { encodeEventMessage } from "./message.js";
import { counted } from "./test-fixtures.js";

const utf8 = new TextEncoder();
const frameOf = (text: string): Uint8Array => encodeEventMessage({ headers: { n: { type: "string", value: text } }, body: utf8.encode(text) });
const frames = [frameOf("a"), frameOf("bb".repeat(40)), frameOf("")];
const joined = Uint8Array.from(frames.flatMap((f) => [...f]));

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const f of source) out.push(f.slice());
  return out;
}

function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return out;
}

describe("splitFrames", () => {
  it.each([1, 2, 3, 5, 16, 17, 64, 1000])("finds whole frames in chunks of %i bytes", async (size) => {
    expect(await collect(splitFrames(counted(chunked(joined, size)).iterable))).toEqual(frames);
  });

  it("reads whole bytes, a ReadableStream, and nothing", async () => {
    expect(await collect(splitFrames(joined))).toEqual(frames);
    expect(await collect(splitFrames(new Blob([joined]).stream()))).toEqual(frames);
    expect(await collect(splitFrames(undefined))).toEqual([]);
  });

  it("reads the source only as frames are asked for (back-pressure)", async () => {
    const source = counted(frames);
    const it = splitFrames(source.iterable)[Symbol.asyncIterator]();
    await it.next();
    expect(source.pulled()).toBe(1);
    await it.next();
    expect(source.pulled()).toBe(2);
  });

  it("cancels the source when the reader stops", async () => {
    const source = counted(frames);
    for await (const _ of splitFrames(source.iterable)) break;
    expect(source.returned()).toBe(true);
  });

  it.each<[string, Uint8Array]>([
    ["ends inside a frame", joined.subarray(0, joined.length - 3)],
    ["ends inside a prelude", joined.subarray(0, frames[0]!.length + 2)],
    ["announces a frame shorter than its framing", Uint8Array.of(0, 0, 0, 4, 1, 2, 3, 4)],
    ["announces a frame longer than the limit", Uint8Array.of(0xff, 0xff, 0xff, 0xff)],
    ["announces a frame of 17 MiB, past 16 MiB of payload and 128 KiB of headers", Uint8Array.of(0x01, 0x10, 0x00, 0x00)],
  ])("V1: rejects a stream that %s with a SerializationError", async (_label, bytes) => {
    await expect(collect(splitFrames(bytes))).rejects.toBeInstanceOf(SerializationError);
  });

  it("honours a smaller frame limit", async () => {
    await expect(collect(splitFrames(joined, 40))).rejects.toThrow(/outside 16\.\.40/);
  });

  it("finds the same frames however the bytes are chunked", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 30 }), async (sizes) => {
        const chunks: Uint8Array[] = [];
        let at = 0;
        for (let i = 0; at < joined.length; i++) {
          const size = sizes[i % sizes.length]!;
          chunks.push(joined.slice(at, at + size));
          at += size;
        }
        expect(await collect(splitFrames(counted(chunks).iterable))).toEqual(frames);
      }),
    );
  });

  it("never crashes or hangs on random bytes: frames or a SerializationError", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }), async (chunks) => {
        try {
          await collect(splitFrames(counted(chunks).iterable, 1024));
        } catch (error) {
          expect(error).toBeInstanceOf(SerializationError);
        }
      }),
    );
  });
});
