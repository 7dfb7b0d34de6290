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
import { Kind, Stride, type ScanPlan } from "./scan-plan.js";

/** The input has indefinite-length strings or tag 4: decode a rewritten copy. */
export const NEEDS_REWRITE = 1;
/** A map key is `__proto__`: decode maps as `Map`s so the key survives. */
export const HAS_PROTO_KEY = 2;
/** The input matches the plan: cbor-x's value already is the reader's result. */
export const MATCHES_PLAN = 4;

/**
 * The loop's constants, as const enums (see `Kind` in scan-plan.ts): the
 * open container's kind bits...
 */
const enum Frame {
  TOP = 0,
  ARRAY = 1,
  MAP = 2,
  INDEFINITE = 4,
  /**
   * A stack frame: count, kind, and with a plan node, the next member record
   * to try (a planned structure; -1 otherwise), default bits seen.
   */
  SIZE = 5,
}

/** ...and the limits. */
const enum Limit {
  /** An indefinite container's count: never reaches 0, as an input under 1 GiB holds fewer items. */
  INDEFINITE_COUNT = 1 << 30,
  /** Counts live in an Int32Array, so inputs stay under 1 GiB. */
  MAX_INPUT = 1 << 30,
}

/** `want` of a planned item already checked (a timestamp's number): no kind. */
const enum Want {
  CHECKED = 255,
}

let frames = new Int32Array(130 * Frame.SIZE);

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

const NO_I32 = new Int32Array(0);
const NO_VIEW = new DataView(new ArrayBuffer(0));

/**
 * Checks that `b` holds exactly one well-formed CBOR item that Anvil can
 * decode, nested at most `maxDepth` deep. Returns flags for the decode step;
 * throws a Failure on anything else. With a `plan`, also reports
 * MATCHES_PLAN when cbor-x's value will need no conversion; the plan never
 * changes what is rejected. `dataView`, if given, views exactly `b`.
 *
 * One loop iteration reads one array item, or one map entry (its key inline,
 * then its value), so keys need no parity bookkeeping. The open container's
 * state lives in locals; the stack holds only its ancestors'.
 */
export function scan(b: Uint8Array, maxDepth: number, rewritten = false, plan?: ScanPlan, dataView?: DataView): number {
  if (frames.length < (maxDepth + 2) * Frame.SIZE) frames = new Int32Array((maxDepth + 2) * Frame.SIZE);
  const n = b.length;
  if (n >= Limit.MAX_INPUT) fail("input larger than 1 GiB");
  const stack = frames;
  let planned = plan !== undefined;
  const pn = plan?.nodes ?? NO_I32;
  const pm = plan?.members ?? NO_I32;
  const names = plan?.nameView ?? NO_VIEW;
  // only planned scans compare names
  const view = !planned ? NO_VIEW : (dataView ?? new DataView(b.buffer, b.byteOffset, b.byteLength));
  let p = 0;
  let top = 0;
  let flags = 0;
  let count = 1;
  let kind: number = Frame.TOP;
  let node = -1;
  let cursor = -1;
  let seen = 0;
  for (;;) {
    // close every definite container whose items are all read
    while (count === 0) {
      if (top === 0) {
        if (p !== n) fail(`${n - p} trailing byte(s) after the CBOR item`);
        return planned ? flags | MATCHES_PLAN : flags;
      }
      // a structure that lacks a member with a default gets it from the converter
      if (planned && cursor >= 0 && seen !== pn[node * Stride.NODE + 3]) planned = false;
      top--;
      const f = top * Frame.SIZE;
      count = stack[f]!;
      kind = stack[f + 1]!;
      node = stack[f + 2]!;
      cursor = stack[f + 3]!;
      seen = stack[f + 4]!;
    }
    if (p >= n) fail("unexpected end of input");
    let ib = b[p++]!;
    if (ib === 0xff) {
      if ((kind & Frame.INDEFINITE) === 0) fail("unexpected break");
      if (planned && cursor >= 0 && seen !== pn[node * Stride.NODE + 3]) planned = false;
      top--;
      const f = top * Frame.SIZE;
      count = stack[f]!;
      kind = stack[f + 1]!;
      node = stack[f + 2]!;
      cursor = stack[f + 3]!;
      seen = stack[f + 4]!;
      continue;
    }
    count--;
    // the plan node of this item (meaningful only while planned)
    let en = -1;
    let want: number = Want.CHECKED;
    if ((kind & Frame.MAP) !== 0) {
      // the key: a text string
      if (ib >> 5 !== 3) fail("map keys must be text strings");
      let len = ib & 31;
      if (len >= 24) {
        if (len === 31) {
          p = skipChunks(b, p, 3);
          flags |= NEEDS_REWRITE;
          planned = false;
          len = 0;
        } else {
          if (len > 27) fail(`reserved additional information ${len}`);
          const size = 1 << (len - 24);
          if (p + size > n) fail("unexpected end of input");
          len = argument(b, p, len);
          p += size;
        }
      }
      if (len > n - p) fail("declared length exceeds the input");
      if (len === 9 && isProto(b, p)) {
        flags |= HAS_PROTO_KEY;
        planned = false;
      }
      if (planned) {
        if (cursor >= 0) {
          // a structure: members usually arrive in schema order, so try the next one first
          let mat = sameName(pm, names, cursor, view, p, len) ? cursor : -1;
          if (mat < 0) {
            const at = node * Stride.NODE;
            const end = (pn[at + 1]! + pn[at + 2]!) * Stride.MEMBER;
            for (let m = pn[at + 1]! * Stride.MEMBER; m < end; m += Stride.MEMBER) {
              if (sameName(pm, names, m, view, p, len)) {
                mat = m;
                break;
              }
            }
          }
          if (mat < 0)
            planned = false; // an unknown member: the converter drops it
          else {
            cursor = mat + Stride.MEMBER;
            en = pm[mat]!;
            want = pm[mat + 1]!;
            seen |= pm[mat + 2]!;
          }
        } else {
          const at = node * Stride.NODE;
          en = pn[at + 1]!;
          want = pn[at + 3]!;
        }
      }
      p += len;
      // then its value
      if (p >= n) fail("unexpected end of input");
      ib = b[p++]!;
      if (ib === 0xff) fail((kind & Frame.INDEFINITE) === 0 ? "unexpected break" : "map ends after a key without its value");
    } else if (planned) {
      if (kind === Frame.TOP) {
        en = plan!.root;
        want = pn[en * Stride.NODE]!;
      } else {
        const at = node * Stride.NODE;
        en = pn[at + 1]!;
        want = pn[at + 3]!;
      }
    }
    let major = ib >> 5;
    let ai = ib & 31;
    if (major === 6) {
      let tag = ai;
      if (ai >= 24) {
        if (ai > 27) fail("malformed tag");
        const size = 1 << (ai - 24);
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
      if (planned) {
        if (want === Kind.TIMESTAMP && tag === 1 && validDate(b, p, next)) want = Want.CHECKED;
        else planned = false;
      }
      ib = next;
      p++;
      major = ib >> 5;
      ai = ib & 31;
    } else if (want === Kind.TIMESTAMP) planned = false; // a bare number: the converter makes the Date
    let value = ai;
    if (ai >= 24) {
      if (ai === 31) {
        if (major === 2 || major === 3) {
          p = skipChunks(b, p, major);
          flags |= NEEDS_REWRITE;
          planned = false;
          continue;
        }
        if (major === 4 || major === 5) {
          if (top + 1 > maxDepth) fail(`nesting deeper than ${maxDepth}`);
          if (planned && want !== (major === 4 ? Kind.LIST : Kind.MAP) && (major === 4 || want !== Kind.STRUCT)) planned = false;
          const f = top * Frame.SIZE;
          stack[f] = count;
          stack[f + 1] = kind;
          stack[f + 2] = node;
          stack[f + 3] = cursor;
          stack[f + 4] = seen;
          top++;
          count = Limit.INDEFINITE_COUNT;
          kind = (major === 4 ? Frame.ARRAY : Frame.MAP) | Frame.INDEFINITE;
          node = en;
          cursor = planned && want === Kind.STRUCT ? pn[en * Stride.NODE + 1]! * Stride.MEMBER : -1;
          seen = 0;
          continue;
        }
        fail("unexpected indefinite-length item");
      }
      if (ai > 27) fail(`reserved additional information ${ai}`);
      const size = 1 << (ai - 24);
      if (p + size > n) fail("unexpected end of input");
      if (major === 7) {
        if (ai === 24) fail("unsupported simple value");
        if (want !== Kind.NUMBER && want !== Want.CHECKED) planned = false;
        p += size; // half, single or double float
        continue;
      }
      value = argument(b, p, ai);
      p += size;
    }
    switch (major) {
      case 0:
      case 1:
        // 8-byte integers decode to bigint, which the converters turn into numbers
        if (want !== Want.CHECKED) {
          if (want === Kind.INT) {
            if (ai === 27 || (major === 0 ? value > pn[en * Stride.NODE + 2]! : -1 - value < pn[en * Stride.NODE + 1]!)) planned = false;
          } else if (ai === 27 || (want !== Kind.NUMBER && want !== Kind.SAFE)) planned = false;
        }
        break;
      case 2:
      case 3:
        if (value > n - p) fail("declared length exceeds the input");
        if (want !== (major === 2 ? Kind.BLOB : Kind.STRING)) planned = false;
        p += value;
        break;
      case 4:
        if (value > n - p) fail("declared length exceeds the input");
        if (want !== Kind.LIST) planned = false;
        if (value > 0) {
          if (top + 1 > maxDepth) fail(`nesting deeper than ${maxDepth}`);
          const f = top * Frame.SIZE;
          stack[f] = count;
          stack[f + 1] = kind;
          stack[f + 2] = node;
          stack[f + 3] = cursor;
          stack[f + 4] = seen;
          top++;
          count = value;
          kind = Frame.ARRAY;
          node = en;
          cursor = -1;
          seen = 0;
        }
        break;
      case 5:
        if (value * 2 > n - p) fail("declared length exceeds the input");
        if (want !== Kind.MAP && want !== Kind.STRUCT) planned = false;
        if (value > 0) {
          if (top + 1 > maxDepth) fail(`nesting deeper than ${maxDepth}`);
          const f = top * Frame.SIZE;
          stack[f] = count;
          stack[f + 1] = kind;
          stack[f + 2] = node;
          stack[f + 3] = cursor;
          stack[f + 4] = seen;
          top++;
          count = value;
          kind = Frame.MAP;
          node = en;
          cursor = planned && want === Kind.STRUCT ? pn[en * Stride.NODE + 1]! * Stride.MEMBER : -1;
          seen = 0;
        } else if (planned && want === Kind.STRUCT && pn[en * Stride.NODE + 3] !== 0) planned = false;
        break;
      case 7:
        if (value < 20 || value > 23) fail("unsupported simple value");
        if (planned) {
          // null stays null only as an item of a sparse list or map (the converter drops a
          // structure's null member); undefined always becomes null
          if (value === 22) planned = kind !== Frame.TOP && cursor < 0 && pn[node * Stride.NODE + 2] === 1;
          else if (value === 23 || want !== Kind.BOOLEAN) planned = false;
        }
        break;
      default:
        fail("malformed item");
    }
  }
}

/**
 * The key at `p` spells the member's name. The plan holds the name's first
 * and last four bytes, which settle names of up to eight bytes; longer ones
 * compare the words between too.
 */
function sameName(pm: Int32Array, names: DataView, mat: number, b: DataView, p: number, len: number): boolean {
  if (pm[mat + 4] !== len) return false;
  if (len >= 4) {
    if (b.getInt32(p) !== pm[mat + 5]) return false;
    const last = len - 4;
    if (last > 4) {
      const start = pm[mat + 3]!;
      for (let i = 4; i < last; i += 4) if (names.getInt32(start + i) !== b.getInt32(p + i)) return false;
    }
    return b.getInt32(p + last) === pm[mat + 6];
  }
  switch (len) {
    case 0:
      return true;
    case 1:
      return b.getUint8(p) === pm[mat + 5];
    case 2:
      return b.getUint16(p) === pm[mat + 5];
    default:
      return ((b.getUint16(p) << 8) | b.getUint8(p + 2)) === pm[mat + 5];
  }
}

/**
 * Tag 1's number (at `p`, first byte `next`) makes a valid Date: an integer
 * of up to 4 bytes, or a float under 2^42 seconds (the limit is 8.64e12).
 * Missing bytes read as undefined and fail the scan later anyway.
 */
function validDate(b: Uint8Array, p: number, next: number): boolean {
  if (next >> 5 <= 1) return (next & 31) <= 26;
  if (next === 0xf9) return ((b[p + 1]! >> 2) & 0x1f) !== 0x1f;
  if (next === 0xfa) return (((b[p + 1]! & 0x7f) << 1) | (b[p + 2]! >> 7)) < 127 + 42;
  return (((b[p + 1]! & 0x7f) << 4) | (b[p + 2]! >> 4)) < 1023 + 42;
}

/** Skips an indefinite-length string's chunks (definite strings of the same major type) and its break. */
function skipChunks(b: Uint8Array, p: number, major: number): number {
  const n = b.length;
  for (;;) {
    if (p >= n) fail("unexpected end of input");
    const cb = b[p++]!;
    if (cb === 0xff) return p;
    if (cb >> 5 !== major || (cb & 31) === 31) fail("indefinite-length string chunks must be definite strings of the same type");
    let len = cb & 31;
    if (len >= 24) {
      if (len > 27) fail("malformed string chunk");
      const size = 1 << (len - 24);
      if (p + size > n) fail("unexpected end of input");
      len = argument(b, p, len);
      p += size;
    }
    if (len > n - p) fail("declared length exceeds the input");
    p += len;
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
          const size = 1 << (len - 24);
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
      headLen += 1 << (ai - 24);
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
