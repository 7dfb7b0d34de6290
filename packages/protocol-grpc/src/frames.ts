/**
 * gRPC's length-prefixed messages: a flag byte (1 = compressed), a 4-byte
 * big-endian length, the message. Lengths are checked against the receive
 * limit on the prefix, before a byte of the message is buffered; compressed
 * messages are gunzipped as a stream and bounded by the same limit.
 */
import { byteChunks, type HttpBody, ProtocolError } from "@anvil/core";
import { binaryBody, bodyBytes, concatBytes, gunzip } from "@anvil/core/protocol";
import type { GrpcStatusName } from "./status.js";

/** The default receive limit of a message: 4 MiB, as in every gRPC implementation. */
export const DEFAULT_MAX_RECEIVE_BYTES = 4 * 1024 * 1024;

/** The size of a message prefix. */
export const PREFIX_BYTES = 5;

/** The bounds of received messages, and who reads them. */
export interface MessageLimits {
  /** Largest message accepted (after decompression), in bytes. */
  readonly maxMessageBytes: number;
  /** Who is reading, for messages (`grpc server`, `grpc client`). */
  readonly side: string;
}

/** How received messages are read. */
export interface ReadMessagesOptions extends MessageLimits {
  /** The `grpc-encoding` the messages came with (`identity`, `gzip`); undefined for none. */
  readonly encoding: string | undefined;
}

/**
 * A gRPC failure with its status, thrown while reading messages. A
 * ProtocolError whose `code` is the status name: the server answers it
 * with that status, the client turns it into the call's error.
 */
export function grpcFailure(status: GrpcStatusName, message: string, cause?: unknown): ProtocolError {
  return new ProtocolError(status, status === "RESOURCE_EXHAUSTED" ? 413 : 400, message, cause === undefined ? {} : { cause });
}

/**
 * One message with its prefix (uncompressed). A small framed message is a
 * view of a shared slab, as Node's pooled `Buffer`s are: copy it rather than
 * transfer or detach its `buffer`.
 */
export function frameMessage(message: Uint8Array): Uint8Array {
  const length = message.byteLength;
  const out = allocate(PREFIX_BYTES + length);
  out[1] = length >>> 24;
  out[2] = (length >>> 16) & 0xff;
  out[3] = (length >>> 8) & 0xff;
  out[4] = length & 0xff;
  out.set(message, PREFIX_BYTES);
  return out;
}

/** The slab small framed messages are cut from, and the largest message cut from it. */
const SLAB_BYTES = 8192;
const MAX_POOLED = 512;
let slab = new ArrayBuffer(SLAB_BYTES);
let slabUsed = 0;

/**
 * Zeroed bytes for a framed message. A typed array of a few dozen bytes
 * lives in the JS heap, and Node's streams ask every chunk for its
 * `buffer`, which moves it out with an allocation of its own per message:
 * a view of a slab already outside the heap costs neither.
 */
function allocate(size: number): Uint8Array {
  if (size > MAX_POOLED) return new Uint8Array(size);
  if (slabUsed + size > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const out = new Uint8Array(slab, slabUsed, size);
  // Views start on 8-byte boundaries, as Node's pool aligns them.
  slabUsed = (slabUsed + size + 7) & ~7;
  return out;
}

const EMPTY = new Uint8Array(0);

/**
 * The messages of a body, one at a time as they complete (back-pressure:
 * the body is pulled only as messages are asked for). Rejects with a
 * {@link grpcFailure}: RESOURCE_EXHAUSTED for a message over the limit,
 * INTERNAL for a body that ends inside a message or a compressed message
 * without an encoding, UNIMPLEMENTED for an encoding other than gzip.
 */
export async function* readMessages(given: HttpBody, options: ReadMessagesOptions): AsyncGenerator<Uint8Array, void, undefined> {
  const body = binaryBody(given);
  if (body === undefined) return;
  const encoding = options.encoding === undefined || options.encoding === "identity" ? undefined : options.encoding;
  if (encoding !== undefined && encoding !== "gzip") {
    throw grpcFailure("UNIMPLEMENTED", `${options.side}: message encoding ${encoding} is not supported (identity, gzip)`);
  }
  const chunks = body instanceof Uint8Array ? [body] : byteChunks(body);
  let pending: Uint8Array = EMPTY;
  // While a message is being gathered: its buffer, how much of it is filled, and its flag.
  let message: Uint8Array | undefined;
  let filled = 0;
  let compressed = false;
  for await (const chunk of chunks) {
    let data = pending.byteLength === 0 ? chunk : concat(pending, chunk);
    pending = EMPTY;
    let offset = 0;
    while (offset < data.byteLength) {
      if (message === undefined) {
        if (data.byteLength - offset < PREFIX_BYTES) {
          pending = data.subarray(offset);
          break;
        }
        const flag = data[offset]!;
        const length = ((data[offset + 1]! << 24) | (data[offset + 2]! << 16) | (data[offset + 3]! << 8) | data[offset + 4]!) >>> 0;
        if (flag > 1) throw grpcFailure("INTERNAL", `${options.side}: message flag ${flag} is not 0 or 1`);
        if (length > options.maxMessageBytes) {
          throw grpcFailure("RESOURCE_EXHAUSTED", `${options.side}: received message larger than max (${length} vs. ${options.maxMessageBytes})`);
        }
        compressed = flag === 1;
        offset += PREFIX_BYTES;
        if (data.byteLength - offset >= length) {
          // The whole message is in this chunk: no copy.
          yield await finish(data.subarray(offset, offset + length), compressed, encoding, options);
          offset += length;
          continue;
        }
        message = new Uint8Array(length);
        filled = 0;
      }
      const take = Math.min(message.byteLength - filled, data.byteLength - offset);
      message.set(data.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === message.byteLength) {
        const done = message;
        message = undefined;
        yield await finish(done, compressed, encoding, options);
      }
    }
    data = EMPTY;
  }
  if (message !== undefined || pending.byteLength > 0) throw grpcFailure("INTERNAL", `${options.side}: the body ended inside a message`);
}

/** How a side reads the one message of its unary calls: fixed per side, made once with {@link oneMessageOptions}. */
export type OneMessageOptions = MessageLimits;

/** The options of {@link readOneMessage} for a side. */
export function oneMessageOptions(maxMessageBytes: number, side: string): OneMessageOptions {
  return Object.freeze({ maxMessageBytes, side });
}

/**
 * The one message of a unary call's body handed to `decode` (undefined for
 * a body without any). A body at hand (bytes, as the Node adapter gives
 * most unary calls) is decoded at once, and a bad one throws; any other
 * body gives a promise, which rejects as {@link readMessages} does. A body
 * with more than one message fails with UNIMPLEMENTED. The `grpc-encoding`
 * is asked of `headers` only for a compressed message (most are not).
 * No generator, and at most one continuation: this is every unary call's
 * path. A body still arriving is refused as soon as its prefix announces
 * too much.
 */
export function readOneMessage(
  body: HttpBody,
  headers: Pick<Headers, "get">,
  options: OneMessageOptions,
  decode: (message: Uint8Array | undefined) => unknown,
): unknown {
  if (body === undefined) return decode(undefined);
  if (body instanceof Uint8Array || typeof body === "string") return decodeOneMessage(bodyBytes(body), headers, options, decode);
  try {
    // Chunk by chunk, so that a prefix announcing too much is refused as soon as it is in, even on a stream the
    // client leaves open (a whole-body read would wait for its end). Most unary bodies came at hand, above.
    return collectMessage(byteChunks(body), options).then((bytes) => decodeOneMessage(bytes, headers, options, decode));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A body's chunks in one buffer, refused as soon as its prefix announces a message over the limit. */
async function collectMessage(chunks: AsyncIterable<Uint8Array>, options: MessageLimits): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    size += chunk.byteLength;
    // The limit is checked on the prefix as soon as it is in, before the rest is gathered.
    if (size >= PREFIX_BYTES && size - chunk.byteLength < PREFIX_BYTES) checkPrefix(concatBytes(parts, size), options);
    else if (size > PREFIX_BYTES + options.maxMessageBytes) break;
  }
  return concatBytes(parts, size);
}

/** The one message of a whole body, decoded (see {@link readOneMessage}); a promise only for a compressed message. */
function decodeOneMessage(
  whole: Uint8Array,
  headers: Pick<Headers, "get">,
  options: OneMessageOptions,
  decode: (message: Uint8Array | undefined) => unknown,
): unknown {
  if (whole.byteLength === 0) return decode(undefined);
  const length = checkPrefix(whole, options);
  const end = PREFIX_BYTES + length;
  if (whole.byteLength < end) throw grpcFailure("INTERNAL", `${options.side}: the body ended inside a message`);
  if (whole.byteLength > end) throw grpcFailure("UNIMPLEMENTED", `${options.side}: a unary call carries one message, got more`);
  // A plain view, not `subarray`: a Buffer's subarray is another Buffer, made in JavaScript by Node.
  const message = new Uint8Array(whole.buffer, whole.byteOffset + PREFIX_BYTES, length);
  if (whole[0] === 0) return decode(message);
  const given = headers.get("grpc-encoding") ?? "identity";
  if (given !== "identity" && given !== "gzip") {
    throw grpcFailure("UNIMPLEMENTED", `${options.side}: message encoding ${given} is not supported (identity, gzip)`);
  }
  return finish(message, true, given === "gzip" ? given : undefined, options).then(decode);
}

/** The length a message prefix announces, checked against the flag rules and the limit. */
function checkPrefix(data: Uint8Array, options: MessageLimits): number {
  const flag = data[0]!;
  const length = ((data[1]! << 24) | (data[2]! << 16) | (data[3]! << 8) | data[4]!) >>> 0;
  if (flag > 1) throw grpcFailure("INTERNAL", `${options.side}: message flag ${flag} is not 0 or 1`);
  if (length > options.maxMessageBytes) {
    throw grpcFailure("RESOURCE_EXHAUSTED", `${options.side}: received message larger than max (${length} vs. ${options.maxMessageBytes})`);
  }
  return length;
}

async function finish(bytes: Uint8Array, compressed: boolean, encoding: string | undefined, options: MessageLimits): Promise<Uint8Array> {
  if (!compressed) return bytes;
  if (encoding === undefined) throw grpcFailure("INTERNAL", `${options.side}: a compressed message came without grpc-encoding`);
  return gunzipLimited(bytes, options);
}

/** Gunzips a message, stopping as soon as its output passes the limit (a zip bomb never inflates). */
async function gunzipLimited(bytes: Uint8Array, options: MessageLimits): Promise<Uint8Array> {
  try {
    return await gunzip(bytes, {
      maxBytes: options.maxMessageBytes,
      tooLarge: (max) => grpcFailure("RESOURCE_EXHAUSTED", `${options.side}: decompressed message larger than max (over ${max} bytes)`),
    });
  } catch (error) {
    if (ProtocolError.is(error)) throw error;
    throw grpcFailure("INTERNAL", `${options.side}: a compressed message is not valid gzip`, error);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
