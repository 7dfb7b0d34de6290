/**
 * A string that matches a `@pattern`: a small generator for the regular
 * expressions models use (literals, escapes, classes, groups, alternation
 * and quantifiers). It writes the shortest match, repeating unbounded
 * quantifiers `extra` more times when a longer string is needed. The result
 * is checked by the caller; an expression it cannot follow gives `undefined`.
 */
import { compilePattern, ecmaPatternSource, type PatternTest } from "@anvil/core/protocol";

const CLASS_ESCAPES: Readonly<Record<string, string>> = { d: "0", w: "a", s: " ", D: "a", W: "-", S: "a" };
const CONTROL_ESCAPES: Readonly<Record<string, string>> = { n: "\n", r: "\r", t: "\t", f: "\f", v: "\v", "0": "\0" };

/** Candidate characters tried for a negated class, in order. */
const CANDIDATES = "aA0-_ .zZ9";

class Parser {
  private i = 0;
  constructor(
    private readonly src: string,
    private readonly extra: number,
  ) {}

  /** Parses alternatives up to `)` or the end and returns the first alternative's string. */
  alternatives(): string {
    const first = this.sequence();
    while (this.src[this.i] === "|") {
      this.i++;
      this.sequence();
    }
    return first;
  }

  private sequence(): string {
    let out = "";
    while (this.i < this.src.length && this.src[this.i] !== "|" && this.src[this.i] !== ")") {
      const atom = this.atom();
      const [min, max] = this.quantifier();
      const count = max === Infinity ? min + this.extra : min;
      out += atom.repeat(count);
    }
    return out;
  }

  private atom(): string {
    const c = this.src[this.i++]!;
    switch (c) {
      case "^":
      case "$":
        return "";
      case ".":
        return "a";
      case "(": {
        if (this.src[this.i] === "?") {
          // (?:...), (?=...), (?!...), (?<name>...)
          const kind = this.src[this.i + 1];
          if (kind === "=" || kind === "!") throw new Error("lookahead");
          this.i += kind === "<" && this.src[this.i + 2] !== "=" && this.src[this.i + 2] !== "!" ? this.src.indexOf(">", this.i) - this.i + 1 : 2;
        }
        const inner = this.alternatives();
        if (this.src[this.i++] !== ")") throw new Error("unbalanced group");
        return inner;
      }
      case "[":
        return this.charClass();
      case "\\":
        return this.escape(false);
      default:
        return c;
    }
  }

  private escape(inClass: boolean): string {
    const c = this.src[this.i++];
    if (c === undefined) throw new Error("dangling escape");
    if (c in CLASS_ESCAPES) return CLASS_ESCAPES[c]!;
    if (c in CONTROL_ESCAPES) return CONTROL_ESCAPES[c]!;
    // `\u{2D}`: a code point, as the rewrite of Java-syntax patterns writes escaped punctuation.
    const braced = c === "u" ? /^\{([0-9a-fA-F]{1,6})\}/.exec(this.src.slice(this.i)) : null;
    if (braced !== null) {
      this.i += braced[0].length;
      return String.fromCodePoint(Number.parseInt(braced[1]!, 16));
    }
    if (c === "u" && /^[0-9a-fA-F]{4}/.test(this.src.slice(this.i))) {
      this.i += 4;
      return String.fromCharCode(Number.parseInt(this.src.slice(this.i - 4, this.i), 16));
    }
    if (c === "x" && /^[0-9a-fA-F]{2}/.test(this.src.slice(this.i))) {
      this.i += 2;
      return String.fromCharCode(Number.parseInt(this.src.slice(this.i - 2, this.i), 16));
    }
    if (!inClass && (c === "b" || c === "B")) return "";
    if (/[1-9pPk]/.test(c)) throw new Error("unsupported escape");
    return c;
  }

  private charClass(): string {
    const negated = this.src[this.i] === "^";
    if (negated) this.i++;
    const ranges: [string, string][] = [];
    let first = true;
    while (this.i < this.src.length && (this.src[this.i] !== "]" || first)) {
      first = false;
      let lo = this.src[this.i++]!;
      if (lo === "\\") lo = this.escape(true);
      let hi = lo;
      if (this.src[this.i] === "-" && this.src[this.i + 1] !== "]" && this.i + 1 < this.src.length) {
        this.i++;
        hi = this.src[this.i++]!;
        if (hi === "\\") hi = this.escape(true);
      }
      ranges.push([lo, hi]);
    }
    if (this.src[this.i++] !== "]") throw new Error("unterminated class");
    if (!negated) return ranges[0]?.[0] ?? "";
    const inClass = (ch: string) => ranges.some(([lo, hi]) => ch >= lo && ch <= hi);
    for (const ch of CANDIDATES) if (!inClass(ch)) return ch;
    throw new Error("no candidate for a negated class");
  }

  private quantifier(): [number, number] {
    const c = this.src[this.i];
    let q: [number, number] = [1, 1];
    if (c === "*") q = [0, Infinity];
    else if (c === "+") q = [1, Infinity];
    else if (c === "?") q = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return q;
      this.i += m[0].length - 1;
      const min = Number(m[1]);
      q = [min, m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity];
    } else return q;
    this.i++;
    if (this.src[this.i] === "?" || this.src[this.i] === "+") this.i++; // lazy / possessive
    return q;
  }
}

/**
 * A string matching `pattern` of at least `minLength` code points when the
 * pattern allows it, or `undefined` when the generator cannot follow the
 * expression.
 *
 * @param pattern - The `@pattern` value (ECMAScript syntax, unanchored unless it says otherwise).
 * @param minLength - The `@length` minimum to reach, if any.
 */
export function patternString(pattern: string, minLength = 0): string | undefined {
  // Java syntax (`\_`, `\p{Print}`) read as validation reads it.
  const source = ecmaPatternSource(pattern);
  if (source === undefined) return undefined;
  const re = new RegExp(source, "u");
  let best: string | undefined;
  for (const extra of [0, 1, 2, 4, 8, 16, 32, 64]) {
    let s: string;
    try {
      s = new Parser(source, extra).alternatives();
    } catch {
      return undefined;
    }
    if (!re.test(s)) continue;
    best = s;
    if ([...s].length >= minLength) return s;
  }
  return best;
}

const tests = new Map<string, PatternTest | undefined>();

/**
 * The test validation runs for a `@pattern` (Java syntax included), made
 * once per pattern; undefined for one that is no regex at all (validation
 * refuses such a model).
 */
export function patternTest(pattern: string): PatternTest | undefined {
  if (!tests.has(pattern)) {
    let test: PatternTest | undefined;
    try {
      test = compilePattern(pattern);
    } catch {
      test = undefined;
    }
    tests.set(pattern, test);
  }
  return tests.get(pattern);
}
