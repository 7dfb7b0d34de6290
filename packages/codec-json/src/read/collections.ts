/** The converters of lists and maps. */
import type { MemberSchema } from "@anvil/core";
import { Failure, mismatch, withSegment } from "../failure.js";
import { RawNumber } from "../numbers.js";
import { defineData } from "../schema-info.js";
import type { ResolvedSettings } from "../settings.js";
import { compileMember } from "./compile.js";
import { passes, passThrough } from "./inline-checks.js";
import type { Conv } from "./pass.js";
import { readString } from "./scalars.js";

type Obj = Record<string, unknown>;

const isArray = Array.isArray;

/** The converter of a list of `member`; registered in `cache` before its item converter is compiled (recursive shapes). */
export function listReader(member: MemberSchema, sparse: boolean, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const maxDepth = s.maxDepth;
  let item: Conv = readString;
  const check = passThrough(member.target);
  const conv: Conv = (v, d, p) => {
    if (!isArray(v)) throw mismatch("an array", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const n = v.length;
    let i = 0;
    if (p.owned) {
      // In place: store only what the item converter replaced.
      try {
        for (; i < n; i++) {
          const e = v[i];
          if (e === null) {
            if (!sparse) throw new Failure("null in a non-sparse list");
          } else if (!passes(check, e)) {
            const r = item(e, d + 1, p);
            if (r !== e) v[i] = r;
          }
        }
      } catch (error) {
        throw withSegment(error, String(i));
      }
      return v;
    }
    const out = new Array<unknown>(n);
    try {
      for (; i < n; i++) {
        const e = v[i];
        if (e === null) {
          if (!sparse) throw new Failure("null in a non-sparse list");
          out[i] = null;
        } else out[i] = passes(check, e) ? e : item(e, d + 1, p);
      }
    } catch (error) {
      throw withSegment(error, String(i));
    }
    return out;
  };
  cache.set(s.key, conv);
  item = compileMember(member, s);
  return conv;
}

/** The converter of a map of `member` values; registered in `cache` before its value converter is compiled. */
export function mapReader(member: MemberSchema, sparse: boolean, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const maxDepth = s.maxDepth;
  let value: Conv = readString;
  const check = passThrough(member.target);
  const conv: Conv = (v, d, p) => {
    if (typeof v !== "object" || v === null || isArray(v) || v instanceof RawNumber) throw mismatch("an object", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const o = v as Obj;
    let key = "";
    if (p.owned) {
      // In place: parsed objects hold exactly the wire keys (`__proto__` as an own data property).
      try {
        for (key in o) {
          const e = o[key];
          if (e === null) {
            if (!sparse) throw new Failure("null in a non-sparse map");
          } else if (!passes(check, e)) {
            const r = value(e, d + 1, p);
            if (r !== e) {
              if (key === "__proto__") defineData(o, key, r);
              else o[key] = r;
            }
          }
        }
      } catch (error) {
        throw withSegment(error, key);
      }
      return o;
    }
    const out: Obj = {};
    try {
      for (key in o) {
        const e = o[key];
        let r: unknown = null;
        if (e === null) {
          if (!sparse) throw new Failure("null in a non-sparse map");
        } else r = passes(check, e) ? e : value(e, d + 1, p);
        if (key === "__proto__") defineData(out, key, r);
        else out[key] = r;
      }
    } catch (error) {
      throw withSegment(error, key);
    }
    return out;
  };
  cache.set(s.key, conv);
  value = compileMember(member, s);
  return conv;
}
