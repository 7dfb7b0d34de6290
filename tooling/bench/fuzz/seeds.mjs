// Edge vectors for the fuzz bench, written for it: JSON texts in the spirit
// of JSONTestSuite's (what parsers disagree on or crash over) and CBOR items
// in the spirit of RFC 8949's appendices (every major type and additional
// value, indefinite lengths, tags, simple values, floats, headers that claim
// more than there is). Decoders see them whole, inside a member of a valid
// structure, and mutated.
import fc from "fast-check";

const utf8 = new TextEncoder();
const bytes = (...xs) => Uint8Array.from(xs.flat());
const latin1 = (text) => Uint8Array.from(text, (ch) => ch.charCodeAt(0) & 0xff);

/** JSON values and near-values, as text: each one is placed where a member's value goes, and on its own. */
export const JSON_TOKENS = [
  // numbers
  "0",
  "-0",
  "-0.0",
  "1.0",
  "1e0",
  "1E+2",
  "1e-2",
  "01",
  "-",
  ".5",
  "1.",
  "1e",
  "1e+",
  "+1",
  "0x10",
  "Infinity",
  "-Infinity",
  "NaN",
  "1e400",
  "-1e400",
  "1e-400",
  "4.9e-324",
  "2.2250738585072014e-308",
  "1.7976931348623157e308",
  "9007199254740993",
  "-9007199254740993",
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775809",
  "18446744073709551616",
  "123456789012345678901234567890123456789",
  "1".repeat(1000),
  `0.${"0".repeat(500)}1`,
  "1e-99999",
  "1e99999",
  "2147483648",
  "-2147483649",
  "128",
  "32768",
  "1.5",
  // literals
  "true",
  "false",
  "null",
  "tru",
  "nul",
  "True",
  "NULL",
  // strings
  '""',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udc00"',
  '"\\ud800\\udc00"',
  '"\\ud83d\\ude00"',
  '"\\x41"',
  '"\\u12"',
  '"\\uZZZZ"',
  '"\\"',
  '"abc',
  '"a\tb"',
  '"a\nb"',
  '"\\/"',
  `"${"a".repeat(70_000)}"`,
  '"1970-01-01T00:00:00Z"',
  '"1985-04-12T23:20:50.52Z"',
  '"1996-12-19T16:39:57-08:00"',
  '"9999-12-31T23:59:59.999999999Z"',
  '"0000-00-00T00:00:00Z"',
  '"2024-02-30T00:00:00Z"',
  '"Tue, 29 Apr 2014 18:30:38 GMT"',
  '"Sun, 31 Dec 9999 23:59:59 GMT"',
  '"AAAA"',
  '"AA=="',
  '"A==="',
  '"!!!!"',
  '"NaN"',
  '"Infinity"',
  '"-Infinity"',
  '"RED"',
  '"green"',
  '"blue-ish"',
  '"__proto__"',
  '"constructor"',
  // containers
  "[]",
  "{}",
  "[1,]",
  "[,1]",
  "[1 2]",
  "[true false]",
  '{"a":1,}',
  '{"a" 1}',
  "{'a':1}",
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"$case":"x","value":1}',
  '{"":1}',
  '{"a":1}}',
  "[[[[[[[[[[]]]]]]]]]]",
  '{"a":{"b":{"c":{"d":{}}}}}',
  "[null,null]",
  "[1e400]",
  '{"x":null}',
];

/** Whole texts that break parsers in other ways: byte-order marks, bad UTF-8, stray bytes, trailing garbage, odd whitespace. */
export const JSON_TEXTS = [
  latin1("\xEF\xBB\xBF{}"),
  latin1('{"a":"\xC0\xAF"}'),
  latin1('{"a":"\xED\xA0\x80"}'),
  latin1('{"a":"\xF4\x90\x80\x80"}'),
  latin1('{"a":"\xFF"}'),
  latin1('{"a":"\xE2\x82"}'),
  latin1("{}\x00"),
  utf8.encode('{"a":1}{"b":2}'),
  utf8.encode("{} x"),
  utf8.encode(" \t\n\r{ \t\n\r} \t\n\r"),
  utf8.encode("\u000b{}"),
  utf8.encode("\f{}"),
  utf8.encode("\u00a0{}"),
  utf8.encode("{\u2028}"),
  utf8.encode("/* c */{}"),
  utf8.encode("{}//"),
  utf8.encode(`${"[".repeat(5000)}${"]".repeat(5000)}`),
  utf8.encode(`${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`),
];

/** CBOR items: every major type's odd corners, each on its own and as a member's value. */
export const CBOR_ITEMS = [
  // unsigned and negative integers, every length, reserved and indefinite additional values
  bytes(0x00),
  bytes(0x17),
  bytes(0x18, 0xff),
  bytes(0x18, 0x00), // not the shortest form
  bytes(0x19, 0xff, 0xff),
  bytes(0x1a, 0xff, 0xff, 0xff, 0xff),
  bytes(0x1b, 0x00, 0x20, 0, 0, 0, 0, 0, 1), // 2^53 + 1
  bytes(0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
  bytes(0x1c),
  bytes(0x1d),
  bytes(0x1e),
  bytes(0x1f),
  bytes(0x20),
  bytes(0x38, 0xff),
  bytes(0x3b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
  bytes(0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), // -2^64
  bytes(0x3f),
  // byte strings
  bytes(0x40),
  bytes(0x44, 1, 2, 3, 4),
  bytes(0x5f, 0x41, 0x00, 0x42, 0x01, 0x02, 0xff),
  bytes(0x5f, 0xff),
  bytes(0x5f, 0x61, 0x61, 0xff), // a text chunk in a byte string
  bytes(0x5f, 0x5f, 0xff, 0xff), // nested indefinite chunks
  bytes(0x5f, 0x41, 0x00), // no break
  bytes(0x5a, 0xff, 0xff, 0xff, 0xff), // 4 GiB claimed
  bytes(0x5b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
  // text strings
  bytes(0x60),
  bytes(0x62, 0xc3, 0xa9),
  bytes(0x62, 0xc3, 0x28), // bad UTF-8
  bytes(0x63, 0xed, 0xa0, 0x80), // a surrogate in UTF-8
  bytes(0x62, 0xc0, 0x80), // overlong NUL
  bytes(0x64, 0xf4, 0x90, 0x80, 0x80), // beyond U+10FFFF
  bytes(0x7f, 0x61, 0x61, 0x61, 0x62, 0xff),
  bytes(0x7f, 0x61, 0xc3, 0x61, 0xa9, 0xff), // a code point split across chunks
  bytes(0x7f, 0x41, 0x00, 0xff), // a byte chunk in a text string
  bytes(0x7b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00),
  bytes(0x69, ...utf8.encode("__proto__")),
  // arrays
  bytes(0x80),
  bytes(0x83, 0x01, 0x02, 0x03),
  bytes(0x83, 0x01), // too few items
  bytes(0x9f, 0xff),
  bytes(0x9f, 0x01, 0x02),
  bytes(0x9f, 0x9f, 0x9f, 0xff, 0xff, 0xff),
  bytes(0x9a, 0xff, 0xff, 0xff, 0xff),
  bytes(0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
  // maps
  bytes(0xa0),
  bytes(0xa1, 0x01, 0x02), // an integer key
  bytes(0xa1, 0x61, 0x61), // a key without a value
  bytes(0xa2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02), // a key twice
  bytes(0xbf, 0xff),
  bytes(0xbf, 0x61, 0x61, 0xff), // a key, then break
  bytes(0xbf, 0x61, 0x61, 0x01),
  bytes(0xa1, 0x69, ...utf8.encode("__proto__"), 0xa1, 0x61, 0x78, 0xf5),
  bytes(0xa1, 0x80, 0x01), // an array as a key
  bytes(0xba, 0xff, 0xff, 0xff, 0xff),
  // tags
  bytes(0xc0, 0x74, ...utf8.encode("2013-03-21T20:04:00Z")),
  bytes(0xc0, 0x01), // a date-time that is not text
  bytes(0xc1, 0x1a, 0x51, 0x4b, 0x67, 0xb0),
  bytes(0xc1, 0xfb, 0x41, 0xd4, 0x52, 0xd9, 0xec, 0x20, 0x00, 0x00),
  bytes(0xc1, 0xf9, 0x7e, 0x00), // epoch NaN
  bytes(0xc1, 0xf9, 0x7c, 0x00), // epoch infinity
  bytes(0xc1, 0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
  bytes(0xc1, 0x61, 0x61),
  bytes(0xc2, 0x49, 0x01, 0, 0, 0, 0, 0, 0, 0, 0), // 2^64
  bytes(0xc2, 0x58, 0x80, ...new Array(128).fill(0xff)),
  bytes(0xc3, 0x49, 0x01, 0, 0, 0, 0, 0, 0, 0, 0),
  bytes(0xc2, 0x01), // a bignum that is not bytes
  bytes(0xc4, 0x82, 0x21, 0x19, 0x6a, 0xb3), // 273.15
  bytes(0xc4, 0x82, 0x1b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), // a huge exponent
  bytes(0xc4, 0x82, 0x3b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
  bytes(0xc4, 0x83, 0x01, 0x02, 0x03),
  bytes(0xc4, 0x81, 0x01),
  bytes(0xc4, 0x82, 0x01, 0xc2, 0x41, 0x01),
  bytes(0xc5, 0x82, 0x20, 0x03),
  bytes(0xd9, 0xd9, 0xf7, 0xa0), // self-described CBOR
  bytes(0xc6, 0xc6, 0xc6, 0xc6, 0x01),
  bytes(0xdb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
  bytes(0xd8, 0x20, 0x60),
  // simple values and floats
  bytes(0xf4),
  bytes(0xf5),
  bytes(0xf6),
  bytes(0xf7),
  bytes(0xf0),
  bytes(0xf8, 0x10),
  bytes(0xf8, 0x18), // a simple value below 32 in two bytes: not well-formed
  bytes(0xf8, 0xff),
  bytes(0xf9, 0x00, 0x00),
  bytes(0xf9, 0x80, 0x00),
  bytes(0xf9, 0x00, 0x01),
  bytes(0xf9, 0x7b, 0xff),
  bytes(0xf9, 0x7c, 0x00),
  bytes(0xf9, 0xfc, 0x00),
  bytes(0xf9, 0x7e, 0x00),
  bytes(0xfa, 0x7f, 0x80, 0x00, 0x00),
  bytes(0xfa, 0x47, 0xc3, 0x50, 0x00),
  bytes(0xfb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 1),
  bytes(0xfb, 0x3f, 0xf1, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a),
  bytes(0xfb, 0x43, 0x40, 0, 0, 0, 0, 0, 0), // 2^53 as a double
  bytes(0xfc),
  bytes(0xfd),
  bytes(0xfe),
  bytes(0xff), // a break where an item belongs
  bytes(0xf9, 0x00), // cut short
  bytes(0xfb, 0x00, 0x00),
];

/** Texts CBOR readers should take as keys, and a few odd ones. */
const cborText = (text) => {
  const b = utf8.encode(text);
  return b.length < 24 ? bytes(0x60 + b.length, ...b) : b.length < 256 ? bytes(0x78, b.length, ...b) : bytes(0x79, b.length >> 8, b.length & 0xff, ...b);
};

/** The member names (and JSON names) of every structure among `schemas`, the targets of the member-placed vectors. */
function memberNames(schemas) {
  const names = new Set();
  for (const s of schemas) {
    if (s.kind !== "structure" && s.kind !== "union") continue;
    for (const m of s.members) {
      names.add(m.name);
      if (typeof m.traits.jsonName === "string") names.add(m.traits.jsonName);
    }
  }
  return [...names];
}

/** JSON edge inputs for readers of `schemas`: every token alone and as each member's value, and the odd whole texts. */
export function jsonEdges(schemas) {
  const out = [...JSON_TEXTS, ...JSON_TOKENS.map((t) => utf8.encode(t))];
  for (const name of memberNames(schemas)) for (const t of JSON_TOKENS) out.push(utf8.encode(`{${JSON.stringify(name)}:${t}}`));
  return out;
}

/** CBOR edge inputs for readers of `schemas`: every item alone and as each member's value in a one-entry map. */
export function cborEdges(schemas) {
  const out = [...CBOR_ITEMS];
  for (const name of memberNames(schemas)) for (const item of CBOR_ITEMS) out.push(bytes(0xa1, ...cborText(name), ...item));
  return out;
}

/**
 * Valid JSON encodings with one edge token spliced in at a random place:
 * deeper than byte mutations reach, since most of the text stays valid.
 */
export function jsonSpliced(valid) {
  const texts = valid.map((b) => new TextDecoder().decode(b));
  return fc.tuple(fc.constantFrom(...texts), fc.constantFrom(...JSON_TOKENS), fc.nat()).map(([text, token, at]) => {
    // After a colon (a member's value) when there is one, else anywhere.
    const colons = [...text.matchAll(/:/g)].map((m) => m.index + 1);
    const i = colons.length > 0 ? colons[at % colons.length] : at % (text.length + 1);
    // Replace the value that followed: up to the next , or } at the same depth, roughly.
    const rest = text.slice(i);
    const end = /^\s*("(?:[^"\\]|\\.)*"|[^,}\]]*)/.exec(rest)[0].length;
    return utf8.encode(text.slice(0, i) + token + rest.slice(end));
  });
}
