/**
 * Checks Anvil's own prelude and bundled trait models (prelude/, traits/)
 * against the upstream definitions kept in the shared conformance corpus:
 * every shape upstream defines must exist here with the same type, the same
 * members and member targets, the same trait ids (documentation-only traits
 * aside) and the same trait definition (selector, structurallyExclusive,
 * conflicts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadModel } from "./index.js";
import { parseModelFile } from "./load-model.js";
import { SyntacticShapeId } from "./loader/draft.js";
import type { NodeValue } from "./node-value.js";
import type { Shape } from "./shape.js";

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, "../../../../shared/conformance");
const upstreamPrelude = join(corpus, "prelude/prelude.smithy");
const upstreamTraits = join(corpus, "traits");

/** Traits that only document a shape; ours carry our own wording or none. */
const DOC_TRAITS = new Set(["smithy.api#documentation", "smithy.api#externalDocumentation", "smithy.api#since"]);

function smithyFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...smithyFiles(path));
    else if (name.endsWith(".smithy")) out.push(path);
  }
  return out;
}

interface Flat {
  type: string;
  traits: Set<string>;
  traitDef: NodeValue | undefined;
  members: Map<string, { target: string; traits: Set<string> }>;
}

function traitIds(traits: Map<string, NodeValue>, map: (id: string) => string): Set<string> {
  return new Set([...traits.keys()].map(map).filter((id) => !DOC_TRAITS.has(id)));
}

/** Shape with the traits and members it gets from its mixins (if the loader did not flatten them). */
function flatten(shapes: ReadonlyMap<string, Shape>, shape: Shape, map: (id: string) => string): Flat {
  const traits = traitIds(shape.traits, map);
  const members = new Map<string, { target: string; traits: Set<string> }>();
  for (const mixinId of shape.mixins) {
    const mixin = shapes.get(mixinId);
    if (!mixin) continue;
    const inherited = flatten(shapes, mixin, map);
    const local = new Set<string>(["smithy.api#mixin"]);
    const mixinValue = mixin.traits.get(mapBack(map, "smithy.api#mixin", mixin.traits));
    if (mixinValue && typeof mixinValue === "object" && !Array.isArray(mixinValue)) {
      const lt = mixinValue["localTraits"];
      if (Array.isArray(lt)) for (const id of lt) if (typeof id === "string") local.add(map(id));
    }
    for (const id of inherited.traits) if (!local.has(id)) traits.add(id);
    for (const [name, m] of inherited.members) members.set(name, { target: m.target, traits: new Set(m.traits) });
  }
  for (const [name, member] of shape.members) {
    const entry = members.get(name) ?? { target: map(member.target), traits: new Set<string>() };
    entry.target = map(member.target);
    for (const id of traitIds(member.traits, map)) entry.traits.add(id);
    members.set(name, entry);
  }
  const traitDef = [...shape.traits.entries()].find(([id]) => map(id) === "smithy.api#trait")?.[1];
  return { type: shape.type, traits, traitDef, members };
}

function mapBack(map: (id: string) => string, id: string, traits: Map<string, NodeValue>): string {
  for (const key of traits.keys()) if (map(key) === id) return key;
  return id;
}

/** The parts of a trait definition that drive validation, with selectors compared modulo whitespace. */
function definitionSummary(value: NodeValue | undefined, map: (id: string) => string): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value ?? null;
  const selector = typeof value["selector"] === "string" ? normalizeSelector(value["selector"]) : null;
  const conflicts = Array.isArray(value["conflicts"]) ? value["conflicts"].map((c) => (typeof c === "string" ? map(c) : c)).sort() : [];
  return { selector, structurallyExclusive: value["structurallyExclusive"] ?? null, conflicts };
}

function normalizeSelector(selector: string): string {
  return selector
    .replace(/\s+/g, " ")
    .replace(/\(\s+/g, "(")
    .replace(/\s+\)/g, ")")
    .replace(/\s*,\s*/g, ", ")
    .trim();
}

function compare(theirs: ReadonlyMap<string, Shape>, ours: ReadonlyMap<string, Shape>, ids: Iterable<string>, mapTheirs: (id: string) => string): string[] {
  const problems: string[] = [];
  const same = (id: string) => id;
  for (const theirId of ids) {
    const id = mapTheirs(theirId);
    const theirShape = theirs.get(theirId)!;
    const ourShape = ours.get(id);
    if (!ourShape) {
      problems.push(`${id}: missing`);
      continue;
    }
    const a = flatten(theirs, theirShape, mapTheirs);
    const b = flatten(ours, ourShape, same);
    if (a.type !== b.type) problems.push(`${id}: type ${b.type}, upstream ${a.type}`);
    const traitDiff = [...a.traits].filter((t) => !b.traits.has(t)).concat([...b.traits].filter((t) => !a.traits.has(t)));
    if (traitDiff.length) problems.push(`${id}: trait ids differ: ${traitDiff.sort().join(", ")}`);
    const aNames = [...a.members.keys()].sort();
    const bNames = [...b.members.keys()].sort();
    if (aNames.join() !== bNames.join()) {
      problems.push(`${id}: members [${bNames.join(", ")}], upstream [${aNames.join(", ")}]`);
    }
    for (const [name, am] of a.members) {
      const bm = b.members.get(name);
      if (!bm) continue;
      if (am.target !== bm.target) problems.push(`${id}$${name}: target ${bm.target}, upstream ${am.target}`);
      const diff = [...am.traits].filter((t) => !bm.traits.has(t)).concat([...bm.traits].filter((t) => !am.traits.has(t)));
      if (diff.length) problems.push(`${id}$${name}: trait ids differ: ${diff.sort().join(", ")}`);
    }
    if (a.traitDef !== undefined || b.traitDef !== undefined) {
      const ad = JSON.stringify(definitionSummary(a.traitDef, mapTheirs));
      const bd = JSON.stringify(definitionSummary(b.traitDef, same));
      if (ad !== bd) problems.push(`${id}: trait definition ${bd}, upstream ${ad}`);
    }
  }
  return problems;
}

describe.skipIf(!existsSync(upstreamPrelude) || !existsSync(upstreamTraits))("bundled traits match upstream", () => {
  const ours = loadModel({ bundledTraits: true, validate: false }).model.shapes;

  it("defines every upstream prelude shape the same way", () => {
    // The upstream prelude cannot be assembled next to ours (both define smithy.api), so
    // compare its parsed drafts, whose relative references all mean smithy.api shapes.
    const draft = parseModelFile(upstreamPrelude, readFileSync(upstreamPrelude, "utf8"));
    expect(draft.events.filter((e) => e.severity === "ERROR")).toEqual([]);
    const abs = (text: string) => (text.includes("#") ? text : `smithy.api#${text}`);
    const problems: string[] = [];
    for (const d of draft.shapes) {
      const mine = ours.get(d.id);
      if (!mine) {
        problems.push(`${d.id}: missing`);
        continue;
      }
      if (mine.type !== d.type) problems.push(`${d.id}: type ${mine.type}, upstream ${d.type}`);
      const theirTraits = new Set(d.traits.map((t) => abs(t.name.text)).filter((t) => !DOC_TRAITS.has(t)));
      const myTraits = traitIds(mine.traits, (id) => id);
      const diff = [...theirTraits].filter((t) => !myTraits.has(t)).concat([...myTraits].filter((t) => !theirTraits.has(t)));
      if (diff.length) problems.push(`${d.id}: trait ids differ: ${diff.sort().join(", ")}`);
      const theirMembers = d.members.map((m) => m.name).sort();
      const myMembers = [...mine.members.keys()].sort();
      if (theirMembers.join() !== myMembers.join()) problems.push(`${d.id}: members [${myMembers.join(", ")}], upstream [${theirMembers.join(", ")}]`);
      for (const m of d.members) {
        const my = mine.members.get(m.name);
        if (my && m.target && abs(m.target.text) !== my.target) problems.push(`${d.id}$${m.name}: target ${my.target}, upstream ${abs(m.target.text)}`);
      }
      const traitDraft = d.traits.find((t) => abs(t.name.text) === "smithy.api#trait");
      if (traitDraft) {
        const value = traitDraft.value;
        const theirs = value && typeof value === "object" && !Array.isArray(value) && !(value instanceof SyntacticShapeId) ? value : {};
        const mineDef = mine.traits.get("smithy.api#trait");
        const norm = (v: unknown) => (typeof v === "string" ? normalizeSelector(v) : null);
        const mySelector = mineDef && typeof mineDef === "object" && !Array.isArray(mineDef) ? norm(mineDef["selector"]) : null;
        if (norm(theirs["selector"]) !== mySelector) problems.push(`${d.id}: selector ${mySelector}, upstream ${norm(theirs["selector"])}`);
      }
    }
    expect(draft.shapes.length).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });

  it("defines every upstream trait-model shape the same way", () => {
    const files = smithyFiles(upstreamTraits);
    const theirs = loadModel({ paths: files, bundledTraits: false, validate: false }).model.shapes;
    const namespaces = new Set<string>();
    for (const file of files) {
      const ns = /^namespace\s+(\S+)/m.exec(readFileSync(file, "utf8"))?.[1];
      if (ns) namespaces.add(ns);
    }
    const ids = [...theirs.keys()].filter((id) => namespaces.has(id.slice(0, id.indexOf("#"))));
    expect(ids.length).toBeGreaterThan(100);
    expect(compare(theirs, ours, ids, (id) => id)).toEqual([]);
  });
});
