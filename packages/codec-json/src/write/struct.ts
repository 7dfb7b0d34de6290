/** The encoder of structures: members in schema order, keys quoted at compile time. */
import type { StructSchema } from "@anvil/core";
import { Failure, mismatch, withSegment } from "../failure.js";
import { isPrototypeName, wireName } from "../schema-info.js";
import type { ResolvedSettings } from "../settings.js";
import { dateTimeText } from "../timestamps.js";
import { compileMember } from "./compile.js";
import { documentWriter } from "./document.js";
import type { Enc } from "./enc.js";
import { At, encodeAs, Kind, memberKind, SEPARATOR } from "./inline-kinds.js";
import { writeString } from "./scalars.js";
import { quote, stringBody } from "./strings.js";

type Obj = Record<string, unknown>;

const hasOwn = Object.hasOwn as (o: object, k: string) => boolean;
const isArray = Array.isArray;

/** The encoder of a structure; registered in `cache` before its members' encoders are compiled (recursive shapes). */
export function structWriter(schema: StructSchema<unknown>, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const maxDepth = s.maxDepth;
  const members = schema.members.filter((m) => !m.traits.streaming);
  const n = members.length;
  const names: string[] = [];
  const wires: string[] = [];
  // What goes before member i's value at `at * n + i`, by where the text stands (At.Start: `"wire":`,
  // At.AfterValue: `,"wire":`, At.InString: `","wire":`); `openKeys` add the opening quote of a string value.
  const keys: string[] = [];
  const openKeys: string[] = [];
  const writers: Enc[] = [];
  const kinds: number[] = [];
  const guarded: boolean[] = [];
  const nullable: boolean[] = [];
  const known: Record<string, true> = Object.create(null);
  let unknownIndex = -1;
  for (let i = 0; i < n; i++) {
    const m = members[i]!;
    names.push(m.name);
    const wire = wireName(m, s);
    wires.push(wire);
    guarded.push(isPrototypeName(m.name));
    nullable.push(s.alloyTraits && m.traits.nullable === true);
    known[wire] = true;
    if (s.alloyTraits && m.traits.jsonUnknown && m.target.kind === "map" && unknownIndex < 0) unknownIndex = i;
    writers.push(writeString);
    kinds.push(memberKind(m, s));
  }
  for (let at = At.Start; at <= At.InString; at++) {
    for (const wire of wires) {
      keys.push(`${SEPARATOR[at]!}${quote(wire)}:`);
      openKeys.push(`${SEPARATOR[at]!}${quote(wire)}:"`);
    }
  }
  const doc = documentWriter(maxDepth);

  // Every concatenation allocates (a rope node), so text is appended in as few pieces as possible.
  const enc: Enc = (v, d) => {
    if (typeof v !== "object" || v === null || isArray(v)) throw mismatch("an object", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const o = v as Obj;
    let out = "{";
    let at = At.Start;
    let i = 0;
    try {
      for (; i < n; i++) {
        const x = guarded[i] ? (hasOwn(o, names[i]!) ? o[names[i]!] : undefined) : o[names[i]!];
        if (x === undefined || i === unknownIndex) continue;
        if (x === null) {
          if (nullable[i]) {
            out += `${keys[at * n + i]!}null`;
            at = At.AfterValue;
          }
          continue;
        }
        const kind = kinds[i]!;
        if (kind === Kind.String) {
          if (typeof x === "string") {
            out = out + openKeys[at * n + i]! + stringBody(x);
            at = At.InString;
            continue;
          }
        } else if (kind === Kind.DateTime && x instanceof Date) {
          const text = dateTimeText(x.getTime(), false);
          if (text !== undefined) {
            out = out + openKeys[at * n + i]! + text;
            at = At.InString;
            continue;
          }
        }
        out = out + keys[at * n + i]! + encodeAs(kind, writers[i]!, x, d + 1);
        at = At.AfterValue;
      }
    } catch (error) {
      throw withSegment(error, wires[i]!);
    }
    if (unknownIndex >= 0) {
      const extra = o[names[unknownIndex]!];
      if (typeof extra === "object" && extra !== null) {
        let key = "";
        try {
          for (key in extra as Obj) {
            const e = (extra as Obj)[key];
            if (e === undefined || known[key] === true) continue;
            out = out + SEPARATOR[at]! + quote(key) + ":" + doc(e, d + 1);
            at = At.AfterValue;
          }
        } catch (error) {
          throw withSegment(error, key);
        }
      }
    }
    return at === At.InString ? `${out}"}` : `${out}}`;
  };
  cache.set(s.key, enc);
  for (let i = 0; i < n; i++) writers[i] = compileMember(members[i]!, s);
  return enc;
}
