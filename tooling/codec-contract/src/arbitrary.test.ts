import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BigDecimal } from "@anvil/core";
import type { StructSchema } from "@anvil/core";
import { integer, list, member, struct } from "@anvil/core/codegenv1";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbitraryFor, firstDifference } from "./arbitrary.js";

const file = fileURLToPath(new URL("./contract.smithy", import.meta.url));
const schemas = schemasFromModel(loadModel({ sources: [{ file, text: readFileSync(file, "utf8") }] }).model);
const sample = <T>(id: string, n = 500) => fc.sample(arbitraryFor(schemas.shape(id)), { numRuns: n, seed: 42 }) as T[];

describe("arbitraryFor", () => {
  it("always sets required members and sometimes leaves optional ones out", () => {
    const values = sample<Record<string, unknown>>("anvil.contract#Wire");
    expect(values.every((v) => typeof v.id === "string" && typeof v.type === "string")).toBe(true);
    expect(values.some((v) => !("other" in v))).toBe(true);
    expect(values.some((v) => "other" in v)).toBe(true);
  });

  it("keeps recursive shapes finite and bounded by maxDepth", () => {
    const depth = (t: { children?: unknown[]; parent?: unknown }): number =>
      1 + Math.max(0, ...((t.children ?? []) as never[]).map(depth), t.parent ? depth(t.parent as never) : 0);
    const trees = fc.sample(arbitraryFor(schemas.shape("anvil.contract#Tree"), { maxDepth: 4 }), { numRuns: 300, seed: 1 });
    expect(Math.max(...trees.map((t) => depth(t as never)))).toBeLessThanOrEqual(5);
    const linked: StructSchema = struct("t#Linked", [member("v", integer, { required: true }), member("next", () => linked)]);
    expect(fc.sample(arbitraryFor(linked), 50)).toHaveLength(50);
  });

  it("produces longs and bigIntegers as safe numbers or bigints, beyond 2^53, 2^63 and 2^64", () => {
    const values = sample<Record<string, unknown>>("anvil.contract#BigNumbers", 3000);
    const longs = values.map((v) => v.long).filter((v) => v !== undefined);
    const bigs = values.map((v) => v.bigInteger).filter((v) => v !== undefined);
    for (const v of [...longs, ...bigs]) {
      if (typeof v === "number") expect(Number.isSafeInteger(v)).toBe(true);
      else expect((v as bigint) > BigInt(Number.MAX_SAFE_INTEGER) || (v as bigint) < BigInt(Number.MIN_SAFE_INTEGER)).toBe(true);
    }
    expect(longs.some((v) => typeof v === "bigint")).toBe(true);
    expect(longs.every((v) => typeof v === "number" || ((v as bigint) < 2n ** 63n && (v as bigint) >= -(2n ** 63n)))).toBe(true);
    expect(bigs.some((v) => typeof v === "bigint" && (v > 2n ** 64n || v < -(2n ** 64n)))).toBe(true);
    expect(values.some((v) => BigDecimal.is(v.bigDecimal))).toBe(true);
  });

  it("tags union values with a member name", () => {
    const names = new Set((schemas.shape("anvil.contract#Choice") as StructSchema).members.map((m) => m.name));
    for (const v of sample<{ $case: string }>("anvil.contract#Choice")) expect(names.has(v.$case)).toBe(true);
  });

  it("puts odd keys in maps as own data properties", () => {
    const maps = sample<Record<string, unknown>>("anvil.contract#SparseMap", 1000);
    const proto = maps.find((m) => Object.hasOwn(m, "__proto__"));
    expect(proto).toBeDefined();
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(maps.some((m) => Object.values(m).includes(null))).toBe(true);
    expect(maps.some((m) => Object.hasOwn(m, ""))).toBe(true);
  });

  it("generates special floats, and whole seconds for http-date timestamps", () => {
    const scalars = sample<Record<string, unknown>>("anvil.contract#Scalars", 2000);
    expect(scalars.some((v) => Number.isNaN(v.double))).toBe(true);
    expect(scalars.some((v) => Object.is(v.float, -0))).toBe(true);
    const times = sample<Record<string, Date | undefined>>("anvil.contract#Times", 300);
    for (const t of times) if (t.httpDate) expect(t.httpDate.getTime() % 1000 === 0).toBe(true);
    expect(times.some((t) => t.plain && t.plain.getTime() % 1000 !== 0)).toBe(true);
  });

  it("takes enum and intEnum values from the schema", () => {
    expect(new Set(sample("anvil.contract#Color"))).toEqual(new Set(["RED", "green", "blue-ish"]));
    expect(new Set(sample("anvil.contract#Level"))).toEqual(new Set([1, 5, 2147483647, -3]));
  });

  it("works for hand-built schemas", () => {
    const s = list("t#Ints", member("member", integer));
    expect(fc.sample(arbitraryFor(s), 20).every((v) => Array.isArray(v))).toBe(true);
  });
});

describe("firstDifference", () => {
  const protoKey = JSON.parse('{"__proto__": 1}') as unknown;
  it.each<[string, unknown, unknown, boolean]>([
    ["NaN equals NaN", Number.NaN, Number.NaN, true],
    ["-0 differs from 0", -0, 0, false],
    ["a bigint never equals a number", 1n, 1, false],
    ["bigints by value", 2n ** 70n, 2n ** 70n, true],
    ["bytes by content, Buffer or not", Buffer.from([1, 2]), new Uint8Array([1, 2]), true],
    ["bytes of different content", new Uint8Array([1]), new Uint8Array([2]), false],
    ["dates by time", new Date(5), new Date(5), true],
    ["BigDecimals numerically", BigDecimal.from("1.0"), BigDecimal.from("1"), true],
    ["BigDecimal vs number", BigDecimal.from("1"), 1, false],
    ["objects ignoring key order", { a: 1, b: 2 }, { b: 2, a: 1 }, true],
    ["absent differs from undefined", {}, { a: undefined }, false],
    ["__proto__ keys as data, not prototypes", protoKey, { __proto__: { a: 1 } }, false],
    ["__proto__ keys equal", protoKey, JSON.parse('{"__proto__": 1}'), true],
    ["null vs absent", { a: null }, {}, false],
    ["arrays by length", [1], [1, 1], false],
  ])("%s", (_name, a, b, equal) => {
    expect(firstDifference(a, b) === undefined).toBe(equal);
  });
});
