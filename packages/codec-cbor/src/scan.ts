/**
 * An iterative pre-scan of CBOR bytes, run before cbor-x sees them. cbor-x
 * is fast but recursive, trusts declared lengths more than we would, decodes
 * many tags we do not want (shared references, records, packed tables) and
 * rejects indefinite-length strings. The scan checks well-formedness with a
 * fixed-size stack and no allocation proportional to declared lengths, and
 * reports what the decode step has to adapt. It is not a parser: it builds
 * no values.
 */
import { fail } from "./failure.js";

/** The input has indefinite-length strings or tag 4: decode a rewritten copy. */
export const NEEDS_REWRITE = 1;
/** A map key is `__proto__`: decode maps as `Map`s so the key survives. */
export const HAS_PROTO_KEY = 2;

const TOP = 0;
const ARRAY = 1;
const MAP = 2;
const INDEFINITE = 4;
const INDEFINITE_START = 2 ** 30;
/** Counts live in an Int32Array (parity checks stay integer ops), so inputs stay under 1 GiB. */
const MAX_INPUT = 2 ** 30;

let remaining = new Int32Array(130);
let kinds = new Uint8Array(130);

function argument(b: Uint8Array, p: number, ai: number): number {
  // caller has checked that the bytes are there
  switch (ai) {
    case 24:
      return b[p]!;
    case 25:
      return (b[p]! << 8) | b[p + 1]!;
    case 26:
      return ((b[p]! << 24) >>> 0) + ((b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!);
    default: {
      const hi = ((b[p]! << 24) >>> 0) + ((b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!);
      const lo = ((b[p + 4]! << 24) >>> 0) + ((b[p + 5]! << 16) | (b[p + 6]! << 8) | b[p + 7]!);
      return hi * 4294967296 + lo;
    }
  }
}

const ARG_BYTES = [1, 2, 4, 8];

/**
 * Checks that `b` holds exactly one well-formed CBOR item that Anvil can
 * decode, nested at most `maxDepth` deep. Returns flags for the decode step;
 * throws a Failure on anything else.
 */
export function scan(b: Uint8Array, maxDepth: number, rewritten = false): number {
  if (remaining.length < maxDepth + 2) {
    remaining = new Int32Array(maxDepth + 2);
    kinds = new Uint8Array(maxDepth + 2);
  }
  const n = b.length;
  if (n >= MAX_INPUT) fail("input larger than 1 GiB");
  const rem = remaining;
  const kin = kinds;
  let p = 0;
  let top = 0;
  let flags = 0;
  rem[0] = 1;
  kin[0] = TOP;
  for (;;) {
    // close every definite container whose items are all read
    while (rem[top] === 0) {
      if (top === 0) {
        if (p !== n) fail(`${n - p} trailing byte(s) after the CBOR item`);
        return flags;
      }
      top--;
    }
    if (p >= n) fail("unexpected end of input");
    let ib = b[p++]!;
    const kind = kin[top]!;
    if (ib === 0xff) {
      if ((kind & INDEFINITE) === 0) fail("unexpected break");
      if ((kind & MAP) !== 0 && (rem[top]! & 1) !== 0) fail("map ends after a key without its value");
      top--;
      continue;
    }
    const isKey = (kind & MAP) !== 0 && (rem[top]! & 1) === 0;
    // a definite container counts down; an indefinite map counts (negatively) for key/value parity
    rem[top] = (kind & INDEFINITE) !== 0 ? rem[top]! + 1 : rem[top]! - 1;
    let major = ib >> 5;
    let ai = ib & 31;
    if (major === 6) {
      if (isKey) fail("map keys must be text strings");
      let tag = ai;
      if (ai >= 24) {
        if (ai > 27) fail("malformed tag");
        const size = ARG_BYTES[ai - 24]!;
        if (p + size > n) fail("unexpected end of input");
        tag = argument(b, p, ai);
        p += size;
      }
      if (p >= n) fail("unexpected end of input");
      const next = b[p]!;
      const nextMajor = next >> 5;
      switch (tag) {
        case 1: // epoch seconds: an integer or a float
          if (!(nextMajor <= 1 || next === 0xf9 || next === 0xfa || next === 0xfb)) fail("tag 1 must wrap a number");
          break;
        case 2:
        case 3: // bignum: a byte string
          if (nextMajor !== 2) fail(`tag ${tag} must wrap a byte string`);
          break;
        case 4: // decimal fraction: [exponent, mantissa]
          if (next !== 0x82) fail("tag 4 must wrap a two-element array");
          flags |= NEEDS_REWRITE;
          break;
        case 7: // a decimal fraction after rewrite()
          if (!rewritten) fail("unsupported tag 7");
          break;
        default:
          fail(`unsupported tag ${tag}`);
      }
      ib = b[p++]!;
      major = ib >> 5;
      ai = ib & 31;
    }
    if (isKey && major !== 3) fail("map keys must be text strings");
    let value = ai;
    if (ai >= 24) {
      if (ai === 31) {
        if (major === 2 || major === 3) {
          // indefinite-length string: definite chunks of the same major type, then a break
          flags |= NEEDS_REWRITE;
          for (;;) {
            if (p >= n) fail("unexpected end of input");
            const cb = b[p++]!;
            if (cb === 0xff) break;
            if (cb >> 5 !== major || (cb & 31) === 31) fail("indefinite-length string chunks must be definite strings of the same type");
            let len = cb & 31;
            if (len >= 24) {
              if (len > 27) fail("malformed string chunk");
              const size = ARG_BYTES[len - 24]!;
              if (p + size > n) fail("unexpected end of input");
              len = argument(b, p, len);
              p += size;
            }
            if (len > n - p) fail("declared length exceeds the input");
            p += len;
          }
          continue;
        }
        if (major === 4 || major === 5) {
          if (top + 1 > maxDepth) fail(`nesting deeper than ${maxDepth}`);
          top++;
          // indefinite containers count up from a large even negative number: never 0, and even = expecting a key
          rem[top] = -INDEFINITE_START;
          kin[top] = (major === 4 ? ARRAY : MAP) | INDEFINITE;
          continue;
        }
        fail("unexpected indefinite-length item");
      }
      if (ai > 27) fail(`reserved additional information ${ai}`);
      const size = ARG_BYTES[ai - 24]!;
      if (p + size > n) fail("unexpected end of input");
      if (major === 7) {
        if (ai === 24) fail("unsupported simple value");
        p += size; // half, single or double float
        continue;
      }
      value = argument(b, p, ai);
      p += size;
    }
    switch (major) {
      case 0:
      case 1:
        break;
      case 2:
      case 3:
        if (value > n - p) fail("declared length exceeds the input");
        if (isKey && value === 9 && isProto(b, p)) flags |= HAS_PROTO_KEY;
        p += value;
        break;
      case 4:
        if (value > n - p) fail("declared length exceeds the input");
        if (value > 0) {
          if (top + 1 > maxDepth) fail(`nesting deeper than ${maxDepth}`);
          top++;
          rem[top] = value;
          kin[top] = ARRAY;
        }
        break;
      case 5:
        if (value * 2 > n - p) fail("declared length exceeds the input");
        if (value > 0) {
          if (top + 1 > maxDepth) fail(`nesting deeper than ${maxDepth}`);
          top++;
          rem[top] = value * 2;
          kin[top] = MAP;
        }
        break;
      case 7:
        if (value < 20 || value > 23) fail("unsupported simple value");
        break;
      default:
        fail("malformed item");
    }
  }
}

const PROTO = [0x5f, 0x5f, 0x70, 0x72, 0x6f, 0x74, 0x6f, 0x5f, 0x5f];
function isProto(b: Uint8Array, p: number): boolean {
  for (let i = 0; i < 9; i++) if (b[p + i] !== PROTO[i]) return false;
  return true;
}

/**
 * Copies already-scanned bytes, joining indefinite-length strings into
 * definite ones (cbor-x rejects them) and re-tagging decimal fractions as
 * tag 7, which cbor-x leaves as a `Tag` instead of rounding to a double.
 */
export function rewrite(b: Uint8Array): Uint8Array {
  const n = b.length;
  // joined strings never grow: chunk headers (at least one byte each) plus the
  // break cover the one definite header, except for a lone huge chunk, so leave slack
  const out = new Uint8Array(n + 16);
  let o = 0;
  let p = 0;
  while (p < n) {
    const ib = b[p]!;
    const major = ib >> 5;
    const ai = ib & 31;
    if ((major === 2 || major === 3) && ai === 31) {
      // first pass: total length; second: copy
      let q = p + 1;
      let total = 0;
      const starts: number[] = [];
      const lens: number[] = [];
      while (b[q] !== 0xff) {
        let len = b[q]! & 31;
        q++;
        if (len >= 24) {
          const size = ARG_BYTES[len - 24]!;
          len = argument(b, q, len);
          q += size;
        }
        starts.push(q);
        lens.push(len);
        total += len;
        q += len;
      }
      o = writeHead(out, o, major, total);
      for (let i = 0; i < starts.length; i++) {
        out.set(b.subarray(starts[i]!, starts[i]! + lens[i]!), o);
        o += lens[i]!;
      }
      p = q + 1;
      continue;
    }
    let headLen = 1;
    let value = ai;
    if (ai >= 24 && ai <= 27) {
      headLen += ARG_BYTES[ai - 24]!;
      value = argument(b, p + 1, ai);
    }
    if (major === 6 && value === 4) {
      out[o++] = 0xc7;
      p += headLen;
      continue;
    }
    const bodyLen = (major === 2 || major === 3) && ai !== 31 ? value : 0;
    out.set(b.subarray(p, p + headLen + bodyLen), o);
    o += headLen + bodyLen;
    p += headLen + bodyLen;
  }
  return out.subarray(0, o);
}

function writeHead(out: Uint8Array, o: number, major: number, value: number): number {
  const m = major << 5;
  if (value < 24) out[o++] = m | value;
  else if (value < 0x100) {
    out[o++] = m | 24;
    out[o++] = value;
  } else if (value < 0x10000) {
    out[o++] = m | 25;
    out[o++] = value >> 8;
    out[o++] = value & 0xff;
  } else {
    out[o++] = m | 26;
    out[o++] = (value >>> 24) & 0xff;
    out[o++] = (value >>> 16) & 0xff;
    out[o++] = (value >>> 8) & 0xff;
    out[o++] = value & 0xff;
  }
  return o;
}
