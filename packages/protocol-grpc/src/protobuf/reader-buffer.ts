/**
 * The input side: a cursor over the bytes with the protobuf primitives. Every
 * read is bounded by `end`, the end of the innermost length-delimited body,
 * so a nested field can never read past its message, and lengths are checked
 * against what is left before anything is allocated.
 */
import { plainBytes } from "@anvil/core/protocol";
import { fail } from "./failure.js";

/** Wire types. */
export const VARINT = 0;
export const I64 = 1;
export const LEN = 2;
export const SGROUP = 3;
export const EGROUP = 4;
export const I32 = 5;

const TWO_32 = 0x100000000;
/** Above this high half, a 64-bit magnitude is beyond 2^53 and stays a bigint. */
const SAFE_HI = 0x200000;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/** ASCII bytes to a string: Node's native latin1 slice where there is one (the bytes were checked to be ASCII). */
const latin1Slice =
  typeof Buffer === "function" ? (Buffer.prototype as unknown as { latin1Slice?: (start: number, end: number) => string }).latin1Slice : undefined;
const ascii: (b: Uint8Array, start: number, end: number) => string = latin1Slice
  ? (b, start, end) => latin1Slice.call(b, start, end)
  : (b, start, end) => String.fromCharCode.apply(null, b.subarray(start, end) as unknown as number[]);

/** Up to this length, an ASCII string is built from its char codes in JS, which costs less than a native call. */
const SHORT = 24;
const fromCharCode = String.fromCharCode;

/**
 * Short bytes to a string in one pass: eight bytes at a time are checked to
 * be ASCII and turned into a string with one `String.fromCharCode` call (one
 * flat string each, where a char-by-char concatenation makes one per byte).
 * Anything not ASCII goes to the strict decoder.
 */
function shortString(b: Uint8Array, start: number, end: number): string {
  let out = "";
  let p = start;
  for (; p + 8 <= end; p += 8) {
    const c0 = b[p]!,
      c1 = b[p + 1]!,
      c2 = b[p + 2]!,
      c3 = b[p + 3]!,
      c4 = b[p + 4]!,
      c5 = b[p + 5]!,
      c6 = b[p + 6]!,
      c7 = b[p + 7]!;
    if ((c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7) >= 0x80) return strictUtf8(b, start, end);
    out += fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7);
  }
  const n = end - p;
  if (n === 0) return out;
  // the tail: one to seven bytes
  let high = 0;
  for (let q = p; q < end; q++) high |= b[q]!;
  if (high >= 0x80) return strictUtf8(b, start, end);
  switch (n) {
    case 1:
      return out + fromCharCode(b[p]!);
    case 2:
      return out + fromCharCode(b[p]!, b[p + 1]!);
    case 3:
      return out + fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!);
    case 4:
      return out + fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!);
    case 5:
      return out + fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!);
    case 6:
      return out + fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!);
    default:
      return out + fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!);
  }
}

/** The strict decoder: malformed UTF-8 is an error. */
function strictUtf8(b: Uint8Array, start: number, end: number): string {
  try {
    return utf8.decode(b.subarray(start, end));
  } catch {
    return fail("malformed UTF-8 in string");
  }
}

/** The bytes from `start` to `end` as UTF-8; malformed UTF-8 is an error. */
function utf8String(b: Uint8Array, start: number, end: number): string {
  if (end - start <= SHORT) return shortString(b, start, end);
  if (end - start < 256) {
    // mostly ASCII, which needs no decoder
    let p = start;
    while (p < end && b[p]! < 0x80) p++;
    if (p === end) return ascii(b, start, end);
  }
  return strictUtf8(b, start, end);
}

/** Map keys up to this length are cached ({@link ProtoReader.key}), in this many slots (a power of two). */
const KEY_MAX = 24;
const KEY_SLOTS = 256;
const keyCache: string[] = new Array<string>(KEY_SLOTS).fill("");

/**
 * @internal Fails a tag whose varint, `start` to `end`, holds more than 32
 * bits: a field number beyond 2^29 - 1, which {@link ProtoReader.uint32}
 * would otherwise cut to its low bits (and so to another field). Called only
 * for tags of more than four bytes; padding bytes that add no bits are let be.
 */
export function failWideTag(b: Uint8Array, start: number, end: number): void {
  let wide = (b[start + 4]! & 0x70) !== 0;
  for (let i = start + 5; i < end; i++) wide ||= (b[i]! & 0x7f) !== 0;
  if (wide) fail("field number beyond 2^29 - 1");
}

/** @internal */
export class ProtoReader {
  buf: Uint8Array;
  view: DataView;
  pos = 0;
  /** The end of the current body. */
  end: number;
  /** Message nesting (depth guard). */
  depth = 0;
  /** The halves of the last {@link varint64} or {@link fixed64}. */
  lo = 0;
  hi = 0;

  constructor(bytes: Uint8Array) {
    // a Buffer (or other subclass) as a plain Uint8Array view: one receiver map keeps the byte loads monomorphic
    bytes = plainBytes(bytes);
    this.buf = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.end = bytes.length;
  }

  /**
   * A varint's low 32 bits, unsigned; rejects truncated and over-long (more
   * than ten byte) varints. The common case (five bytes or fewer, with five
   * bytes left) is unrolled and small enough for V8 to inline at every call;
   * the rest is {@link varint32}.
   */
  uint32(): number {
    const b = this.buf;
    const p = this.pos;
    if (this.end - p >= 5) {
      let x = b[p]!;
      if (x < 0x80) {
        this.pos = p + 1;
        return x;
      }
      let v = x & 0x7f;
      x = b[p + 1]!;
      v |= (x & 0x7f) << 7;
      if (x < 0x80) {
        this.pos = p + 2;
        return v;
      }
      x = b[p + 2]!;
      v |= (x & 0x7f) << 14;
      if (x < 0x80) {
        this.pos = p + 3;
        return v;
      }
      x = b[p + 3]!;
      v |= (x & 0x7f) << 21;
      if (x < 0x80) {
        this.pos = p + 4;
        return v;
      }
      x = b[p + 4]!;
      if (x < 0x80) {
        this.pos = p + 5;
        return (v | (x << 28)) >>> 0;
      }
    }
    return this.varint32();
  }

  /**
   * {@link uint32} as a plain loop: the slow path (near the end of the body,
   * or longer than five bytes: negative int32s take ten), and what
   * {@link length} calls past its one-byte case, keeping it small enough to inline.
   */
  varint32(): number {
    const b = this.buf;
    const end = this.end;
    let p = this.pos;
    let result = 0;
    let shift = 0;
    for (let i = 0; i < 10; i++) {
      if (p >= end) return fail("truncated varint");
      const byte = b[p++]!;
      if (shift < 32) result |= (byte & 0x7f) << shift;
      shift += 7;
      if (byte < 0x80) {
        this.pos = p;
        return result >>> 0;
      }
    }
    return fail("varint longer than ten bytes");
  }

  /** A 64-bit varint into {@link lo} and {@link hi}. */
  varint64(): void {
    const b = this.buf;
    const end = this.end;
    let p = this.pos;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (p >= end) fail("truncated varint");
      const byte = b[p++]!;
      const bits = byte & 0x7f;
      if (i < 4) lo |= bits << (i * 7);
      else if (i === 4) {
        lo |= bits << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (i * 7 - 32);
      if (byte < 0x80) {
        this.pos = p;
        this.lo = lo >>> 0;
        this.hi = hi >>> 0;
        return;
      }
    }
    fail("varint longer than ten bytes");
  }

  /**
   * A signed 64-bit varint as a number or bigint. Fast path, unrolled: a
   * non-negative value of up to seven bytes (below 2^49) with seven bytes
   * left, its low 28 bits summed as an int and the rest as a double.
   */
  int64(): number | bigint {
    const b = this.buf;
    const p = this.pos;
    if (this.end - p >= 7) {
      let x = b[p]!;
      if (x < 0x80) {
        this.pos = p + 1;
        return x;
      }
      let lo = x & 0x7f;
      x = b[p + 1]!;
      lo |= (x & 0x7f) << 7;
      if (x < 0x80) {
        this.pos = p + 2;
        return lo;
      }
      x = b[p + 2]!;
      lo |= (x & 0x7f) << 14;
      if (x < 0x80) {
        this.pos = p + 3;
        return lo;
      }
      x = b[p + 3]!;
      lo |= (x & 0x7f) << 21;
      if (x < 0x80) {
        this.pos = p + 4;
        return lo;
      }
      // lo holds 28 bits; the next bytes are bits 28 and up
      let hi = b[p + 4]!;
      if (hi < 0x80) {
        this.pos = p + 5;
        return lo + hi * 0x10000000;
      }
      hi &= 0x7f;
      x = b[p + 5]!;
      hi |= (x & 0x7f) << 7;
      if (x < 0x80) {
        this.pos = p + 6;
        return lo + hi * 0x10000000;
      }
      x = b[p + 6]!;
      if (x < 0x80) {
        this.pos = p + 7;
        return lo + (hi | (x << 14)) * 0x10000000;
      }
    }
    this.varint64();
    return this.signed64();
  }

  /** The last 64-bit value as unsigned: a number when safe, else a bigint. */
  unsigned64(): number | bigint {
    const { lo, hi } = this;
    if (hi < SAFE_HI) return hi * TWO_32 + lo;
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** The last 64-bit value as two's complement signed: a number when safe, else a bigint. */
  signed64(): number | bigint {
    const { lo, hi } = this;
    if (hi < 0x80000000) return this.unsigned64();
    // negative: magnitude = ~x + 1
    const mlo = (~lo + 1) >>> 0;
    const mhi = (~hi + (mlo === 0 ? 1 : 0)) >>> 0;
    if (mhi < SAFE_HI) return -(mhi * TWO_32 + mlo);
    return -((BigInt(mhi) << 32n) | BigInt(mlo));
  }

  /** The last 64-bit value zigzag-decoded. */
  zigzag64(): number | bigint {
    const { lo, hi } = this;
    const negative = lo & 1;
    let zlo = ((lo >>> 1) | (hi << 31)) >>> 0;
    let zhi = hi >>> 1;
    if (negative) {
      zlo = ~zlo >>> 0;
      zhi = ~zhi >>> 0;
    }
    this.lo = zlo;
    this.hi = zhi;
    return this.signed64();
  }

  /** Four bytes, little endian, unsigned. */
  fixed32(): number {
    const p = this.pos;
    if (p + 4 > this.end) fail("truncated fixed32");
    this.pos = p + 4;
    return this.view.getUint32(p, true);
  }

  /** Eight bytes, little endian, into {@link lo} and {@link hi}. */
  fixed64(): void {
    const p = this.pos;
    if (p + 8 > this.end) fail("truncated fixed64");
    this.pos = p + 8;
    this.lo = this.view.getUint32(p, true);
    this.hi = this.view.getUint32(p + 4, true);
  }

  float(): number {
    const p = this.pos;
    if (p + 4 > this.end) fail("truncated float");
    this.pos = p + 4;
    return this.view.getFloat32(p, true);
  }

  double(): number {
    const p = this.pos;
    if (p + 8 > this.end) fail("truncated double");
    this.pos = p + 8;
    return this.view.getFloat64(p, true);
  }

  /** A length prefix, checked against what is left of the current body. Returns the body's end. */
  length(): number {
    // one-byte lengths (below 128) inline; the rest through the loop
    let pos = this.pos;
    let n = pos < this.end ? this.buf[pos]! : 0x80;
    if (n < 0x80) this.pos = ++pos;
    else {
      n = this.varint32();
      pos = this.pos;
    }
    if (n > this.end - pos) this.pastEnd(n);
    return pos + n;
  }

  private pastEnd(n: number): never {
    return fail(`length ${n} past the end of the message`);
  }

  /** Length-delimited bytes (a copy: the input buffer may be reused by the transport). */
  bytes(): Uint8Array {
    const end = this.length();
    const out = this.buf.slice(this.pos, end);
    this.pos = end;
    return out;
  }

  /** A length-delimited UTF-8 string; malformed UTF-8 is an error. */
  string(): string {
    const end = this.length();
    const start = this.pos;
    this.pos = end;
    return end - start <= SHORT ? shortString(this.buf, start, end) : utf8String(this.buf, start, end);
  }

  /**
   * A map key: like {@link string}, but a short ASCII key is taken from a
   * small cache of recent keys when the bytes match (map keys repeat from
   * entry to entry, and a cached key is neither a new string nor a new
   * lookup in V8's string table when it is stored as a property).
   */
  key(): string {
    const end = this.length();
    const b = this.buf;
    const start = this.pos;
    this.pos = end;
    const n = end - start;
    if (n > KEY_MAX) return utf8String(b, start, end);
    let hash = n;
    for (let p = start; p < end; p++) {
      const c = b[p]!;
      if (c >= 0x80) return utf8String(b, start, end);
      hash = (hash * 31 + c) | 0;
    }
    const slot = hash & (KEY_SLOTS - 1);
    const cached = keyCache[slot]!;
    if (cached.length === n) {
      let i = 0;
      while (i < n && cached.charCodeAt(i) === b[start + i]) i++;
      if (i === n) return cached;
    }
    return (keyCache[slot] = shortString(b, start, end));
  }

  /** Skips one field's value of the given wire type (an unknown field). */
  skip(wireType: number, fieldNumber: number): void {
    switch (wireType) {
      case VARINT:
        this.uint32();
        return;
      case I64:
        if (this.pos + 8 > this.end) fail("truncated fixed64");
        this.pos += 8;
        return;
      case LEN:
        this.pos = this.length();
        return;
      case I32:
        if (this.pos + 4 > this.end) fail("truncated fixed32");
        this.pos += 4;
        return;
      case SGROUP: {
        // a group: skip fields until the matching end-group tag
        if (++this.depth > 100) fail("groups nested too deeply");
        for (;;) {
          if (this.pos >= this.end) fail("unterminated group");
          const at = this.pos;
          const tag = this.uint32();
          if (this.pos - at > 4) failWideTag(this.buf, at, this.pos);
          const no = tag >>> 3;
          const wt = tag & 7;
          if (no === 0) fail("field number 0");
          if (wt === EGROUP) {
            if (no !== fieldNumber) fail("mismatched end-group tag");
            break;
          }
          this.skip(wt, no);
        }
        this.depth--;
        return;
      }
      default:
        fail(wireType === EGROUP ? "unexpected end-group tag" : `invalid wire type ${wireType}`);
    }
  }
}
