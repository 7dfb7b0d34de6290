/**
 * Just enough CBOR (RFC 8949) to show example bodies of rpcv2Cbor calls as
 * bytes and in diagnostic notation. Values are JSON-like, plus
 * `Uint8Array` (byte strings), {@link CborFloat} (a number the schema says
 * is floating point) and {@link CborTime} (tag 1, epoch seconds).
 */

/** A number encoded as a float even when it is whole (a `float` or `double` member). */
export class CborFloat {
  constructor(readonly value: number) {}
}

/** A timestamp: tag 1 around epoch seconds. */
export class CborTime {
  constructor(readonly seconds: number) {}
}

function head(out: number[], major: number, n: number): void {
  const m = major << 5;
  if (n < 24) out.push(m | n);
  else if (n < 0x100) out.push(m | 24, n);
  else if (n < 0x10000) out.push(m | 25, n >> 8, n & 0xff);
  else if (n < 0x100000000) out.push(m | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  else {
    const hi = Math.floor(n / 0x100000000);
    const lo = n >>> 0;
    out.push(m | 27, (hi >>> 24) & 0xff, (hi >> 16) & 0xff, (hi >> 8) & 0xff, hi & 0xff, (lo >>> 24) & 0xff, (lo >> 16) & 0xff, (lo >> 8) & 0xff, lo & 0xff);
  }
}

function float64(out: number[], value: number): void {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  out.push(0xfb, ...new Uint8Array(view.buffer));
}

function write(out: number[], value: unknown): void {
  if (value === null || value === undefined) out.push(0xf6);
  else if (value === false) out.push(0xf4);
  else if (value === true) out.push(0xf5);
  else if (value instanceof CborFloat) float64(out, value.value);
  else if (value instanceof CborTime) {
    head(out, 6, 1);
    write(out, Number.isInteger(value.seconds) ? value.seconds : new CborFloat(value.seconds));
  } else if (typeof value === "number") {
    if (Number.isSafeInteger(value)) head(out, value < 0 ? 1 : 0, value < 0 ? -1 - value : value);
    else float64(out, value);
  } else if (typeof value === "string") {
    const bytes = new TextEncoder().encode(value);
    head(out, 3, bytes.length);
    out.push(...bytes);
  } else if (value instanceof Uint8Array) {
    head(out, 2, value.length);
    out.push(...value);
  } else if (Array.isArray(value)) {
    head(out, 4, value.length);
    for (const item of value) write(out, item);
  } else {
    const entries = Object.entries(value as Record<string, unknown>);
    head(out, 5, entries.length);
    for (const [k, v] of entries) {
      write(out, k);
      write(out, v);
    }
  }
}

/** Encodes a value as CBOR (definite lengths, shortest heads, floats as float64). */
export function encodeCbor(value: unknown): Uint8Array {
  const out: number[] = [];
  write(out, value);
  return Uint8Array.from(out);
}

/** Bytes as hex, 16 per line, pairs separated by spaces. */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    lines.push([...bytes.subarray(i, i + 16)].map((b) => b.toString(16).padStart(2, "0")).join(" "));
  }
  return lines.join("\n");
}

/** The value in CBOR diagnostic notation (RFC 8949 §8), indented. */
export function diagnostic(value: unknown, indent = ""): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof CborFloat) return Number.isInteger(value.value) ? `${value.value}.0` : String(value.value);
  if (value instanceof CborTime) return `1(${Number.isInteger(value.seconds) ? value.seconds : diagnostic(new CborFloat(value.seconds))})`;
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Uint8Array) return `h'${[...value].map((b) => b.toString(16).padStart(2, "0")).join("")}'`;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => inner + diagnostic(v, inner)).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${diagnostic(v, inner)}`).join(",\n")}\n${indent}}`;
}
