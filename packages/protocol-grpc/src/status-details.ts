/**
 * `grpc-status-details-bin`: a `google.rpc.Status` (code 1, message 2,
 * details 3) whose details are `google.protobuf.Any` (type_url 1, value 2).
 * Anvil puts one detail there for a modeled error: the type URL names the
 * error shape's message (`type.googleapis.com/<namespace>.<Name>`), the
 * value holds its members in the message codec. Three fixed messages, so
 * they are written by hand here rather than through a schema.
 */

/** The detail of a status: a type URL and the message bytes. */
export interface StatusDetail {
  readonly typeUrl: string;
  readonly value: Uint8Array;
}

/** A `google.rpc.Status`. */
export interface RpcStatus {
  readonly code: number;
  readonly message: string;
  readonly details: readonly StatusDetail[];
}

/** The prefix of the type URLs Anvil writes (the one protobuf's `Any.pack` uses). */
export const TYPE_URL_PREFIX = "type.googleapis.com/";

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

/** Encodes a `google.rpc.Status`. */
export function encodeRpcStatus(status: RpcStatus): Uint8Array {
  const out: number[] = [];
  if (status.code !== 0) {
    out.push(0x08);
    varint(out, status.code >>> 0);
  }
  if (status.message !== "") bytesField(out, 0x12, utf8.encode(status.message));
  for (const detail of status.details) {
    const any: number[] = [];
    bytesField(any, 0x0a, utf8.encode(detail.typeUrl));
    bytesField(any, 0x12, detail.value);
    bytesField(out, 0x1a, any);
  }
  return new Uint8Array(out);
}

/** Decodes a `google.rpc.Status`; throws a RangeError on bytes that are not one. Unknown fields are skipped. */
export function decodeRpcStatus(bytes: Uint8Array): RpcStatus {
  let code = 0;
  let message = "";
  const details: StatusDetail[] = [];
  readFields(bytes, (field, value) => {
    if (field === 1 && typeof value === "number") code = value | 0;
    else if (field === 2 && value instanceof Uint8Array) message = utf8Decoder.decode(value);
    else if (field === 3 && value instanceof Uint8Array) {
      let typeUrl = "";
      let body: Uint8Array = new Uint8Array(0);
      readFields(value, (f, v) => {
        if (f === 1 && v instanceof Uint8Array) typeUrl = utf8Decoder.decode(v);
        else if (f === 2 && v instanceof Uint8Array) body = v;
      });
      details.push({ typeUrl, value: body });
    }
  });
  return { code, message, details };
}

function varint(out: number[], value: number): void {
  while (value > 0x7f) {
    out.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
}

function bytesField(out: number[], tag: number, value: ArrayLike<number>): void {
  out.push(tag);
  varint(out, value.length);
  for (let i = 0; i < value.length; i++) out.push(value[i]!);
}

/** Calls `onField` with each field's number and value (a number for varints, bytes for length-delimited; fixed fields skipped). */
function readFields(bytes: Uint8Array, onField: (field: number, value: number | Uint8Array) => void): void {
  let pos = 0;
  const readVarint = (): number => {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (pos >= bytes.length) throw new RangeError("google.rpc.Status: truncated varint");
      const b = bytes[pos++]!;
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    throw new RangeError("google.rpc.Status: varint longer than 10 bytes");
  };
  while (pos < bytes.length) {
    const key = readVarint();
    const field = Math.floor(key / 8);
    const wireType = key & 7;
    if (field === 0) throw new RangeError("google.rpc.Status: field number 0");
    switch (wireType) {
      case 0:
        onField(field, readVarint() % 2 ** 32);
        break;
      case 1:
        pos += 8;
        break;
      case 2: {
        const length = readVarint();
        if (length > bytes.length - pos) throw new RangeError("google.rpc.Status: length past the end");
        onField(field, bytes.subarray(pos, pos + length));
        pos += length;
        break;
      }
      case 5:
        pos += 4;
        break;
      default:
        throw new RangeError(`google.rpc.Status: wire type ${wireType} is not supported`);
    }
    if (pos > bytes.length) throw new RangeError("google.rpc.Status: truncated field");
  }
}
