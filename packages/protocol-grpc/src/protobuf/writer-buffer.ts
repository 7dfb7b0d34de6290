/**
 * The output buffer of the compiled protobuf writers: core's growable
 * `OutputBuffer` with the protobuf primitives.
 *
 * Length-delimited fields are written in one pass with backpatching: `fork`
 * reserves one byte for the length, `join` writes it and, in the rare case
 * the body is 128 bytes or longer, moves the body to make room for a longer
 * varint. No size pre-pass, no chunk lists.
 */

import { OutputBuffer } from "@anvil/core/protocol";

const encoder = new TextEncoder();
const TWO_32 = 0x100000000;

/** @internal */
export class ProtoWriter extends OutputBuffer {
  /** An unsigned 32-bit varint (`0 <= value < 2^32`); tags and lengths too. */
  uint32(value: number): void {
    if (value < 0x80 && this.pos < this.buf.length) {
      this.buf[this.pos++] = value;
      return;
    }
    this.ensure(5);
    const b = this.buf;
    let p = this.pos;
    while (value > 0x7f) {
      b[p++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    b[p++] = value;
    this.pos = p;
  }

  /** A signed 64-bit varint from a safe integer (negative values take ten bytes), without allocating. */
  int64(value: number): void {
    if (value >= 0) {
      if (value < 0x80000000) this.uint32(value);
      else this.varint64(value >>> 0, Math.floor(value / TWO_32) >>> 0);
      return;
    }
    const magnitude = -value;
    const lo = (~(magnitude >>> 0) + 1) >>> 0;
    this.varint64(lo, (~(Math.floor(magnitude / TWO_32) >>> 0) + (lo === 0 ? 1 : 0)) >>> 0);
  }

  /** An `int32` varint: negative values take ten bytes (sign-extended to 64 bits). */
  int32(value: number): void {
    if (value >= 0) this.uint32(value);
    else this.varint64(value >>> 0, 0xffffffff);
  }

  /** A `sint32` varint (zigzag). */
  sint32(value: number): void {
    this.uint32(((value << 1) ^ (value >> 31)) >>> 0);
  }

  /** A 64-bit varint from its unsigned 32-bit halves. */
  varint64(lo: number, hi: number): void {
    this.ensure(10);
    const b = this.buf;
    let p = this.pos;
    while (hi > 0 || lo > 0x7f) {
      b[p++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    b[p++] = lo;
    this.pos = p;
  }

  /** Four little-endian bytes from an unsigned or signed 32-bit integer. */
  fixed32(value: number): void {
    this.ensure(4);
    const b = this.buf;
    const p = this.pos;
    b[p] = value;
    b[p + 1] = value >>> 8;
    b[p + 2] = value >>> 16;
    b[p + 3] = value >>> 24;
    this.pos = p + 4;
  }

  /** Eight little-endian bytes from unsigned 32-bit halves. */
  fixed64(lo: number, hi: number): void {
    this.fixed32(lo);
    this.fixed32(hi);
  }

  float(value: number): void {
    this.ensure(4);
    this.view.setFloat32(this.pos, value, true);
    this.pos += 4;
  }

  double(value: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  /** Length-delimited bytes. */
  bytes(value: Uint8Array): void {
    this.uint32(value.length);
    this.raw(value);
  }

  /** A length-delimited UTF-8 string (lone surrogates become U+FFFD, as TextEncoder does). */
  string(value: string): void {
    const n = value.length;
    if (n < 128) {
      // short strings: assume ASCII and write in place; fall back on the first other char
      this.ensure(n + 1);
      const start = this.pos;
      const end = this.asciiAt(value, start + 1);
      if (end >= 0) {
        this.buf[start] = n;
        this.pos = end;
        return;
      }
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit: reserve the longest length, then move the bytes if a shorter one fits
    const max = n * 3;
    const reserved = varintSize(max);
    this.ensure(reserved + max);
    const start = this.pos;
    const written = encoder.encodeInto(value, this.buf.subarray(start + reserved)).written;
    const actual = varintSize(written);
    if (actual !== reserved) this.buf.copyWithin(start + actual, start + reserved, start + reserved + written);
    this.uint32(written);
    this.pos = start + actual + written;
  }

  /**
   * Starts a length-delimited body: reserves `reserve` bytes for the length
   * (a guess; one unless the caller knows its bodies run long) and returns
   * where the body starts.
   */
  fork(reserve = 1): number {
    this.ensure(reserve);
    return (this.pos += reserve);
  }

  /**
   * Ends a body started with {@link fork}: writes its length in the fewest
   * bytes, moving the body when that is not the number reserved. Returns the
   * bytes the length took (the next guess of a caller writing similar bodies).
   */
  join(start: number, reserved = 1): number {
    const length = this.pos - start;
    if (length < 0x80 && reserved === 1) {
      this.buf[start - 1] = length;
      return 1;
    }
    const size = varintSize(length);
    if (size !== reserved) {
      this.ensure(size - reserved);
      this.buf.copyWithin(start - reserved + size, start, this.pos);
    }
    const b = this.buf;
    let p = start - reserved;
    let v = length;
    while (v > 0x7f) {
      b[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[p++] = v;
    this.pos = p + length;
    return size;
  }
}

/** @internal The bytes an unsigned 32-bit varint takes. */
export function varintSize(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

/** @internal Splits an integer (safe number or bigint within 64 bits) into two's complement unsigned 32-bit halves. */
export function split64(value: number | bigint): [lo: number, hi: number] {
  if (typeof value === "bigint") return [Number(value & 0xffffffffn), Number((value >> 32n) & 0xffffffffn)];
  if (value >= 0) return [value >>> 0, Math.floor(value / TWO_32) >>> 0];
  const magnitude = -value;
  let lo = magnitude >>> 0;
  let hi = Math.floor(magnitude / TWO_32) >>> 0;
  // negate: ~x + 1 over 64 bits
  lo = (~lo + 1) >>> 0;
  hi = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
  return [lo, hi];
}
