/** The encoders of lists and maps. */
import type { MemberSchema } from "@anvil/core";
import { Failure, mismatch, withSegment } from "../failure.js";
import type { ResolvedSettings } from "../settings.js";
import { compileMember } from "./compile.js";
import type { Enc } from "./enc.js";
import { At, encodeAs, Kind, memberKind, SEPARATOR, SEPARATOR_QUOTE } from "./inline-kinds.js";
import { writeString } from "./scalars.js";
import { stringBody } from "./strings.js";

type Obj = Record<string, unknown>;

const isArray = Array.isArray;

/** The encoder of a list of `member`; registered in `cache` before its item encoder is compiled (recursive shapes). */
export function listWriter(member: MemberSchema, sparse: boolean, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const maxDepth = s.maxDepth;
  let item: Enc = writeString;
  const kind = memberKind(member, s);
  const enc: Enc = (v, d) => {
    if (!isArray(v)) throw mismatch("an array", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const n = v.length;
    if (n === 0) return "[]";
    let out = "[";
    let at = At.Start;
    let i = 0;
    try {
      for (; i < n; i++) {
        const e = v[i];
        if (kind === Kind.String && typeof e === "string") {
          out += SEPARATOR_QUOTE[at]! + stringBody(e);
          at = At.InString;
        } else if (e === null || e === undefined) {
          if (!sparse) throw new Failure("null in a non-sparse list");
          out += `${SEPARATOR[at]!}null`;
          at = At.AfterValue;
        } else {
          out += SEPARATOR[at]! + encodeAs(kind, item, e, d + 1);
          at = At.AfterValue;
        }
      }
    } catch (error) {
      throw withSegment(error, String(i));
    }
    return at === At.InString ? `${out}"]` : `${out}]`;
  };
  cache.set(s.key, enc);
  item = compileMember(member, s);
  return enc;
}

/** The encoder of a map of `member` values; registered in `cache` before its value encoder is compiled. */
export function mapWriter(member: MemberSchema, sparse: boolean, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const maxDepth = s.maxDepth;
  let value: Enc = writeString;
  const kind = memberKind(member, s);
  const enc: Enc = (v, d) => {
    if (typeof v !== "object" || v === null || isArray(v)) throw mismatch("an object", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const o = v as Obj;
    let out = "{";
    let at = At.Start;
    let key = "";
    try {
      for (key in o) {
        const e = o[key];
        if (e === undefined) continue;
        if (e === null && !sparse) throw new Failure("null in a non-sparse map");
        const open = kind === Kind.String && typeof e === "string";
        out = out + SEPARATOR_QUOTE[at]! + stringBody(key) + (open ? '":"' : '":');
        if (open) {
          out += stringBody(e);
          at = At.InString;
        } else {
          out += e === null ? "null" : encodeAs(kind, value, e, d + 1);
          at = At.AfterValue;
        }
      }
    } catch (error) {
      throw withSegment(error, key);
    }
    return at === At.InString ? `${out}"}` : `${out}}`;
  };
  cache.set(s.key, enc);
  value = compileMember(member, s);
  return enc;
}
