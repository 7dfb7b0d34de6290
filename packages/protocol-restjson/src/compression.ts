/**
 * `Content-Encoding` handling for `@requestCompression` (gzip itself is `@anvil/core`'s).
 *
 * @internal
 */

/** The codings of a `Content-Encoding` value, in order. */
export function codingsOf(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "");
}
