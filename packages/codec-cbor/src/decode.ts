/**
 * The byte-level decode: pre-scan, then cbor-x. Returns cbor-x's value
 * model (plain objects for maps, `Date` for tag 1, `bigint` for 64-bit
 * integers and bignums, `Tag(7, [exponent, mantissa])` for decimal
 * fractions) for the schema-compiled converters.
 */
import { setDataKey } from "@anvil/core/protocol";
import { Decoder } from "cbor-x";
import { fail } from "./failure.js";
import type { ScanPlan } from "./scan-plan.js";
import { HAS_PROTO_KEY, MATCHES_PLAN, NEEDS_REWRITE, rewrite, scan } from "./scan.js";

const objects = new Decoder({ useRecords: false, mapsAsObjects: true, copyBuffers: true });
// cbor-x renames a `__proto__` key on plain objects; with Maps it survives
const maps = new Decoder({ useRecords: false, mapsAsObjects: false, copyBuffers: true });

/**
 * @internal Set by each {@link decodeItem}: its value matched the plan, so it
 * already is what the plan's converter would return.
 */
export let matchedPlan = false;

/**
 * @internal Decodes one CBOR item; throws a Failure on anything malformed or
 * unsupported. With a plan, sets {@link matchedPlan}.
 */
export function decodeItem(bytes: Uint8Array, maxDepth: number, plan?: ScanPlan): unknown {
  matchedPlan = false;
  if (!(bytes instanceof Uint8Array)) fail(`expected bytes, got ${typeof bytes}`);
  // a fresh plain view: byte strings of a Buffer input come out as Uint8Array,
  // and cbor-x's cached DataView (read from `dataView` when present, which the
  // planned scan shares) lands on our view, not on the caller's array
  let source: Uint8Array & { dataView?: DataView } = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let view: DataView | undefined;
  if (plan !== undefined) source.dataView = view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let flags = scan(source, maxDepth, false, plan, view);
  if ((flags & NEEDS_REWRITE) !== 0) {
    source = rewrite(source);
    flags = scan(source, maxDepth, true); // a joined key may now spell __proto__
  }
  if ((flags & HAS_PROTO_KEY) === 0) {
    const value: unknown = objects.decode(source);
    matchedPlan = (flags & MATCHES_PLAN) !== 0;
    return value;
  }
  return mapsToObjects(maps.decode(source));
}

function mapsToObjects(value: unknown): unknown {
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of value) {
      const converted = mapsToObjects(item);
      setDataKey(out, key as string, converted);
    }
    return out;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = mapsToObjects(value[i]);
    return value;
  }
  if (value !== null && typeof value === "object" && "value" in value && (value as { tag?: unknown }).tag === 7) {
    (value as { value: unknown }).value = mapsToObjects((value as { value: unknown }).value);
  }
  return value;
}
