/**
 * The Smithy IDL tokenizer. It produces one token at a time (no token array)
 * and keeps the current token in plain fields, so tokenizing allocates
 * nothing but the strings a caller asks for.
 *
 * Whitespace, commas, newlines and comments are tokens too: the IDL grammar
 * is whitespace-sensitive (statements end at line breaks, `string Foo` needs
 * a space), so the parser decides where they may be skipped.
 *
 * @internal
 */
import { numberFromText } from "../node-value.js";
import { decodeIdlString, IdlStringError } from "./idl-string.js";

/** Token kinds. Numeric so that comparisons are cheap; see {@link TOKEN_NAMES}. */
export const Tok = {
  SPACE: 0,
  NEWLINE: 1,
  COMMA: 2,
  COMMENT: 3,
  DOC_COMMENT: 4,
  AT: 5,
  STRING: 6,
  TEXT_BLOCK: 7,
  COLON: 8,
  WALRUS: 9,
  IDENTIFIER: 10,
  DOT: 11,
  POUND: 12,
  DOLLAR: 13,
  NUMBER: 14,
  LBRACE: 15,
  RBRACE: 16,
  LBRACKET: 17,
  RBRACKET: 18,
  LPAREN: 19,
  RPAREN: 20,
  EQUAL: 21,
  EOF: 22,
  ERROR: 23,
} as const;

/** A token kind. */
export type TokenType = (typeof Tok)[keyof typeof Tok];

/** Token names as upstream Smithy prints them in error messages. */
export const TOKEN_NAMES: readonly string[] = [
  "SPACE",
  "NEWLINE",
  "COMMA",
  "COMMENT",
  "DOC_COMMENT",
  "AT",
  "STRING",
  "TEXT_BLOCK",
  "COLON",
  "WALRUS",
  "IDENTIFIER",
  "DOT",
  "POUND",
  "DOLLAR",
  "NUMBER",
  "LBRACE",
  "RBRACE",
  "LBRACKET",
  "RBRACKET",
  "LPAREN",
  "RPAREN",
  "EQUAL",
  "EOF",
  "ERROR",
];

/** The example lexeme of each kind, used for "Expected X" messages (e.g. `LBRACE('{')`). */
const EXAMPLE_LEXEMES: readonly string[] = [
  " ",
  "\\n",
  ",",
  "//",
  "///",
  "@",
  '"',
  '"""',
  ":",
  ":=",
  "",
  ".",
  "#",
  "$",
  "",
  "{",
  "}",
  "[",
  "]",
  "(",
  ")",
  "=",
  "",
  "",
];

/** Whitespace tokens: may be skipped between most grammar elements. DOC_COMMENT is not one. */
export function isWhitespaceToken(t: TokenType): boolean {
  return t <= Tok.COMMENT;
}

/** `KIND('lexeme')`, or `KIND` alone when the lexeme is empty (EOF, NUMBER and IDENTIFIER examples). */
export function tokenDebug(t: TokenType, lexeme?: string): string {
  const lx = lexeme ?? EXAMPLE_LEXEMES[t]!;
  return lx.length > 0 ? `${TOKEN_NAMES[t]}('${lx}')` : TOKEN_NAMES[t]!;
}

/** Formats a character for an "Unexpected character" message; control characters are escaped. */
function describeChar(cp: number): string {
  if (cp < 0x20 || cp === 0x7f) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return String.fromCodePoint(cp);
}

/**
 * Escapes control characters other than tab and line breaks, which upstream
 * prints raw (conformance messages contain them), so that binary input never
 * puts raw NULs and the like into messages.
 */
function escapeControls(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the control characters it escapes
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s)
    ? // biome-ignore lint/suspicious/noControlCharactersInRegex: the same characters
      s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) => describeChar(c.charCodeAt(0)))
    : s;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isIdentChar(c: number): boolean {
  return isAlpha(c) || isDigit(c) || c === 0x5f;
}

/**
 * Tokenizes IDL text. Call {@link next} to advance; the current token is
 * described by `type`, `start`, `end`, `line`, `column` and, depending on the
 * kind, `stringValue`, `numberValue` or `error`.
 *
 * Every call to `next` consumes at least one character unless at EOF, so a
 * caller that advances on every iteration always terminates.
 */
export class IdlTokenizer {
  readonly text: string;
  private readonly length: number;
  /** Scan position and the start of its line, for 1-based line/column tracking. */
  private pos = 0;
  private curLine = 1;
  private lineStart = 0;

  type: TokenType = Tok.EOF;
  start = 0;
  end = 0;
  line = 1;
  column = 1;
  /** Decoded contents of a STRING or TEXT_BLOCK token. */
  stringValue = "";
  /** Value of a NUMBER token. */
  numberValue: number | bigint = 0;
  /** Message of an ERROR token. */
  error = "";

  constructor(text: string) {
    this.text = text;
    this.length = text.length;
    // A byte order mark is not part of the model; skip it but keep columns honest.
    if (text.charCodeAt(0) === 0xfeff) {
      this.pos = 1;
      this.lineStart = 1;
    }
    this.next();
  }

  /** The raw source text of the current token. */
  lexeme(): string {
    return this.text.slice(this.start, this.end);
  }

  /** Whether the current token's lexeme is exactly `s` (no allocation). */
  isLexeme(s: string): boolean {
    return this.end - this.start === s.length && this.text.startsWith(s, this.start);
  }

  /** Debug form of the current token, e.g. `IDENTIFIER('foo')`. */
  debug(): string {
    return tokenDebug(this.type, escapeControls(this.lexeme()));
  }

  /** Advances to the next token and returns its kind. */
  next(): TokenType {
    const text = this.text;
    const start = this.pos;
    this.start = start;
    this.line = this.curLine;
    this.column = start - this.lineStart + 1;
    if (start >= this.length) {
      this.end = start;
      return (this.type = Tok.EOF);
    }
    const c = text.charCodeAt(start);
    switch (c) {
      case 0x20: // space
      case 0x09: {
        // tab
        let i = start + 1;
        while (i < this.length) {
          const d = text.charCodeAt(i);
          if (d !== 0x20 && d !== 0x09) break;
          i++;
        }
        return this.finish(Tok.SPACE, i);
      }
      case 0x0a:
        this.newlineAt(start + 1);
        return this.finish(Tok.NEWLINE, start + 1);
      case 0x0d: {
        const e = text.charCodeAt(start + 1) === 0x0a ? start + 2 : start + 1;
        this.newlineAt(e);
        return this.finish(Tok.NEWLINE, e);
      }
      case 0x2c:
        return this.finish(Tok.COMMA, start + 1);
      case 0x40:
        return this.finish(Tok.AT, start + 1);
      case 0x24:
        return this.finish(Tok.DOLLAR, start + 1);
      case 0x2e:
        return this.finish(Tok.DOT, start + 1);
      case 0x7b:
        return this.finish(Tok.LBRACE, start + 1);
      case 0x7d:
        return this.finish(Tok.RBRACE, start + 1);
      case 0x5b:
        return this.finish(Tok.LBRACKET, start + 1);
      case 0x5d:
        return this.finish(Tok.RBRACKET, start + 1);
      case 0x28:
        return this.finish(Tok.LPAREN, start + 1);
      case 0x29:
        return this.finish(Tok.RPAREN, start + 1);
      case 0x23:
        return this.finish(Tok.POUND, start + 1);
      case 0x3d:
        return this.finish(Tok.EQUAL, start + 1);
      case 0x3a:
        return text.charCodeAt(start + 1) === 0x3d ? this.finish(Tok.WALRUS, start + 2) : this.finish(Tok.COLON, start + 1);
      case 0x22:
        return this.scanString(start);
      case 0x2f:
        return this.scanComment(start);
      default:
        if (c === 0x2d || isDigit(c)) return this.scanNumber(start);
        if (isAlpha(c) || c === 0x5f) return this.scanIdentifier(start);
        {
          const cp = text.codePointAt(start)!;
          this.error = `Unexpected character: '${describeChar(cp)}'`;
          return this.finish(Tok.ERROR, start + (cp > 0xffff ? 2 : 1));
        }
    }
  }

  private finish(type: TokenType, end: number): TokenType {
    this.end = end;
    this.pos = end;
    return (this.type = type);
  }

  /** Records a line break ending just before `nextLineStart`. */
  private newlineAt(nextLineStart: number): void {
    this.curLine++;
    this.lineStart = nextLineStart;
  }

  /** Formats a position inside the current token the way upstream's nested syntax errors do. */
  private syntaxAt(pos: number, message: string): string {
    return `Syntax error at line ${this.curLine}, column ${pos - this.lineStart + 1}: ${message}`;
  }

  private scanComment(start: number): TokenType {
    const text = this.text;
    if (text.charCodeAt(start + 1) !== 0x2f) {
      this.error = "Expected a '/' to follow '/' to form a comment.";
      return this.finish(Tok.ERROR, start + 1);
    }
    const type = text.charCodeAt(start + 2) === 0x2f ? Tok.DOC_COMMENT : Tok.COMMENT;
    let i = start + 2;
    while (i < this.length) {
      const d = text.charCodeAt(i);
      if (d === 0x0a || d === 0x0d) break;
      i++;
    }
    // The line break belongs to the comment: a comment ends a statement like a newline.
    if (i < this.length) {
      i += text.charCodeAt(i) === 0x0d && text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      this.newlineAt(i);
    }
    return this.finish(type, i);
  }

  private scanIdentifier(start: number): TokenType {
    const text = this.text;
    let i = start;
    if (text.charCodeAt(i) === 0x5f) {
      while (text.charCodeAt(i) === 0x5f) i++;
      if (!isIdentChar(text.charCodeAt(i))) {
        const found = i < this.length ? describeChar(text.codePointAt(i)!) : "[EOF]";
        this.error = this.syntaxAt(i, `Expected a valid identifier character, but found '${found}'`);
        return this.finish(Tok.ERROR, i);
      }
    }
    i++;
    while (i < this.length && isIdentChar(text.charCodeAt(i))) i++;
    return this.finish(Tok.IDENTIFIER, i);
  }

  private scanNumber(start: number): TokenType {
    const text = this.text;
    let i = start;
    const invalid = (why: string): TokenType => {
      this.error = `Invalid number '${text.slice(start, i)}': ${why}`;
      return this.finish(Tok.ERROR, i);
    };
    if (text.charCodeAt(i) === 0x2d) {
      i++;
      if (!isDigit(text.charCodeAt(i))) return invalid("'-' must be followed by a digit");
    }
    while (isDigit(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) === 0x2e) {
      i++;
      const digits = i;
      while (isDigit(text.charCodeAt(i))) i++;
      if (i === digits) return invalid("'.' must be followed by a digit");
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const s = text.charCodeAt(i);
      if (s === 0x2b || s === 0x2d) i++;
      const digits = i;
      while (isDigit(text.charCodeAt(i))) i++;
      if (i === digits) return invalid("'e', '+', and '-' must be followed by a digit");
    }
    const lexeme = text.slice(start, i);
    this.numberValue = numberFromText(lexeme);
    return this.finish(Tok.NUMBER, i);
  }

  private scanString(start: number): TokenType {
    const text = this.text;
    if (text.charCodeAt(start + 1) === 0x22) {
      if (text.charCodeAt(start + 2) === 0x22) return this.scanTextBlock(start);
      this.stringValue = "";
      return this.finish(Tok.STRING, start + 2);
    }
    const contentStart = start + 1;
    const close = this.scanToClosingQuote(contentStart, false);
    if (close < 0) {
      this.error = `Error parsing quoted string: ${this.syntaxAt(this.length, "Expected: '\"', but found '[EOF]'")}`;
      return this.finish(Tok.ERROR, this.length);
    }
    try {
      this.stringValue = decodeIdlString(text.slice(contentStart, close), false);
    } catch (e) {
      if (!(e instanceof IdlStringError)) throw e;
      this.error = `Error parsing quoted string: ${e.message}`;
      return this.finish(Tok.ERROR, close + 1);
    }
    return this.finish(Tok.STRING, close + 1);
  }

  private scanTextBlock(start: number): TokenType {
    const contentStart = start + 3;
    const close = this.scanToClosingQuote(contentStart, true);
    if (close < 0) {
      this.error = `Error parsing text block: ${this.syntaxAt(this.length, "Expected: '\"', but found '[EOF]'")}`;
      return this.finish(Tok.ERROR, this.length);
    }
    try {
      this.stringValue = decodeIdlString(this.text.slice(contentStart, close), true);
    } catch (e) {
      if (!(e instanceof IdlStringError)) throw e;
      this.error = `Error parsing text block: ${e.message}`;
      return this.finish(Tok.ERROR, close + 3);
    }
    return this.finish(Tok.TEXT_BLOCK, close + 3);
  }

  /**
   * Finds the closing `"` (or `"""`) from `i`, skipping escaped characters and
   * tracking line breaks. Returns its index, or -1 at EOF (with the line
   * tracking left at the end of the input, where upstream reports the error).
   */
  private scanToClosingQuote(i: number, triple: boolean): number {
    const text = this.text;
    const n = this.length;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        if (!triple || (text.charCodeAt(i + 1) === 0x22 && text.charCodeAt(i + 2) === 0x22)) return i;
        i++;
      } else if (c === 0x5c) {
        // The escaped character may itself be a line break.
        i++;
        if (i < n) i = this.stepOver(i);
      } else {
        i = this.stepOver(i);
      }
    }
    return -1;
  }

  /** Steps over the character at `i`, recording a line break when it is one. */
  private stepOver(i: number): number {
    const c = this.text.charCodeAt(i);
    if (c === 0x0a) {
      this.newlineAt(i + 1);
      return i + 1;
    }
    if (c === 0x0d) {
      const e = this.text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
      this.newlineAt(e);
      return e;
    }
    return i + 1;
  }
}
