/**
 * A validator only tests a value, and runs its reporting walk when the test
 * fails: the two must agree. Random values (a seeded generator: the same
 * cases every run) against a schema with every kind of constraint.
 */
import { describe, expect, it } from "vitest";
import { enumeration, float, integer, intEnum, list, long, map, member, string, struct, union } from "../schema/builders.js";
import type { Schema } from "../schema/schema.js";
import { acquire, release } from "./context.js";
import { compileRule } from "./validator.js";

const Color = enumeration("test#Color", [
  { name: "RED", value: "red" },
  { name: "GREEN", value: "green" },
]);
const Level = intEnum("test#Level", [
  { name: "LOW", value: 1 },
  { name: "HIGH", value: 9 },
]);
const Leaf = struct("test#Leaf", [
  member("name", string, { required: true, length: { min: 1, max: 3 } }),
  member("code", string, { pattern: "^[a-c]+$" }),
  member("n", integer, { range: { min: 0, max: 5 } }),
  member("big", long, { range: { max: 10n } }),
  member("f", float, { range: { min: 0.5 } }),
  member("color", Color),
  member("level", Level),
  member("maybe", string, { required: true, nullable: true }),
]);
const Leaves = list("test#Leaves", member("member", Leaf), { length: { max: 2 } });
const Tags = list("test#Tags", member("member", string, { length: { max: 2 } }), { uniqueItems: true, sparse: true });
const ByKey = map("test#ByKey", member("key", string, { pattern: "^k" }), member("value", Leaf), { length: { min: 1 } });
const Choice = union("test#Choice", [member("leaf", Leaf), member("tag", string, { length: { min: 2 } })]);
const Root: Schema = struct("test#Root", [
  member("id", string, { required: true }),
  member("leaves", Leaves),
  member("tags", Tags),
  member("byKey", ByKey),
  member("choice", Choice),
  member("leaf", Leaf),
]);

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generator(next: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  /** Mostly a value from `good`, now and then one from `any`. */
  const mostly = <T>(good: readonly T[], any: readonly T[]): T => (next() < 0.97 ? pick(good) : pick(any));
  /** Absent half of the time, now and then null. */
  const optional = <T>(make: () => T): T | undefined | null => (next() < 0.5 ? undefined : next() < 0.03 ? null : make());
  const required = <T>(make: () => T): T | undefined | null => (next() < 0.03 ? pick([undefined, null]) : make());
  const str = (good: readonly string[]) => mostly(good, ["", "a", "abcd", "k1", "x", "blue", "👍👍", "ab"]);
  const count = (max: number) => Math.floor(next() * (max + 1));
  const leaf = () => ({
    name: required(() => str(["a", "ab", "abc", "👍"])),
    code: optional(() => str(["a", "abc"])),
    n: optional(() => mostly([0, 3, 5], [-1, 6, 2.5, NaN])),
    big: optional(() => mostly([1, 10, 10n], [11, 11n, 2n ** 70n])),
    f: optional(() => mostly([0.5, 1, Math.fround(0.5)], [0.4, NaN])),
    color: optional(() => str(["red", "green"])),
    level: optional(() => mostly([1, 9], [2])),
    ...(next() < 0.97 ? { maybe: pick([null, "x"]) } : {}),
  });
  const root = () => ({
    id: required(() => str(["a"])),
    leaves: optional(() => Array.from({ length: mostly([0, 1, 2], [3]) }, leaf)),
    tags: optional(() => Array.from({ length: count(3) }, (_, i) => (next() < 0.2 ? null : mostly([`t${i}`], ["t0", "abc"])))),
    byKey: optional(() => Object.fromEntries(Array.from({ length: mostly([1, 2], [0]) }, (_, i) => [mostly([`k${i}`], ["x"]), leaf()]))),
    choice: optional(() => (next() < 0.5 ? { $case: "leaf", value: leaf() } : { $case: pick(["tag", "$unknown"]), value: str(["ab", "abc"]) })),
    leaf: optional(leaf),
  });
  return root;
}

describe("test and check", () => {
  it("agree on random values", () => {
    const rule = compileRule(Root)!;
    const root = generator(random(42));
    let invalid = 0;
    for (let i = 0; i < 3000; i++) {
      const value = root();
      const ctx = acquire();
      rule.check(value, ctx);
      const violations = release(ctx);
      expect(
        rule.test(value),
        JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v)),
      ).toBe(violations.length === 0);
      if (violations.length > 0) invalid++;
    }
    // Both outcomes are well represented.
    expect(invalid).toBeGreaterThan(300);
    expect(invalid).toBeLessThan(2700);
  });
});
