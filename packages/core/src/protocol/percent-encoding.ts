/**
 * Telling what is wrong with percent-encoded text (RFC 3986 §2.1) that does
 * not decode, for servers that refuse it rather than take it as written.
 */

/**
 * What is wrong with percent-encoded text, or undefined when it decodes
 * (when `decodeURIComponent` takes it): the first `%` that is not followed
 * by two hex digits, else the first run of escapes whose bytes are not
 * UTF-8. The answer quotes the offending text: `"%zz" is not a
 * percent-escape (% and two hex digits)`, `"%C3%28" is not UTF-8`.
 */
export function percentEncodingProblem(text: string): string | undefined {
  let at = text.indexOf("%");
  if (at < 0) return undefined;
  for (let i = at; i >= 0; i = text.indexOf("%", i + 1)) {
    if (!isHexDigit(text.charCodeAt(i + 1)) || !isHexDigit(text.charCodeAt(i + 2))) {
      return `${JSON.stringify(text.slice(i, i + 3))} is not a percent-escape (% and two hex digits)`;
    }
  }
  // Every escape is well formed: find the run of them whose bytes are not UTF-8.
  while (at >= 0) {
    let end = at;
    while (text.charCodeAt(end) === 37 /* % */) end += 3;
    const run = text.slice(at, end);
    try {
      decodeURIComponent(run);
    } catch {
      return `${JSON.stringify(run)} is not UTF-8`;
    }
    at = text.indexOf("%", end);
  }
  return undefined;
}

function isHexDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}
