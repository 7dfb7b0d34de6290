/** The converters of unions: tagged by member name, and alloy's discriminated and untagged encodings. */
import type { UnionSchema } from "@anvil/core";
import { Failure, mismatch, withSegment } from "../failure.js";
import { RawNumber } from "../numbers.js";
import { wireName } from "../schema-info.js";
import type { ResolvedSettings } from "../settings.js";
import { compileMember } from "./compile.js";
import { documentReader } from "./document.js";
import type { Conv } from "./pass.js";
import { readString } from "./scalars.js";

type Obj = Record<string, unknown>;

const hasOwn = Object.hasOwn as (o: object, k: string) => boolean;
const isArray = Array.isArray;

interface Variants {
  names: string[];
  wires: string[];
  readers: Conv[];
  /** Wire name → index. */
  index: Record<string, number>;
  /** The `@alloy#jsonUnknown` document member that takes unknown variants, or -1. */
  unknownIndex: number;
}

function variantsOf(schema: UnionSchema<unknown>, s: ResolvedSettings): Variants {
  const members = schema.members;
  const index: Record<string, number> = Object.create(null);
  const names: string[] = [];
  const wires: string[] = [];
  const readers: Conv[] = [];
  let unknownIndex = -1;
  for (let i = 0; i < members.length; i++) {
    const m = members[i]!;
    names.push(m.name);
    wires.push(wireName(m, s));
    index[wires[i]!] = i;
    readers.push(readString);
    if (s.alloyTraits && m.traits.jsonUnknown && m.target.kind === "document" && unknownIndex < 0) unknownIndex = i;
  }
  return { names, wires, readers, index, unknownIndex };
}

function fillVariants(schema: UnionSchema<unknown>, variants: Variants, s: ResolvedSettings): void {
  for (let i = 0; i < schema.members.length; i++) variants.readers[i] = compileMember(schema.members[i]!, s);
}

/** The converter of a union in Smithy's JSON form: an object with one member set (`__type` ignored). */
export function unionReader(schema: UnionSchema<unknown>, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const maxDepth = s.maxDepth;
  const vs = variantsOf(schema, s);
  const { names, readers, index, unknownIndex } = vs;
  const doc = documentReader(maxDepth);
  const strict = s.strict;
  const conv: Conv = (v, d, p) => {
    if (typeof v !== "object" || v === null || isArray(v) || v instanceof RawNumber) throw mismatch("an object", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const o = v as Obj;
    let wire: string | undefined;
    for (const key in o) {
      if (key === "__type" || o[key] === null) continue;
      if (wire !== undefined) throw new Failure("union has more than one member set");
      wire = key;
    }
    if (wire === undefined) throw new Failure("union has no member set");
    const i = index[wire];
    try {
      if (i === undefined) {
        if (unknownIndex >= 0) return { $case: names[unknownIndex], value: doc(o, d, p) };
        if (strict) throw new Failure("unknown union member");
        return { $case: "$unknown", name: wire, value: doc(o[wire], d + 1, p) };
      }
      return { $case: names[i], value: readers[i]!(o[wire], d + 1, p) };
    } catch (error) {
      throw withSegment(error, wire);
    }
  };
  cache.set(s.key, conv);
  fillVariants(schema, vs, s);
  return conv;
}

/** The converter of an `@alloy#discriminated` union: the variant named by a field of the structure itself. */
export function discriminatedReader(schema: UnionSchema<unknown>, discriminator: string, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const maxDepth = s.maxDepth;
  const vs = variantsOf(schema, s);
  const { names, readers, index, unknownIndex } = vs;
  const doc = documentReader(maxDepth);
  const strict = s.strict;
  const conv: Conv = (v, d, p) => {
    if (typeof v !== "object" || v === null || isArray(v) || v instanceof RawNumber) throw mismatch("an object", v);
    const o = v as Obj;
    const tag = hasOwn(o, discriminator) ? o[discriminator] : undefined;
    if (typeof tag !== "string") throw withSegment(mismatch("a discriminator string", tag), discriminator);
    const i = index[tag];
    if (i === undefined || i === unknownIndex) {
      if (unknownIndex >= 0) return { $case: names[unknownIndex], value: doc(o, d, p) };
      if (strict) throw withSegment(new Failure("unknown union member"), discriminator);
      return { $case: "$unknown", name: tag, value: doc(o, d, p) };
    }
    return { $case: names[i], value: readers[i]!(o, d, p) };
  };
  cache.set(s.key, conv);
  fillVariants(schema, vs, s);
  return conv;
}

/** The converter of an `@alloy#untagged` union: the first variant that reads the value. */
export function untaggedReader(schema: UnionSchema<unknown>, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const vs = variantsOf(schema, s);
  const { names, readers } = vs;
  const n = names.length;
  // Structure variants match only when their required members are present, so
  // that a variant ignoring unknown members does not swallow every object.
  const required: string[][] = schema.members.map((m) =>
    m.target.kind === "structure" ? m.target.members.filter((x) => x.traits.required && x.traits.default === undefined).map((x) => wireName(x, s)) : [],
  );
  const conv: Conv = (v, d, p) => {
    for (let i = 0; i < n; i++) {
      const req = required[i]!;
      if (req.length > 0) {
        if (typeof v !== "object" || v === null) continue;
        let ok = true;
        for (let k = 0; k < req.length; k++) if (!hasOwn(v, req[k]!) || (v as Obj)[req[k]!] === null) ok = false;
        if (!ok) continue;
      }
      // A variant that fails must leave the value as it found it for the next one.
      const outer = p.owned;
      p.owned = false;
      try {
        return { $case: names[i], value: readers[i]!(v, d, p) };
      } catch (error) {
        if (!(error instanceof Failure)) throw error;
      } finally {
        p.owned = outer;
      }
    }
    throw new Failure("no variant of the untagged union matches");
  };
  cache.set(s.key, conv);
  fillVariants(schema, vs, s);
  return conv;
}
