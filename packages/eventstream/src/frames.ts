/**
 * Splitting a byte stream into whole event-stream frames, as the consumer
 * asks for them: the source is read only when a frame is wanted
 * (back-pressure follows iteration), and cancelling the frames cancels the
 * source.
 */
import { byteChunks, type HttpBody, SerializationError } from "@anvil/core";
import { binaryBody } from "@anvil/core/protocol";

/** A frame's prelude, message CRC and prelude CRC: the smallest possible frame. */
const MIN_FRAME_BYTES = 16;

/** The largest frame read by default: a 16 MiB payload, 128 KiB of headers and the framing (AWS's limits). */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024 + 128 * 1024 + MIN_FRAME_BYTES;

/**
 * The frames of a byte stream, each a whole message (not yet decoded).
 * Throws a SerializationError when a frame announces a length out of bounds
 * or the stream ends inside a frame.
 */
export async function* splitFrames(body: HttpBody, maxFrameBytes = DEFAULT_MAX_FRAME_BYTES): AsyncGenerator<Uint8Array, void, undefined> {
  const binary = binaryBody(body);
  if (binary === undefined) return;
  const source: AsyncIterable<Uint8Array> = binary instanceof Uint8Array ? single(binary) : byteChunks(binary);
  const prelude = new Uint8Array(4); // a total length split across chunks
  let preludeFill = 0;
  let frame: Uint8Array | undefined; // a frame split across chunks, filled up to `fill`
  let fill = 0;
  const lengthOf = (bytes: Uint8Array, at: number): number => {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
    if (length < MIN_FRAME_BYTES || length > maxFrameBytes) {
      throw new SerializationError(`decode event stream: frame length ${length} is outside ${MIN_FRAME_BYTES}..${maxFrameBytes}`);
    }
    return length;
  };
  for await (const chunk of source) {
    let at = 0;
    while (at < chunk.byteLength) {
      if (frame === undefined) {
        if (preludeFill === 0 && chunk.byteLength - at >= 4) {
          const length = lengthOf(chunk, at);
          if (chunk.byteLength - at >= length) {
            // The common case: a whole frame inside one chunk, no copy.
            yield chunk.subarray(at, at + length);
            at += length;
            continue;
          }
          frame = new Uint8Array(length);
        } else {
          const take = Math.min(4 - preludeFill, chunk.byteLength - at);
          prelude.set(chunk.subarray(at, at + take), preludeFill);
          preludeFill += take;
          at += take;
          if (preludeFill < 4) continue;
          frame = new Uint8Array(lengthOf(prelude, 0));
          frame.set(prelude, 0);
          fill = 4;
          preludeFill = 0;
        }
      }
      const take = Math.min(frame.byteLength - fill, chunk.byteLength - at);
      frame.set(chunk.subarray(at, at + take), fill);
      fill += take;
      at += take;
      if (fill === frame.byteLength) {
        const whole = frame;
        frame = undefined;
        fill = 0;
        yield whole;
      }
    }
  }
  if (frame !== undefined || preludeFill > 0) throw new SerializationError("decode event stream: the stream ended inside a frame");
}

async function* single(bytes: Uint8Array): AsyncGenerator<Uint8Array, void, undefined> {
  yield bytes;
}
