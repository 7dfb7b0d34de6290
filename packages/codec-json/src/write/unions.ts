/** The encoders of unions: tagged by member name, and alloy's discriminated and untagged encodings. */
import type { UnionSchema } from "@anvil/core";
import { Failure, mismatch, withSegment } from "../failure.js";
import { wireName } from "../schema-info.js";
import type { ResolvedSettings } from "../settings.js";
import { compileMember } from "./compile.js";
import { documentWriter } from "./document.js";
import type { Enc } from "./enc.js";
import { writeString } from "./scalars.js";
import { quote } from "./strings.js";

type Obj = Record<string, unknown>;

const isArray = Array.isArray;

interface Variants {
  names: string[];
  wires: string[];
  writers: Enc[];
  /** Member name → index. */
  index: Record<string, number>;
  unknownIndex: number;
}

function variantsOf(schema: UnionSchema<unknown>, s: ResolvedSettings): Variants {
  const index: Record<string, number> = Object.create(null);
  const names: string[] = [];
  const wires: string[] = [];
  const writers: Enc[] = [];
  let unknownIndex = -1;
  for (let i = 0; i < schema.members.length; i++) {
    const m = schema.members[i]!;
    names.push(m.name);
    wires.push(wireName(m, s));
    index[m.name] = i;
    writers.push(writeString);
    if (s.alloyTraits && m.traits.jsonUnknown && m.target.kind === "document" && unknownIndex < 0) unknownIndex = i;
  }
  return { names, wires, writers, index, unknownIndex };
}

function fillVariants(schema: UnionSchema<unknown>, vs: Variants, s: ResolvedSettings): void {
  for (let i = 0; i < schema.members.length; i++) vs.writers[i] = compileMember(schema.members[i]!, s);
}

/** Reads `$case` and checks the union value's shape; returns the variant index, or -1 for `$unknown`. */
function caseOf(v: unknown, index: Record<string, number>): number {
  if (typeof v !== "object" || v === null || isArray(v)) throw mismatch("a union value ({ $case, value })", v);
  const c = (v as Obj).$case;
  if (c === "$unknown") return -1;
  if (typeof c !== "string") throw mismatch("a $case string", c);
  const i = index[c];
  if (i === undefined) throw new Failure(`unknown union member "${c}"`);
  return i;
}

/** The encoder of a union in Smithy's JSON form: an object with one member set. */
export function unionWriter(schema: UnionSchema<unknown>, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const maxDepth = s.maxDepth;
  const vs = variantsOf(schema, s);
  const { wires, writers, index, unknownIndex } = vs;
  const keys = wires.map((w) => `{${quote(w)}:`);
  const doc = documentWriter(maxDepth);
  const enc: Enc = (v, d) => {
    const i = caseOf(v, index);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const value = (v as Obj).value;
    if (i < 0) {
      const name = (v as Obj).name;
      if (typeof name !== "string") throw mismatch("the unknown variant's name", name);
      return `{${quote(name)}:${doc(value, d + 1)}}`;
    }
    if (i === unknownIndex) return doc(value, d);
    try {
      if (value === undefined || value === null) throw new Failure("union value is missing");
      return `${keys[i]!}${writers[i]!(value, d + 1)}}`;
    } catch (error) {
      throw withSegment(error, wires[i]!);
    }
  };
  cache.set(s.key, enc);
  fillVariants(schema, vs, s);
  return enc;
}

/** The encoder of an `@alloy#discriminated` union: the variant's structure with the discriminator field added. */
export function discriminatedWriter(schema: UnionSchema<unknown>, discriminator: string, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const maxDepth = s.maxDepth;
  const vs = variantsOf(schema, s);
  const { wires, writers, index, unknownIndex } = vs;
  const heads = wires.map((w) => `{${quote(discriminator)}:${quote(w)}`);
  const doc = documentWriter(maxDepth);
  const enc: Enc = (v, d) => {
    const i = caseOf(v, index);
    const value = (v as Obj).value;
    if (i < 0) {
      const name = (v as Obj).name;
      if (typeof name !== "string") throw mismatch("the unknown variant's name", name);
      if (typeof value !== "object" || value === null || isArray(value)) throw mismatch("an object", value);
      return splice(`{${quote(discriminator)}:${quote(name)}`, doc({ ...(value as Obj), [discriminator]: undefined }, d));
    }
    if (i === unknownIndex) return doc(value, d);
    return splice(heads[i]!, writers[i]!(value, d));
  };
  cache.set(s.key, enc);
  fillVariants(schema, vs, s);
  return enc;
}

/** `{"k":"v"` + `{...}` → `{"k":"v",...}`. */
function splice(head: string, body: string): string {
  return body === "{}" ? `${head}}` : `${head},${body.slice(1)}`;
}

/** The encoder of an `@alloy#untagged` union: the variant's value alone. */
export function untaggedWriter(schema: UnionSchema<unknown>, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const vs = variantsOf(schema, s);
  const { writers, index } = vs;
  const doc = documentWriter(s.maxDepth);
  const enc: Enc = (v, d) => {
    const i = caseOf(v, index);
    const value = (v as Obj).value;
    if (i < 0) return doc(value, d);
    return writers[i]!(value, d);
  };
  cache.set(s.key, enc);
  fillVariants(schema, vs, s);
  return enc;
}
