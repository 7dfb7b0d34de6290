/**
 * A schema flattened into tables for the pre-scan. With a plan, the scan also
 * checks, byte by byte, that cbor-x's value for the input already is what the
 * schema's converter would return: same types, in range, no `null`s where the
 * converter copies or fails, no unknown or missing-with-default members. Then
 * the reader skips the converter's walk. A plan never rejects anything: the
 * first mismatch only sends the read down the converter path, so the rules
 * below may be stricter than the converter, never looser.
 */
import type { Schema } from "@anvil/core";

/**
 * Node kinds. Const enums, here and below: the bundler inlines their
 * values, where a module-level constant would cost the scan's hot loop a
 * context load and a Smi check per use.
 */
export const enum Kind {
  /** Anything else (union, document, bigDecimal): the converter always rebuilds it. */
  CONVERT = 0,
  /** string, enum: a definite text string. */
  STRING = 1,
  /** boolean: `f4` / `f5`. */
  BOOLEAN = 2,
  /** float, double: a float, or an integer of up to 4 bytes (8-byte ones decode to bigint). */
  NUMBER = 3,
  /** byte, short, integer, intEnum: an integer of up to 4 bytes within the node's range. */
  INT = 4,
  /** long, bigInteger: an integer of up to 4 bytes. */
  SAFE = 5,
  /** timestamp: tag 1 around an integer of up to 4 bytes or a float well within Date's range. */
  TIMESTAMP = 6,
  /** blob: a definite byte string. */
  BLOB = 7,
  /** list: an array; `child` is the member's node. */
  LIST = 8,
  /** map: a map; `child` is the value's node. */
  MAP = 9,
  /** structure: a map of known members; `first`/`count` index the member tables. */
  STRUCT = 10,
}

/** Table strides. */
export const enum Stride {
  /**
   * Per node, `NODE` numbers: kind, then by kind child + sparse + child's kind
   * (list, map), min + max (INT), or first member + member count + default
   * bits (structure). Kinds sit next to the node ids that need them, so the
   * scan reads both from one place.
   */
  NODE = 4,
  /**
   * Per structure member, `MEMBER` numbers: node, its kind, bit in the default
   * bits (or 0), start and length of the wire name in `names`, then the name's
   * first and last four bytes as big-endian int32s (names under four bytes:
   * all of them, in the first), so the scan compares most names without reading `names`.
   * Each structure's members end with a sentinel record of length -1, which
   * no key matches: the scan tries the member after the last one matched
   * without a bounds check.
   */
  MEMBER = 7,
}

/** @internal */
export interface ScanPlan {
  readonly root: number;
  readonly nodes: Int32Array;
  readonly members: Int32Array;
  /** Every member's wire name as UTF-8, back to back. */
  readonly names: Uint8Array;
  readonly nameView: DataView;
}

const plans = new WeakMap<Schema, ScanPlan>();

/** Up to four bytes from `at` as a big-endian int32, as `DataView.getInt32` (or getUint16, getUint8) reads them. */
function wordAt(bytes: Uint8Array, at: number): number {
  let word = 0;
  for (let i = at; i < Math.min(at + 4, bytes.length); i++) word = (word << 8) | bytes[i]!;
  return word | 0;
}
const utf8 = new TextEncoder();

/** @internal The scan plan of a schema, compiled once. */
export function planFor(schema: Schema): ScanPlan {
  const cached = plans.get(schema);
  if (cached) return cached;
  const ids = new Map<Schema, number>();
  const nodes: number[] = [];
  const members: number[] = [];
  const names: number[] = [];
  let count = 0;
  /** List and map nodes, whose child's kind is copied in at the end. */
  const children: number[] = [];

  const add = (s: Schema): number => {
    const known = ids.get(s);
    if (known !== undefined) return known;
    // register before recursing, so recursive shapes terminate
    const id = count++;
    ids.set(s, id);
    const at = id * Stride.NODE;
    nodes.push(Kind.CONVERT, 0, 0, 0);
    const range = (lo: number, hi: number) => {
      nodes[at] = Kind.INT;
      nodes[at + 1] = lo;
      nodes[at + 2] = hi;
    };
    switch (s.kind) {
      case "string":
      case "enum":
        nodes[at] = Kind.STRING;
        break;
      case "boolean":
        nodes[at] = Kind.BOOLEAN;
        break;
      case "float":
      case "double":
        nodes[at] = Kind.NUMBER;
        break;
      case "byte":
        range(-128, 127);
        break;
      case "short":
        range(-32768, 32767);
        break;
      case "integer":
      case "intEnum":
        range(-2147483648, 2147483647);
        break;
      case "long":
      case "bigInteger":
        nodes[at] = Kind.SAFE;
        break;
      case "timestamp":
        nodes[at] = Kind.TIMESTAMP;
        break;
      case "blob":
        nodes[at] = Kind.BLOB;
        break;
      case "list":
        nodes[at + 2] = s.traits.sparse === true ? 1 : 0;
        nodes[at + 1] = add(s.member.target);
        nodes[at] = Kind.LIST;
        children.push(at);
        break;
      case "map":
        nodes[at + 2] = s.traits.sparse === true ? 1 : 0;
        nodes[at + 1] = add(s.value.target);
        nodes[at] = Kind.MAP;
        children.push(at);
        break;
      case "structure": {
        const ms = s.members;
        let withDefault = 0;
        for (const m of ms) if (m.traits.default !== undefined) withDefault++;
        // more defaults than mask bits: leave it to the converter
        if (withDefault > 31) break;
        const first = members.length / Stride.MEMBER;
        let next = 1;
        let mask = 0;
        for (const m of ms) {
          const name = utf8.encode(m.name);
          let b = 0;
          if (m.traits.default !== undefined) {
            b = next;
            next <<= 1;
            mask |= b;
          }
          members.push(-1, Kind.CONVERT, b, names.length, name.length, wordAt(name, 0), name.length >= 4 ? wordAt(name, name.length - 4) : 0);
          for (const byte of name) names.push(byte);
        }
        members.push(-1, Kind.CONVERT, 0, 0, -1, 0, 0);
        for (let i = 0; i < ms.length; i++) members[(first + i) * Stride.MEMBER] = add(ms[i]!.target);
        nodes[at + 1] = first;
        nodes[at + 2] = ms.length;
        nodes[at + 3] = mask;
        nodes[at] = Kind.STRUCT;
        break;
      }
      default:
        break; // union, document, bigDecimal
    }
    return id;
  };

  const root = add(schema);
  // kinds are final only now: a recursive reference was still Kind.CONVERT when first added
  for (const at of children) nodes[at + 3] = nodes[nodes[at + 1]! * Stride.NODE]!;
  for (let m = 0; m < members.length; m += Stride.MEMBER) if (members[m]! >= 0) members[m + 1] = nodes[members[m]! * Stride.NODE]!;
  const nameBytes = Uint8Array.from(names);
  const plan: ScanPlan = {
    root,
    nodes: Int32Array.from(nodes),
    members: Int32Array.from(members),
    names: nameBytes,
    nameView: new DataView(nameBytes.buffer),
  };
  plans.set(schema, plan);
  return plan;
}
