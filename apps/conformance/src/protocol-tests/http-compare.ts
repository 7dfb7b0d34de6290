/**
 * Checks an HTTP message a protocol produced against a protocol test case:
 * headers (expected, forbidden, required), query parameters and the body,
 * compared structurally for JSON and CBOR media types and exactly otherwise.
 * Every check returns the problems it found, empty when the message matches.
 */
import { collectBytes, type HttpBody } from "@anvil/core";
import { parseQuery } from "@anvil/core/protocol";
import { Decoder } from "cbor-x";
import { valueDiff } from "./value-diff.js";

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** Problems with headers: expected values, forbidden and required names. */
export function headerProblems(actual: Headers, expected: Readonly<Record<string, string>>, forbid: readonly string[], require: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(expected)) {
    const got = actual.get(name);
    if (got === null) problems.push(`header ${name}: expected "${value}", got nothing`);
    else if (normalizeHeader(got) !== normalizeHeader(value)) problems.push(`header ${name}: expected "${value}", got "${got}"`);
  }
  for (const name of forbid) if (actual.has(name)) problems.push(`header ${name}: forbidden, got "${actual.get(name)}"`);
  for (const name of require) if (!actual.has(name)) problems.push(`header ${name}: required, missing`);
  return problems;
}

/** Header lists compare item by item, ignoring the spaces after commas. */
function normalizeHeader(value: string): string {
  return value
    .split(",")
    .map((v) => v.trim())
    .join(",");
}

/** Problems with query parameters: expected `name=value` pairs (as on the wire), forbidden and required names. */
export function queryProblems(
  actual: readonly (readonly [string, string])[],
  expected: readonly string[],
  forbid: readonly string[],
  require: readonly string[],
): string[] {
  const problems: string[] = [];
  const remaining = actual.map(([n, v]) => `${n}=${v}`);
  for (const param of expected) {
    const [pair] = parseQuery(param);
    const key = pair === undefined ? param : `${pair[0]}=${pair[1]}`;
    const i = remaining.indexOf(key);
    if (i < 0) problems.push(`query ${param}: missing (got ${actual.length === 0 ? "none" : remaining.join("&")})`);
    else remaining.splice(i, 1);
  }
  const names = new Set(actual.map(([n]) => n));
  for (const name of forbid) if (names.has(name)) problems.push(`query ${name}: forbidden, present`);
  for (const name of require) if (!names.has(name)) problems.push(`query ${name}: required, missing`);
  return problems;
}

/** Whether a media type is JSON (`application/json`, `application/x-amz-json-1.1`, `...+json`). */
export function isJsonMediaType(mediaType: string | undefined): boolean {
  if (mediaType === undefined) return false;
  const base = mediaType.split(";")[0]!.trim().toLowerCase();
  return base === "application/json" || base.endsWith("+json") || /^application\/(x-amz-)?json/.test(base);
}

/** Whether a media type is CBOR (`application/cbor`), whose case bodies are base64. */
export function isCborMediaType(mediaType: string | undefined): boolean {
  if (mediaType === undefined) return false;
  return mediaType.split(";")[0]!.trim().toLowerCase() === "application/cbor";
}

const utf8Encoder = new TextEncoder();

/**
 * The bytes of a case's body: protocol tests give binary bodies (CBOR) in
 * base64, every other body as text.
 */
export function caseBodyBytes(body: string, mediaType: string | undefined): Uint8Array {
  if (isCborMediaType(mediaType)) return new Uint8Array(Buffer.from(body, "base64"));
  return utf8Encoder.encode(body);
}

/** Decodes CBOR with cbor-x: maps as objects, tag 1 as Date, byte strings as bytes. */
const cbor = new Decoder({ mapsAsObjects: true });

function decodeCbor(bytes: Uint8Array): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string } {
  try {
    return { ok: true, value: normalizeCbor(cbor.decode(definiteStrings(bytes))) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A copy of one CBOR item with indefinite-length byte and text strings
 * joined into definite ones (cbor-x rejects those; protocol tests use them).
 * Throws on truncated input.
 */
export function definiteStrings(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  let at = 0;
  const byte = (): number => {
    if (at >= bytes.length) throw new Error("truncated CBOR");
    return bytes[at++]!;
  };
  const take = (n: number): Uint8Array => {
    if (at + n > bytes.length) throw new Error("truncated CBOR");
    const part = bytes.subarray(at, at + n);
    at += n;
    return part;
  };
  const argument = (info: number): number => {
    if (info < 24) return info;
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : -1;
    if (size < 0) throw new Error(`bad CBOR additional info ${info}`);
    let n = 0;
    for (const b of take(size)) n = n * 256 + b;
    return n;
  };
  const head = (major: number, n: number): void => {
    const m = major << 5;
    if (n < 24) out.push(m | n);
    else if (n < 0x100) out.push(m | 24, n);
    else if (n < 0x10000) out.push(m | 25, n >> 8, n & 0xff);
    else out.push(m | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  };
  const item = (): void => {
    const start = at;
    const ib = byte();
    const major = ib >> 5;
    const info = ib & 31;
    if (info === 31 && (major === 2 || major === 3)) {
      const chunks: number[] = [];
      for (let b = byte(); b !== 0xff; b = byte()) {
        if (b >> 5 !== major || (b & 31) === 31) throw new Error("bad indefinite-length string chunk");
        chunks.push(...take(argument(b & 31)));
      }
      head(major, chunks.length);
      out.push(...chunks);
      return;
    }
    if (info === 31 && (major === 4 || major === 5)) {
      out.push(ib);
      while (bytes[at] !== 0xff) item();
      out.push(byte());
      return;
    }
    const n = major === 7 ? (info >= 24 ? argument(info) : info) : argument(info);
    out.push(...bytes.subarray(start, at));
    if (major === 2 || major === 3) out.push(...take(n));
    else if (major === 4) for (let i = 0; i < n; i++) item();
    else if (major === 5) for (let i = 0; i < 2 * n; i++) item();
    else if (major === 6) item();
  };
  item();
  if (at !== bytes.length) throw new Error("trailing bytes after the CBOR item");
  return Uint8Array.from(out);
}

/** cbor-x gives Buffers for byte strings; compare them as plain bytes. */
function normalizeCbor(value: unknown): unknown {
  if (value instanceof Uint8Array) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(normalizeCbor);
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), normalizeCbor(v)]));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = normalizeCbor(v);
    return out;
  }
  return value;
}

/** The whole body as bytes. */
export async function bodyBytesOf(body: HttpBody): Promise<Uint8Array> {
  return body === undefined ? new Uint8Array(0) : collectBytes(body);
}

/**
 * Problems with a body: none when the case does not assert one; JSON media
 * types compare parsed values (key order ignored); CBOR (base64 in the case)
 * compares decoded values (key order and encodings ignored: floats by value,
 * byte strings by content, definite and indefinite lengths alike); others the
 * exact text.
 */
export function bodyProblems(actual: Uint8Array, expected: string | undefined, mediaType: string | undefined): string[] {
  if (expected === undefined) return [];
  if (isCborMediaType(mediaType)) return cborBodyProblems(actual, caseBodyBytes(expected, mediaType));
  const text = utf8.decode(actual);
  if (isJsonMediaType(mediaType) && expected.trim() !== "") {
    let want: unknown;
    let got: unknown;
    try {
      want = JSON.parse(expected);
    } catch {
      return text === expected ? [] : [`body: expected ${excerpt(expected)}, got ${excerpt(text)}`];
    }
    try {
      got = JSON.parse(text);
    } catch {
      return [`body: expected JSON ${excerpt(expected)}, got ${excerpt(text)}`];
    }
    const d = valueDiff(want, got);
    return d === undefined ? [] : [`body ${d}`];
  }
  return text === expected ? [] : [`body: expected ${excerpt(expected)}, got ${excerpt(text)}`];
}

function cborBodyProblems(actual: Uint8Array, expected: Uint8Array): string[] {
  if (expected.length === 0 || actual.length === 0) {
    if (expected.length === actual.length) return [];
    return expected.length === 0 ? [`body: expected none, got ${hex(actual)}`] : [`body: expected ${hex(expected)}, got none`];
  }
  const want = decodeCbor(expected);
  if (!want.ok) return bytesEqual(expected, actual) ? [] : [`body: expected ${hex(expected)} (not CBOR: ${want.reason}), got ${hex(actual)}`];
  const got = decodeCbor(actual);
  if (!got.ok) return [`body: expected CBOR, got ${hex(actual)} (${got.reason})`];
  const d = valueDiff(want.value, got.value);
  return d === undefined ? [] : [`body ${d}`];
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function hex(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.subarray(0, 80)).toString("hex");
  return `0x${text}${bytes.length > 80 ? "..." : ""}`;
}

function excerpt(text: string): string {
  const one = JSON.stringify(text);
  return one.length > 160 ? `${one.slice(0, 160)}..."` : one;
}
