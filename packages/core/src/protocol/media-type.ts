/**
 * Media types in request headers, as servers check them before reading a
 * request: the base type of a `Content-Type`, and whether an `Accept`
 * admits a type.
 */

/** A media type without its parameters, lower case (`Application/JSON; charset=utf-8` is `application/json`). */
export function baseMediaType(mediaType: string): string {
  const semi = mediaType.indexOf(";");
  return (semi < 0 ? mediaType : mediaType.slice(0, semi)).trim().toLowerCase();
}

/**
 * Whether an `Accept` value admits a media type (lower case, without
 * parameters): one of its ranges is the type, `type/*` or `*\/*`, with a
 * q-value other than 0.
 */
export function acceptsMediaType(accept: string, type: string): boolean {
  const major = type.slice(0, type.indexOf("/"));
  for (const range of accept.split(",")) {
    const [name = "", ...params] = range.split(";");
    const base = name.trim().toLowerCase();
    if (params.some((p) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/i.test(p))) continue;
    if (base === "*/*" || base === type || base === `${major}/*`) return true;
  }
  return false;
}
