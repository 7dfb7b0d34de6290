/**
 * Untrusted bytes for readers: random bytes, random text in JSON's alphabet
 * or CBOR-ish bytes, valid encodings mutated in small ways, and the classic
 * hostile inputs. The contract suite reads them in a worker; the nightly
 * fuzz bench (`tooling/bench`, `bench fuzz`) runs the same arbitraries, far
 * longer, against every decoder.
 */
import fc from "fast-check";

/** The characters JSON text is made of, and a few beyond ASCII. */
export const JSON_CHARS = '{}[]":,0123456789-+.eEtrufalsn \\u/bfnrt\u00e9\u{1F600}';

/** A change to some bytes. */
export type Mutation = (bytes: Uint8Array) => Uint8Array;

/** Valid encodings (`valid`) changed by one to four {@link mutation}s. */
export function mutated(valid: readonly Uint8Array[], json: boolean): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(fc.constantFrom(...(valid.length ? valid : [new Uint8Array()])), fc.array(mutation(json), { minLength: 1, maxLength: 4 }))
    .map(([bytes, muts]) => muts.reduce((b, m) => m(b), bytes));
}

/** Random bytes, random text in the codec's alphabet (JSON's, or CBOR-ish bytes), and valid encodings mutated in small ways (most often). */
export function fuzzBytes(valid: readonly Uint8Array[], json: boolean): fc.Arbitrary<Uint8Array> {
  const random = fc.uint8Array({ maxLength: 64 });
  const text = fc.string({ unit: fc.constantFrom(...JSON_CHARS), maxLength: 64 }).map((t) => new TextEncoder().encode(t));
  const cborish = fc
    .array(
      fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x1b, 0x3b, 0x5f, 0x7f, 0x9f, 0xbf, 0xff, 0xc1, 0xc2, 0xc4, 0xf9, 0xfa, 0xfb, 0xa1, 0x81)),
      { maxLength: 48 },
    )
    .map((a) => Uint8Array.from(a));
  return fc.oneof(random, json ? text : cborish, { arbitrary: mutated(valid, json), weight: 3 });
}

/** `count` inputs of {@link fuzzBytes}. */
export function fuzzInputs(valid: readonly Uint8Array[], count: number, json: boolean): Uint8Array[] {
  return fc.sample(fuzzBytes(valid, json), { numRuns: count });
}

/** Small changes to bytes: a byte set (often to one that matters to the format), a bit flipped, the tail cut, a byte inserted, bytes deleted, a run repeated. */
export function mutation(json: boolean): fc.Arbitrary<Mutation> {
  const special = json
    ? [0x7b, 0x7d, 0x5b, 0x5d, 0x22, 0x2c, 0x3a, 0x5c, 0x2d, 0x30, 0x65, 0x00, 0xff]
    : [0x00, 0x1b, 0x5f, 0x7f, 0x9f, 0xbf, 0xff, 0xf9, 0xfb, 0xc1, 0xe0];
  const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...special));
  const at = fc.nat();
  return fc.oneof(
    fc.tuple(at, byte).map(
      ([i, v]): Mutation =>
        (b) =>
          b.length ? b.map((x, j) => (j === i % b.length ? v : x)) : b,
    ),
    fc.tuple(at, fc.integer({ min: 0, max: 7 })).map(
      ([i, bit]): Mutation =>
        (b) =>
          b.length ? b.map((x, j) => (j === i % b.length ? x ^ (1 << bit) : x)) : b,
    ),
    at.map(
      (i): Mutation =>
        (b) =>
          b.slice(0, b.length ? i % b.length : 0),
    ),
    fc.tuple(at, byte).map(
      ([i, v]): Mutation =>
        (b) =>
          concat(b.slice(0, i % (b.length + 1)), Uint8Array.of(v), b.slice(i % (b.length + 1))),
    ),
    fc.tuple(at, at).map(
      ([i, n]): Mutation =>
        (b) => {
          const start = b.length ? i % b.length : 0;
          return concat(b.slice(0, start), b.slice(start + (n % 8)));
        },
    ),
    fc.tuple(at, at).map(
      ([i, n]): Mutation =>
        (b) => {
          const start = b.length ? i % b.length : 0;
          const chunk = b.slice(start, start + 1 + (n % 16));
          return concat(b.slice(0, start), chunk, chunk, b.slice(start));
        },
    ),
  );
}

/**
 * The classic hostile inputs, JSON's and CBOR's: empty and cut-off text,
 * huge numbers, lone surrogates, nesting `deep` levels deep, arrays and byte
 * strings whose headers claim far more than there is.
 */
export function hostileClassics(deep: number): Uint8Array[] {
  return [
    ...["", "{", "[", "\u0000", "\xff\xff\xff\xff", '{"scalars":', "9".repeat(400), "1e99999", '"\\ud800"'].map(latin1),
    latin1("[".repeat(deep)),
    latin1(`{"doc":${"[".repeat(deep)}`),
    latin1(`{"label":"x","children":[${'{"label":"x","children":['.repeat(Math.ceil(deep / 10))}`),
    new Uint8Array(deep).fill(0x81), // CBOR: arrays of one element, nested
    concat(Uint8Array.of(0xa1, 0x63, 0x64, 0x6f, 0x63), new Uint8Array(deep).fill(0x9f)), // CBOR: {"doc": [_ [_ [_ ...
    Uint8Array.of(0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), // CBOR: an array claiming 2^64-1 items
    Uint8Array.of(0x5b, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00), // CBOR: a 64 GiB byte string header
  ];
}

/** The parts, one after the other. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Text as bytes, one per character (its low 8 bits). */
export function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0) & 0xff);
}

/** Bytes as text when they are printable UTF-8, else as hex; cut to `max` characters. */
export function preview(bytes: Uint8Array, max = 160): string {
  let text: string;
  try {
    text = JSON.stringify(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    text = `hex ${Buffer.from(bytes).toString("hex")}`;
  }
  return text.length > max ? `${text.slice(0, max)}... (${bytes.length} bytes)` : text;
}
