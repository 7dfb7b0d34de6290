/**
 * Decoding of IDL quoted strings and text blocks: line-ending normalization,
 * incidental-whitespace stripping for text blocks, and escape sequences.
 *
 * @internal
 */

/** Thrown for malformed string contents; the tokenizer turns it into an ERROR token. */
export class IdlStringError extends Error {}

/**
 * Decodes the raw characters between the quotes of a quoted string
 * (`textBlock` false) or a text block (`textBlock` true).
 *
 * Text block formatting happens before escapes are processed, as in the
 * specification, so an escaped `\n` never counts as a line of the block.
 *
 * @throws IdlStringError when the contents are invalid.
 */
export function decodeIdlString(raw: string, textBlock: boolean): string {
  let text = raw.indexOf("\r") === -1 ? raw : normalizeLineEndings(raw);
  if (textBlock) text = formatTextBlock(text);
  // Fast path: nothing to unescape and nothing to reject.
  let needsScan = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c || !isValidNormalCharacter(c, textBlock)) {
      needsScan = true;
      break;
    }
  }
  return needsScan ? unescapeIdl(text, textBlock) : text;
}

function unescapeIdl(text: string, textBlock: boolean): string {
  let out = "";
  let mark = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c !== 0x5c) {
      if (!isValidNormalCharacter(c, textBlock)) {
        throw new IdlStringError(`Invalid string character: \`${text[i]}\``);
      }
      i++;
      continue;
    }
    out += text.slice(mark, i);
    if (i + 1 >= n) {
      // A lone trailing backslash cannot happen (the scanner always pairs it with
      // the next character), but guard anyway.
      throw new IdlStringError("Invalid escape found in string: `\\`");
    }
    const e = text.charCodeAt(i + 1);
    i += 2;
    switch (e) {
      case 0x22:
        out += '"';
        break;
      case 0x5c:
        out += "\\";
        break;
      case 0x2f:
        out += "/";
        break;
      case 0x62:
        out += "\b";
        break;
      case 0x66:
        out += "\f";
        break;
      case 0x6e:
        out += "\n";
        break;
      case 0x72:
        out += "\r";
        break;
      case 0x74:
        out += "\t";
        break;
      case 0x0a:
        break; // An escaped line break continues the string on the next line.
      case 0x75: {
        let value = 0;
        for (let k = 0; k < 4; k++) {
          if (i >= n) throw new IdlStringError("Invalid unclosed unicode escape found in string");
          const h = text.charCodeAt(i);
          let d: number;
          if (h >= 0x30 && h <= 0x39) d = h - 0x30;
          else if (h >= 0x61 && h <= 0x66) d = h - 0x61 + 10;
          else if (h >= 0x41 && h <= 0x46) d = h - 0x41 + 10;
          else throw new IdlStringError(`Invalid unicode escape character: \`${text[i]}\``);
          value = (value << 4) | d;
          i++;
        }
        // Each \uXXXX is one UTF-16 code unit, so surrogate pairs written as two
        // escapes recombine naturally.
        out += String.fromCharCode(value);
        break;
      }
      default:
        throw new IdlStringError(`Invalid escape found in string: \`\\${text[i - 1]}\``);
    }
    mark = i;
  }
  return out + text.slice(mark);
}

/** Characters allowed unescaped (the QuotedChar production); `"` only in text blocks. */
function isValidNormalCharacter(c: number, textBlock: boolean): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0d || c === 0x20 || c === 0x21 || (textBlock && c === 0x22) || (c >= 0x23 && c <= 0x5b) || c >= 0x5d;
}

/** CR and CRLF become LF so strings are identical across platforms. */
function normalizeLineEndings(s: string): string {
  return s.replace(/\r\n?/g, "\n");
}

/**
 * Removes the incidental whitespace of a text block: the first line (right
 * after the opening quotes) must be empty; the smallest indentation of the
 * other non-blank lines (and of the closing line, which is significant) is
 * removed from every line, and trailing spaces are trimmed.
 */
function formatTextBlock(s: string): string {
  if (s.length === 0) throw new IdlStringError("Text block is empty");
  if (s.charCodeAt(0) !== 0x0a) throw new IdlStringError("Text block must start with a new line");
  const lines = s.split("\n");
  const last = lines.length - 1;
  let padding = Number.MAX_SAFE_INTEGER;
  for (let i = 1; i <= last; i++) {
    const p = leadingSpaces(lines[i]!, i === last);
    if (p > -1 && p < padding) padding = p;
  }
  let out = "";
  for (let i = 1; i <= last; i++) {
    const line = lines[i]!;
    if (line.length > 0) {
      const start = Math.min(padding, line.length);
      let end = line.length - 1;
      // Like upstream, the first character of a line is never trimmed.
      while (end > 0 && line.charCodeAt(end) === 0x20) end--;
      if (end >= start) out += line.slice(start, end + 1);
    }
    if (i < last) out += "\n";
  }
  return out;
}

/** Leading spaces of a line; -1 for an all-space line unless it is the closing line. */
function leadingSpaces(line: string, isLast: boolean): number {
  for (let i = 0; i < line.length; i++) {
    if (line.charCodeAt(i) !== 0x20) return i;
  }
  return isLast ? line.length : -1;
}
