/** JSON string text, escaped as JSON.stringify escapes it, with shortcuts for strings that need little or nothing. */

// Characters JSON.stringify escapes: quote, backslash, controls, and surrogates (lone ones get \u escapes).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Whether JSON.stringify would write a string as is between quotes (no escapes). */
function plainString(text: string): boolean {
  return !NEEDS_ESCAPE.test(text);
}

// What JSON.stringify escapes besides quote and backslash: controls (short or \u forms) and lone surrogates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters JSON escapes
const ESCAPE_HARD = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * The text of a string as JSON writes it between quotes. Strings whose only
 * escapes are quotes and backslashes (prose, paths) are escaped here, between
 * `indexOf` hits; anything else goes through JSON.stringify, whose escapes
 * this must match, and which costs more per call on such strings.
 */
function escapedBody(text: string): string {
  if (ESCAPE_HARD.test(text)) {
    const quoted = JSON.stringify(text);
    return quoted.slice(1, quoted.length - 1);
  }
  let out = "";
  let start = 0;
  let q = text.indexOf('"');
  let b = text.indexOf("\\");
  while (q >= 0 || b >= 0) {
    if (b < 0 || (q >= 0 && q < b)) {
      out += `${text.slice(start, q)}\\"`;
      start = q + 1;
      q = text.indexOf('"', start);
    } else {
      out += `${text.slice(start, b)}\\\\`;
      start = b + 1;
      b = text.indexOf("\\", start);
    }
  }
  return out + text.slice(start);
}

/** The text of a string between JSON quotes: as is when nothing needs escaping. */
export function stringBody(text: string): string {
  return plainString(text) ? text : escapedBody(text);
}

/** Quotes a string as JSON. */
export function quote(text: string): string {
  return `"${stringBody(text)}"`;
}
