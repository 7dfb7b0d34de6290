/** The converter of structures: members by wire name, defaults, nullability, in place when the parse is owned. */
import type { StructSchema } from "@anvil/core";
import { Failure, mismatch, withSegment } from "../failure.js";
import { RawNumber } from "../numbers.js";
import { defaultMaker, defineData, isPrototypeName, wireName } from "../schema-info.js";
import type { ResolvedSettings } from "../settings.js";
import { compileMember } from "./compile.js";
import { documentReader } from "./document.js";
import { keepsValue, Member, passes, passThrough } from "./inline-checks.js";
import type { Conv, ReadPass } from "./pass.js";
import { readString } from "./scalars.js";

type Obj = Record<string, unknown>;

const hasOwn = Object.hasOwn as (o: object, k: string) => boolean;
const isArray = Array.isArray;

/** The converter of a structure; registered in `cache` before its members' converters are compiled (recursive shapes). */
export function structReader(schema: StructSchema<unknown>, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const maxDepth = s.maxDepth;
  const members = schema.members.filter((m) => !m.traits.streaming);
  const n = members.length;
  const names: string[] = [];
  const wires: string[] = [];
  const readers: Conv[] = [];
  const checks: number[] = [];
  const guarded: boolean[] = []; // wire name shadows Object.prototype: read own properties only
  const protoName: boolean[] = []; // member named __proto__: define, never assign
  const defaults: ((() => unknown) | undefined)[] = [];
  const nullable: boolean[] = [];
  const flags: number[] = []; // Pass kind | Member bits, for the in-place loop
  let unknownIndex = -1;
  let defaultCount = 0;
  const known: Record<string, true> = Object.create(null);
  const index = new Map<string, number>(); // wire name → member
  for (let i = 0; i < n; i++) {
    const m = members[i]!;
    const t = m.traits;
    names.push(m.name);
    wires.push(wireName(m, s));
    checks.push(passThrough(m.target));
    guarded.push(isPrototypeName(wires[i]!));
    protoName.push(m.name === "__proto__");
    defaults.push(defaultMaker(t.default));
    if (defaults[i] !== undefined) defaultCount++;
    nullable.push(s.alloyTraits && t.nullable === true);
    known[wires[i]!] = true;
    if (!index.has(wires[i]!)) index.set(wires[i]!, i);
    if (s.alloyTraits && t.jsonUnknown && m.target.kind === "map" && unknownIndex < 0) unknownIndex = i;
    readers.push(readString);
    flags.push(checks[i]! | (defaults[i] === undefined ? 0 : Member.Default) | (nullable[i] ? Member.Nullable : 0) | (keepsValue(m.target) ? Member.Kept : 0));
  }
  const unknownDoc = documentReader(maxDepth);
  // A parsed object can become the result when it is keyed by member names.
  const adoptable = unknownIndex < 0 && index.size === n && names.every((name, i) => name === wires[i] && name !== "__proto__");

  /**
   * A member failed while members were converted in wire order. Reports what
   * schema order reports: the first member before it in the schema that was
   * not visited yet and fails too, else this one.
   */
  const firstFailure = (o: Obj, failed: number, error: unknown, d: number, p: ReadPass): unknown => {
    const visited = new Set<string>();
    for (const key in o) {
      if (key === wires[failed]) break;
      visited.add(key);
    }
    for (let i = 0; i < failed; i++) {
      const w = wires[i]!;
      if (visited.has(w)) continue;
      const x = guarded[i] ? (hasOwn(o, w) ? o[w] : undefined) : o[w];
      if (x === undefined || x === null || passes(checks[i]!, x)) continue;
      try {
        readers[i]!(x, d + 1, p);
      } catch (earlier) {
        return withSegment(earlier, w);
      }
    }
    return withSegment(error, wires[failed]!);
  };

  /** Converts members in place, in wire order (for-in reads by enum cache, not a lookup per name); the object itself when it can be the result. */
  const inPlace = (o: Obj, d: number, p: ReadPass): Obj => {
    let clean = true; // only member keys, no nulls to drop
    let next = 0;
    let present = 0; // members with a default that are present
    for (const key in o) {
      // Wire order usually is schema order: try the next member before the lookup.
      let i = next;
      if (i >= n || wires[i] !== key) {
        i = index.get(key) ?? -1;
        if (i < 0) {
          clean = false;
          continue;
        }
      }
      next = i + 1;
      const w = o[key];
      const f = flags[i]!;
      if (w === null || w === undefined) {
        if (w !== null || (f & Member.Nullable) === 0) clean = false;
        else if ((f & Member.Default) !== 0) present++;
        continue;
      }
      if ((f & Member.Default) !== 0) present++;
      if (passes(f & Member.PassMask, w)) continue;
      let r: unknown;
      try {
        r = readers[i]!(w, d + 1, p);
      } catch (error) {
        throw firstFailure(o, i, error, d, p);
      }
      if ((f & Member.Kept) === 0 || r !== w) o[key] = r;
    }
    if (clean) {
      if (present < defaultCount) {
        for (let i = 0; i < n; i++) {
          const make = defaults[i];
          if (make !== undefined && !hasOwn(o, wires[i]!)) o[wires[i]!] = make();
        }
      }
      return o;
    }
    // Members are converted; copy them in schema order, dropping nulls and unknown keys.
    const out: Obj = {};
    for (let i = 0; i < n; i++) {
      const w = guarded[i] ? (hasOwn(o, wires[i]!) ? o[wires[i]!] : undefined) : o[wires[i]!];
      let r: unknown = w;
      if (w === undefined || w === null) {
        if (w === null && nullable[i]) r = null;
        else {
          const make = defaults[i];
          if (make === undefined) continue;
          r = make();
        }
      }
      out[names[i]!] = r;
    }
    return out;
  };

  const conv: Conv = (v, d, p) => {
    if (typeof v !== "object" || v === null || isArray(v) || v instanceof RawNumber) throw mismatch("an object", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const o = v as Obj;
    if (p.owned && adoptable) return inPlace(o, d, p);
    const out: Obj = {};
    let i = 0;
    try {
      for (; i < n; i++) {
        if (i === unknownIndex) continue;
        const w = guarded[i] ? (hasOwn(o, wires[i]!) ? o[wires[i]!] : undefined) : o[wires[i]!];
        let r: unknown;
        if (w === undefined || w === null) {
          if (w === null && nullable[i]) r = null;
          else {
            const make = defaults[i];
            if (make === undefined) continue;
            r = make();
          }
        } else r = passes(checks[i]!, w) ? w : readers[i]!(w, d + 1, p);
        if (protoName[i]) defineData(out, names[i]!, r);
        else out[names[i]!] = r;
      }
    } catch (error) {
      throw withSegment(error, wires[i]!);
    }
    if (unknownIndex >= 0) {
      let extra: Obj | undefined;
      let key = "";
      try {
        for (key in o) {
          if (known[key] === true) continue;
          extra ??= {};
          defineData(extra, key, unknownDoc(o[key], d + 1, p));
        }
      } catch (error) {
        throw withSegment(error, key);
      }
      if (extra !== undefined) out[names[unknownIndex]!] = extra;
    }
    return out;
  };
  cache.set(s.key, conv);
  for (let i = 0; i < n; i++) readers[i] = compileMember(members[i]!, s);
  return conv;
}
