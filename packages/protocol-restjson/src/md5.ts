/**
 * MD5 (RFC 1321), for the `Content-MD5` of `@httpChecksumRequired`
 * operations: WebCrypto has none, and a dependency for it would bring
 * Node-only code into browser and Workers bundles. Loaded only by the
 * operations that need it (see `content-md5.ts`).
 *
 * @internal
 */

/** Per-step left rotations. */
const SHIFTS = [
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16,
  23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

let constants: Int32Array | undefined;

/** floor(2^32 × |sin(i + 1)|), as RFC 1321's table T. */
function table(): Int32Array {
  if (constants === undefined) {
    constants = new Int32Array(64);
    for (let i = 0; i < 64; i++) constants[i] = Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0;
  }
  return constants;
}

/** The MD5 digest (16 bytes) of `bytes`. */
export function md5(bytes: Uint8Array): Uint8Array {
  const k = table();
  // The message, a 1 bit, zeros to 56 mod 64 bytes, and the bit length as a little-endian 64-bit integer.
  const padded = new Uint8Array((((bytes.byteLength + 8) >>> 6) + 1) << 6);
  padded.set(bytes);
  padded[bytes.byteLength] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = bytes.byteLength * 8;
  view.setUint32(padded.byteLength - 8, bits >>> 0, true);
  view.setUint32(padded.byteLength - 4, Math.floor(bits / 2 ** 32), true);
  let a0 = 0x67452301;
  let b0 = 0xefcdab89 | 0;
  let c0 = 0x98badcfe | 0;
  let d0 = 0x10325476;
  const m = new Int32Array(16);
  for (let block = 0; block < padded.byteLength; block += 64) {
    for (let i = 0; i < 16; i++) m[i] = view.getInt32(block + i * 4, true);
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const sum = (a + f + k[i]! + m[g]!) | 0;
      const s = SHIFTS[i]!;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << s) | (sum >>> (32 - s)))) | 0;
    }
    a0 = (a0 + a) | 0;
    b0 = (b0 + b) | 0;
    c0 = (c0 + c) | 0;
    d0 = (d0 + d) | 0;
  }
  const digest = new Uint8Array(16);
  const out = new DataView(digest.buffer);
  out.setInt32(0, a0, true);
  out.setInt32(4, b0, true);
  out.setInt32(8, c0, true);
  out.setInt32(12, d0, true);
  return digest;
}
