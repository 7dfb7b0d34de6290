/**
 * Checks an HTTP message a protocol produced against a protocol test case:
 * headers (expected, forbidden, required), query parameters and the body,
 * compared structurally for JSON media types and exactly otherwise. Every
 * check returns the problems it found, empty when the message matches.
 */
import { collectBytes, parseQuery, type HttpBody } from "@anvil/core";
import { valueDiff } from "./value-diff.js";

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** Problems with headers: expected values, forbidden and required names. */
export function headerProblems(
  actual: Headers,
  expected: Readonly<Record<string, string>>,
  forbid: readonly string[],
  require: readonly string[],
): string[] {
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

/** The whole body as bytes. */
export async function bodyBytesOf(body: HttpBody): Promise<Uint8Array> {
  return body === undefined ? new Uint8Array(0) : collectBytes(body);
}

/**
 * Problems with a body: none when the case does not assert one; JSON media
 * types compare parsed values (key order ignored), others the exact text.
 */
export function bodyProblems(actual: Uint8Array, expected: string | undefined, mediaType: string | undefined): string[] {
  if (expected === undefined) return [];
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

function excerpt(text: string): string {
  const one = JSON.stringify(text);
  return one.length > 160 ? `${one.slice(0, 160)}..."` : one;
}
