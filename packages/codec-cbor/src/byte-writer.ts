/**
 * The output buffer of the compiled CBOR writers: core's growable
 * `OutputBuffer` with the CBOR primitives.
 */
import { OutputBuffer } from "@anvil/core/protocol";

const encoder = new TextEncoder();

/** @internal */
export class ByteWriter extends OutputBuffer {
  /** A major type with its argument, in the shortest form. `value` is a non-negative safe integer. */
  head(major: number, value: number): void {
    this.ensure(9);
    const b = this.buf;
    const m = major << 5;
    if (value < 24) b[this.pos++] = m | value;
    else if (value < 0x100) {
      b[this.pos++] = m | 24;
      b[this.pos++] = value;
    } else if (value < 0x10000) {
      b[this.pos++] = m | 25;
      b[this.pos++] = value >> 8;
      b[this.pos++] = value & 0xff;
    } else if (value < 0x100000000) {
      b[this.pos++] = m | 26;
      this.view.setUint32(this.pos, value);
      this.pos += 4;
    } else {
      b[this.pos++] = m | 27;
      this.view.setUint32(this.pos, Math.floor(value / 0x100000000));
      this.view.setUint32(this.pos + 4, value >>> 0);
      this.pos += 8;
    }
  }

  /** An integer that is a safe integer. */
  int(value: number): void {
    if (value >= 0) this.head(0, value);
    else this.head(1, -1 - value);
  }

  /** A bigint that fits 64 bits (either sign); larger ones are bignums (tags 2 and 3). */
  bigint(value: bigint): void {
    const negative = value < 0n;
    const magnitude = negative ? -1n - value : value;
    if (magnitude <= 0xffffffffffffffffn) {
      if (magnitude <= 9007199254740991n) return this.head(negative ? 1 : 0, Number(magnitude));
      this.ensure(9);
      this.buf[this.pos++] = negative ? 0x3b : 0x1b;
      this.view.setBigUint64(this.pos, magnitude);
      this.pos += 8;
      return;
    }
    let hex = magnitude.toString(16);
    if (hex.length % 2) hex = "0" + hex;
    const n = hex.length / 2;
    this.ensure(1);
    this.buf[this.pos++] = negative ? 0xc3 : 0xc2;
    this.head(2, n);
    this.ensure(n);
    for (let i = 0; i < n; i++) this.buf[this.pos++] = parseInt(hex.substr(i * 2, 2), 16);
  }

  float32(value: number): void {
    this.ensure(5);
    this.buf[this.pos++] = 0xfa;
    this.view.setFloat32(this.pos, value);
    this.pos += 4;
  }

  float64(value: number): void {
    this.ensure(9);
    this.buf[this.pos++] = 0xfb;
    this.view.setFloat64(this.pos, value);
    this.pos += 8;
  }

  byte(value: number): void {
    this.ensure(1);
    this.buf[this.pos++] = value;
  }

  bytes(value: Uint8Array): void {
    this.head(2, value.length);
    this.raw(value);
  }

  /** A text string, UTF-8. */
  string(value: string): void {
    const n = value.length;
    if (n < 64) {
      // short strings: assume ASCII and write in place; fall back on the first other char
      this.ensure(n + 2);
      const b = this.buf;
      const start = this.pos;
      const end = this.asciiAt(value, start + (n < 24 ? 1 : 2));
      if (end >= 0) {
        if (n < 24) b[start] = 0x60 | n;
        else {
          b[start] = 0x78;
          b[start + 1] = n;
        }
        this.pos = end;
        return;
      }
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit: reserve the longest head, then move the bytes if a shorter one fits
    const max = n * 3;
    const headSize = max < 24 ? 1 : max < 0x100 ? 2 : max < 0x10000 ? 3 : 5;
    this.ensure(headSize + max + 9);
    const start = this.pos;
    const written = encoder.encodeInto(value, this.buf.subarray(start + headSize)).written;
    const actual = written < 24 ? 1 : written < 0x100 ? 2 : written < 0x10000 ? 3 : 5;
    if (actual !== headSize) this.buf.copyWithin(start + actual, start + headSize, start + headSize + written);
    this.head(3, written);
    this.pos = start + actual + written;
  }
}

/** @internal Pre-encodes a text string (a structure member name) to CBOR bytes. */
export function encodeKey(key: string): Uint8Array {
  const w = new ByteWriter(16 + key.length * 3);
  w.string(key);
  return w.result();
}
