/**
 * The growable output buffer binary codecs write into (CBOR, protobuf). One
 * instance is reused across writes and the result copied out, so
 * steady-state writing allocates only the returned bytes. Codecs extend it
 * with their own primitives.
 */
export class OutputBuffer {
  /** The bytes written so far are `buf[0 .. pos)`. */
  buf: Uint8Array;
  /** A view of `buf`, for fixed-width numbers. */
  view: DataView;
  /** Where the next byte goes. */
  pos = 0;
  /** Nesting of the value being written (cycle and depth guard). */
  depth = 0;
  /** Whether a write is in progress (a nested write gets its own buffer). */
  busy = false;

  /** @param size - The initial capacity in bytes; it doubles as needed. */
  constructor(size = 8192) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  /** Starts a new write. */
  reset(): void {
    this.pos = 0;
    this.depth = 0;
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** Appends bytes as they are (short runs byte by byte, which beats `set` for them). */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.ensure(n);
    if (n < 32) {
      const b = this.buf;
      let p = this.pos;
      for (let i = 0; i < n; i++) b[p++] = bytes[i]!;
      this.pos = p;
    } else {
      this.buf.set(bytes, this.pos);
      this.pos += n;
    }
  }

  /**
   * Writes `text` at `at` as one byte per char if it is all ASCII (room for
   * `text.length` bytes must be ensured) and returns where it ends; returns
   * -1 at the first other char, leaving `pos` alone: codecs then encode it as
   * UTF-8. Short strings are mostly ASCII, and this beats an encoder call.
   */
  asciiAt(text: string, at: number): number {
    const b = this.buf;
    let p = at;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) return -1;
      b[p++] = c;
    }
    return p;
  }

  /** A copy of the written bytes. */
  result(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
