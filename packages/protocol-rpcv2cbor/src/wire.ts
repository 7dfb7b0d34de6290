/**
 * What the client and server sides of RPC v2 CBOR share: the protocol
 * constants, body helpers, error type names and the
 * `__type` marker written in front of an error's members.
 *
 * @internal
 */
import { baseMediaType } from "@anvil/core/protocol";

/** The protocol trait id. */
export const PROTOCOL_ID = "smithy.protocols#rpcv2Cbor";

/** The `smithy-protocol` header every request and response carries. */
export const SMITHY_PROTOCOL = "smithy-protocol";
/** Its value for this protocol. */
export const RPC_V2_CBOR = "rpc-v2-cbor";

/** The media type of every body. */
export const CBOR = "application/cbor";

/** `smithy.api#Unit`: an operation without input or output. */
export const UNIT = "smithy.api#Unit";

/** Whether a `Content-Type` value is `application/cbor` (parameters ignored). */
export function isCborContentType(value: string | null): boolean {
  return value !== null && baseMediaType(value) === CBOR;
}

const utf8 = new TextEncoder();

/** A CBOR head (major type and argument), shortest form. */
function head(major: number, n: number): Uint8Array {
  const m = major << 5;
  if (n < 24) return Uint8Array.of(m | n);
  if (n < 0x100) return Uint8Array.of(m | 24, n);
  if (n < 0x10000) return Uint8Array.of(m | 25, n >> 8, n & 0xff);
  return Uint8Array.of(m | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
}

function text(s: string): Uint8Array {
  const bytes = utf8.encode(s);
  return concat([head(3, bytes.length), bytes]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const TYPE_KEY = text("__type");

/**
 * Puts `"__type": type` first into a CBOR map (an error structure the
 * schema-compiled writer produced): the map's entry count goes up by one, or
 * stays open for an indefinite-length map.
 */
export function withTypeMarker(map: Uint8Array, type: string): Uint8Array {
  const first = map[0];
  if (first === undefined || first >> 5 !== 5) throw new TypeError("withTypeMarker: not a CBOR map");
  const info = first & 0x1f;
  const entry = [TYPE_KEY, text(type)];
  if (info === 31) return concat([map.subarray(0, 1), ...entry, map.subarray(1)]);
  let count: number;
  let size: number;
  const view = new DataView(map.buffer, map.byteOffset, map.byteLength);
  if (info < 24) [count, size] = [info, 1];
  else if (info === 24) [count, size] = [view.getUint8(1), 2];
  else if (info === 25) [count, size] = [view.getUint16(1), 3];
  else if (info === 26) [count, size] = [view.getUint32(1), 5];
  else throw new TypeError("withTypeMarker: map too large");
  return concat([head(5, count + 1), ...entry, map.subarray(size)]);
}
