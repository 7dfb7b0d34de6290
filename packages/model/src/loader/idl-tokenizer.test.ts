import { describe, expect, it } from "vitest";
import { decodeIdlString, IdlStringError } from "./idl-string.js";
import { IdlTokenizer, Tok, TOKEN_NAMES, type TokenType } from "./idl-tokenizer.js";

/** Tokenizes everything, returning `NAME:lexeme` strings (ERROR tokens carry their message). */
function tokens(text: string): string[] {
  const t = new IdlTokenizer(text);
  const out: string[] = [];
  let guard = 0;
  while (t.type !== Tok.EOF) {
    out.push(t.type === Tok.ERROR ? `ERROR:${t.error}` : `${TOKEN_NAMES[t.type]}:${t.lexeme()}`);
    t.next();
    if (++guard > 10_000) throw new Error("tokenizer did not advance");
  }
  return out;
}

function first(text: string): IdlTokenizer {
  return new IdlTokenizer(text);
}

describe("IdlTokenizer", () => {
  it.each<[string, string, string[]]>([
    [
      "punctuation",
      "@$.{}[]()#=,",
      ["AT:@", "DOLLAR:$", "DOT:.", "LBRACE:{", "RBRACE:}", "LBRACKET:[", "RBRACKET:]", "LPAREN:(", "RPAREN:)", "POUND:#", "EQUAL:=", "COMMA:,"],
    ],
    ["colon and walrus", ": :=", ["COLON::", "SPACE: ", "WALRUS::="]],
    ["spaces and tabs merge", " \t x", ["SPACE: \t ", "IDENTIFIER:x"]],
    ["CRLF is one newline", "a\r\nb", ["IDENTIFIER:a", "NEWLINE:\r\n", "IDENTIFIER:b"]],
    ["comment includes its newline", "// hi\nx", ["COMMENT:// hi\n", "IDENTIFIER:x"]],
    ["doc comment", "/// doc\n", ["DOC_COMMENT:/// doc\n"]],
    ["identifiers with underscores and digits", "_a1 __b foo_bar", ["IDENTIFIER:_a1", "SPACE: ", "IDENTIFIER:__b", "SPACE: ", "IDENTIFIER:foo_bar"]],
    ["numbers", "0 -1 1.5 1e10 2E-3", ["NUMBER:0", "SPACE: ", "NUMBER:-1", "SPACE: ", "NUMBER:1.5", "SPACE: ", "NUMBER:1e10", "SPACE: ", "NUMBER:2E-3"]],
    ["lone slash", "/x", ["ERROR:Expected a '/' to follow '/' to form a comment.", "IDENTIFIER:x"]],
    ["unexpected character", "!", ["ERROR:Unexpected character: '!'"]],
    ["bad number", "1.", ["ERROR:Invalid number '1.': '.' must be followed by a digit"]],
    ["bad exponent", "1e+", ["ERROR:Invalid number '1e+': 'e', '+', and '-' must be followed by a digit"]],
    ["bare minus", "-", ["ERROR:Invalid number '-': '-' must be followed by a digit"]],
    ["underscore-only identifier", "_ ", ["ERROR:Syntax error at line 1, column 2: Expected a valid identifier character, but found ' '", "SPACE: "]],
  ])("%s", (_name, text, expected) => {
    expect(tokens(text)).toEqual(expected);
  });

  it("tracks 1-based lines and columns across strings, comments and CRLF", () => {
    const t = first('a\r\n  "x\ny" // c\r\n\tb');
    const seen: [TokenType, number, number][] = [];
    while (t.type !== Tok.EOF) {
      seen.push([t.type, t.line, t.column]);
      t.next();
    }
    expect(seen).toEqual([
      [Tok.IDENTIFIER, 1, 1],
      [Tok.NEWLINE, 1, 2],
      [Tok.SPACE, 2, 1],
      [Tok.STRING, 2, 3],
      [Tok.SPACE, 3, 3],
      [Tok.COMMENT, 3, 4],
      [Tok.SPACE, 4, 1],
      [Tok.IDENTIFIER, 4, 2],
    ]);
  });

  it("decodes strings and keeps raw lexemes", () => {
    const t = first('"a\\tb\\u00e9\\ud83d\\ude00"');
    expect(t.type).toBe(Tok.STRING);
    expect(t.stringValue).toBe("a\tbé😀");
    expect(t.lexeme()).toBe('"a\\tb\\u00e9\\ud83d\\ude00"');
  });

  it("reports an unclosed string at EOF like upstream", () => {
    const t = first('"abc\n');
    expect(t.type).toBe(Tok.ERROR);
    expect(t.error).toBe("Error parsing quoted string: Syntax error at line 2, column 1: Expected: '\"', but found '[EOF]'");
  });

  it("skips a byte order mark", () => {
    const t = first("\ufefffoo");
    expect([t.type, t.lexeme(), t.column]).toEqual([Tok.IDENTIFIER, "foo", 1]);
  });
});

describe("decodeIdlString", () => {
  it.each<[string, string, boolean, string]>([
    ["plain text is returned as is", "abc", false, "abc"],
    ["simple escapes", '\\"\\\\\\/\\b\\f\\n\\r\\t', false, '"\\/\b\f\n\r\t'],
    ["escaped newline continues the line", "a\\\nb", false, "ab"],
    ["CRLF normalizes to LF", "a\r\nb\rc", false, "a\nb\nc"],
    ["surrogate pair escapes", "\\uD83D\\uDE00", false, "😀"],
    ["text block strips incidental whitespace", "\n    a\n      b\n    ", true, "a\n  b\n"],
    ["text block closing line sets the margin", "\n    a\n  ", true, "  a\n"],
    ["text block trims trailing spaces", "\n  a   \n  b", true, "a\nb"],
    ["text block keeps blank lines", "\n  a\n\n  b", true, "a\n\nb"],
    ["text block allows quotes", '\n  say "hi"\n  ', true, 'say "hi"\n'],
    ["escapes are processed after formatting", "\n  a\\n  b", true, "a\n  b"],
  ])("%s", (_name, raw, block, expected) => {
    expect(decodeIdlString(raw, block)).toBe(expected);
  });

  it.each<[string, boolean, string]>([
    ["\\'", false, "Invalid escape found in string: `\\'`"],
    ["\\u12", false, "Invalid unclosed unicode escape found in string"],
    ["\\u12tz", false, "Invalid unicode escape character: `t`"],
    ["", true, "Text block is empty"],
    ["abc", true, "Text block must start with a new line"],
    ["a\u0001", false, "Invalid string character: `\u0001`"],
  ])("rejects %j", (raw, block, message) => {
    expect(() => decodeIdlString(raw, block)).toThrow(IdlStringError);
    expect(() => decodeIdlString(raw, block)).toThrow(message);
  });
});
