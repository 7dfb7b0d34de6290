/**
 * `grpc-message` is percent-encoded UTF-8: printable ASCII other than `%`
 * goes as it is, every other byte as `%XX`. Decoding is lenient (a stray
 * `%` stays as it is), as the gRPC spec asks of receivers.
 */

const utf8 = new TextEncoder();
const HEX = "0123456789ABCDEF";

/** Percent-encodes a status message for the `grpc-message` trailer. */
export function encodeGrpcMessage(message: string): string {
  let plain = true;
  for (let i = 0; i < message.length; i++) {
    const c = message.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x25) {
      plain = false;
      break;
    }
  }
  if (plain) return message;
  let out = "";
  for (const byte of utf8.encode(message)) {
    out += byte < 0x20 || byte > 0x7e || byte === 0x25 ? `%${HEX[byte >> 4]}${HEX[byte & 15]}` : String.fromCharCode(byte);
  }
  return out;
}

const lenient = new TextDecoder("utf-8", { fatal: false });

/** Decodes a `grpc-message` value; malformed escapes are kept as they are. */
export function decodeGrpcMessage(value: string): string {
  if (!value.includes("%")) return value;
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x25 && i + 2 < value.length && isHex(value.charCodeAt(i + 1)) && isHex(value.charCodeAt(i + 2))) {
      bytes.push(parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(c & 0xff);
    }
  }
  return lenient.decode(new Uint8Array(bytes));
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
