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

// Node kinds.
/** Anything else (union, document, bigDecimal): the converter always rebuilds it. */
export const P_CONVERT = 0;
/** string, enum: a definite text string. */
export const P_STRING = 1;
/** boolean: `f4` / `f5`. */
export const P_BOOLEAN = 2;
/** float, double: a float, or an integer of up to 4 bytes (8-byte ones decode to bigint). */
export const P_NUMBER = 3;
/** byte, short, integer, intEnum: an integer of up to 4 bytes within the node's range. */
export const P_INT = 4;
/** long, bigInteger: an integer of up to 4 bytes. */
export const P_SAFE = 5;
/** timestamp: tag 1 around an integer of up to 4 bytes or a float well within Date's range. */
export const P_TIMESTAMP = 6;
/** blob: a definite byte string. */
export const P_BLOB = 7;
/** list: an array; `child` is the member's node. */
export const P_LIST = 8;
/** map: a map; `child` is the value's node. */
export const P_MAP = 9;
/** structure: a map of known members; `first`/`count` index the member tables. */
export const P_STRUCT = 10;

/**
 * Per node, `NODE` numbers: kind, then by kind child + sparse + child's kind
 * (list, map), min + max (P_INT), or first member + member count + default
 * bits (structure). Kinds sit next to the node ids that need them, so the
 * scan reads both from one place.
 */
export const NODE = 4;
/**
 * Per structure member, `MEMBER` numbers: node, its kind, bit in the default
 * bits (or 0), start and length of the wire name in `names`, then the name's
 * first and last four bytes as big-endian int32s (names under four bytes:
 * all of them, in the first), so the scan compares most names without reading `names`.
 */
export const MEMBER = 7;

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
    const at = id * NODE;
    nodes.push(P_CONVERT, 0, 0, 0);
    const range = (lo: number, hi: number) => {
      nodes[at] = P_INT;
      nodes[at + 1] = lo;
      nodes[at + 2] = hi;
    };
    switch (s.kind) {
      case "string":
      case "enum":
        nodes[at] = P_STRING;
        break;
      case "boolean":
        nodes[at] = P_BOOLEAN;
        break;
      case "float":
      case "double":
        nodes[at] = P_NUMBER;
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
        nodes[at] = P_SAFE;
        break;
      case "timestamp":
        nodes[at] = P_TIMESTAMP;
        break;
      case "blob":
        nodes[at] = P_BLOB;
        break;
      case "list":
        nodes[at + 2] = s.traits.sparse === true ? 1 : 0;
        nodes[at + 1] = add(s.member.target);
        nodes[at] = P_LIST;
        children.push(at);
        break;
      case "map":
        nodes[at + 2] = s.traits.sparse === true ? 1 : 0;
        nodes[at + 1] = add(s.value.target);
        nodes[at] = P_MAP;
        children.push(at);
        break;
      case "structure": {
        const ms = s.members;
        let withDefault = 0;
        for (const m of ms) if (m.traits.default !== undefined) withDefault++;
        // more defaults than mask bits: leave it to the converter
        if (withDefault > 31) break;
        const first = members.length / MEMBER;
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
          members.push(-1, P_CONVERT, b, names.length, name.length, wordAt(name, 0), name.length >= 4 ? wordAt(name, name.length - 4) : 0);
          for (const byte of name) names.push(byte);
        }
        for (let i = 0; i < ms.length; i++) members[(first + i) * MEMBER] = add(ms[i]!.target);
        nodes[at + 1] = first;
        nodes[at + 2] = ms.length;
        nodes[at + 3] = mask;
        nodes[at] = P_STRUCT;
        break;
      }
      default:
        break; // union, document, bigDecimal
    }
    return id;
  };

  const root = add(schema);
  // kinds are final only now: a recursive reference was still P_CONVERT when first added
  for (const at of children) nodes[at + 3] = nodes[nodes[at + 1]! * NODE]!;
  for (let m = 0; m < members.length; m += MEMBER) members[m + 1] = nodes[members[m]! * NODE]!;
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
