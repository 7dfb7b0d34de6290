/**
 * Java regular-expression syntax in `@pattern`s, read as ECMAScript. Smithy
 * says patterns are ECMAScript regexes, but many models (AWS's among them)
 * were written against Java's engine: `^\A\S[\p{Print}]*\z$`. Without the `u`
 * flag ECMAScript reads `\A` as "A" and `[\p{Print}]` as a set of letters,
 * so valid values would be refused; this rewrites the Java-only constructs
 * into their ECMAScript equivalents instead.
 *
 * @internal
 */

/** Java's POSIX and `java.lang.Character` classes, as the contents of an ECMAScript character class (ASCII, as Java defines them without UNICODE_CHARACTER_CLASS). */
const POSIX: Readonly<Record<string, string>> = {
  Lower: "a-z",
  Upper: "A-Z",
  ASCII: "\\x00-\\x7F",
  Alpha: "A-Za-z",
  Digit: "0-9",
  Alnum: "A-Za-z0-9",
  Punct: "!-\\/:-@\\[-`{-~",
  Graph: "!-~",
  Print: " -~",
  Blank: " \\t",
  Cntrl: "\\x00-\\x1F\\x7F",
  XDigit: "0-9A-Fa-f",
  Space: " \\t\\n\\x0B\\f\\r",
  javaLowerCase: "\\p{Lowercase}",
  javaUpperCase: "\\p{Uppercase}",
  javaWhitespace: "\\t-\\r\\x1C-\\x1F\\p{White_Space}",
};

/** Java's `\h` (horizontal whitespace) as class contents. */
const HORIZONTAL_SPACE = "\\t \\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000";

/** Characters a `u`-flag regex lets be escaped as themselves. */
const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);

/** The code point as an escape a `u`-flag regex accepts anywhere. */
function codePointEscape(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase()}}`;
}

/**
 * A Java pattern rewritten for ECMAScript's `u` mode: `\A`, `\z`, `\Z`,
 * POSIX classes (`\p{Print}`, `\p{Alnum}`, ... and `\P{...}` outside a
 * class), `\p{IsX}` properties, `\h`, `\Q...\E` quoting, escaped
 * punctuation (`\-`, `\#`, ...), possessive quantifiers and atomic groups
 * (which only ever narrow what matches, so reading them as the greedy forms
 * keeps every valid value valid), and a leading `(?i)`. Undefined when the
 * pattern uses Java syntax this does not rewrite.
 */
export function javaPatternAsEcma(pattern: string): { readonly source: string; readonly flags: string } | undefined {
  let flags = "u";
  let src = pattern;
  const inline = /^\(\?([imsx]+)\)/.exec(src);
  if (inline) {
    if (/[mx]/.test(inline[1]!)) return undefined; // Java's multiline and comments modes differ from ECMAScript's
    flags += inline[1]!;
    src = src.slice(inline[0].length);
  }
  let out = "";
  let inClass = false;
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "[" && !inClass) {
      inClass = true;
      out += c;
      i++;
      if (src[i] === "^") out += src[i++];
      if (src[i] === "]") {
        out += "\\]"; // a `]` first in a Java class is a literal
        i++;
      }
      continue;
    }
    if (c === "]" && inClass) {
      inClass = false;
      out += c;
      i++;
      continue;
    }
    if (c === "[" && inClass) return undefined; // Java's nested classes and intersections
    if (!inClass && (c === "*" || c === "+" || c === "?" || c === "}") && src[i + 1] === "+") {
      out += c; // possessive: read as greedy
      i += 2;
      continue;
    }
    if (!inClass && src.startsWith("(?>", i)) {
      out += "(?:"; // atomic group: read as a plain group
      i += 3;
      continue;
    }
    if (c !== "\\") {
      out += c;
      i++;
      continue;
    }
    const e = src[i + 1];
    if (e === undefined) return undefined;
    if (e === "Q") {
      const end = src.indexOf("\\E", i + 2);
      const quoted = src.slice(i + 2, end < 0 ? src.length : end);
      for (const ch of quoted) out += /[A-Za-z0-9_ ]/.test(ch) ? ch : codePointEscape(ch.codePointAt(0)!);
      i = end < 0 ? src.length : end + 2;
      continue;
    }
    if ((e === "p" || e === "P") && src[i + 2] === "{") {
      const close = src.indexOf("}", i + 3);
      if (close < 0) return undefined;
      const name = src.slice(i + 3, close);
      i = close + 1;
      const posix = POSIX[name];
      if (posix !== undefined) {
        if (e === "P") {
          if (inClass) return undefined; // a negated class inside a class needs the `v` flag
          out += `[^${posix}]`;
        } else out += inClass ? posix : `[${posix}]`;
        continue;
      }
      const property = name.startsWith("Is") ? name.slice(2) : name.startsWith("In") ? `Script=${name.slice(2)}` : name;
      out += `\\${e}{${property}}`;
      continue;
    }
    i += 2;
    if (e === "A") {
      if (inClass) return undefined;
      out += "^";
    } else if (e === "z") {
      if (inClass) return undefined;
      out += "$";
    } else if (e === "Z") {
      if (inClass) return undefined;
      out += "(?:\\r?\\n)?$";
    } else if (e === "h") out += inClass ? HORIZONTAL_SPACE : `[${HORIZONTAL_SPACE}]`;
    else if (/[A-Za-z0-9]/.test(e) || SYNTAX.has(e)) out += `\\${e}`;
    else out += codePointEscape(src.codePointAt(i - 1)!); // `\-`, `\#`, `\ `: the character itself
  }
  if (inClass) return undefined;
  try {
    new RegExp(out, flags);
  } catch {
    return undefined;
  }
  return { source: out, flags };
}
