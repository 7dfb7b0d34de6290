// @anvil/codec-json throughput on realistic payloads (~2 KB and ~200 KB),
// against the native JSON.parse / JSON.stringify of the same data measured in
// the same run. Reading includes validation when @anvil/core has it. Each
// figure is the median of 75 short rounds interleaved with its baseline's.
import { interleaved } from "./timing.mjs";
import { compileValidator } from "@anvil/core/protocol";
import { compileReader, compileWriter } from "@anvil/codec-json";
import { double, enumeration, integer, list, long, map, member, string, struct, timestamp, boolean } from "@anvil/core/codegenv1";

const Tag = list("bench#Tags", member("member", string));
const Attributes = map("bench#Attributes", member("key", string), member("value", string));
const Size = enumeration("bench#Size", [
  { name: "SMALL", value: "small" },
  { name: "MEDIUM", value: "medium" },
  { name: "LARGE", value: "large" },
]);
const Dimensions = struct("bench#Dimensions", [member("width", double), member("height", double), member("depth", double)]);
const Review = struct("bench#Review", [
  member("author", string, { required: true }),
  member("rating", integer, { range: { min: 1, max: 5 } }),
  member("body", string, { length: { max: 2000 } }),
  member("postedAt", timestamp, { timestampFormat: "date-time" }),
]);
const Reviews = list("bench#Reviews", member("member", Review));
const Product = struct("bench#Product", [
  member("id", string, { required: true, pattern: "^p-[0-9]+$" }),
  member("name", string, { required: true, length: { min: 1, max: 200 } }),
  member("description", string),
  member("priceCents", long),
  member("quantity", integer),
  member("weight", double),
  member("available", boolean),
  member("size", Size),
  member("createdAt", timestamp),
  member("updatedAt", timestamp, { timestampFormat: "date-time" }),
  member("tags", Tag),
  member("attributes", Attributes),
  member("dimensions", Dimensions),
  member("reviews", Reviews),
]);
const Products = list("bench#Products", member("member", Product));
const Page = struct("bench#Page", [member("items", Products, { required: true }), member("nextToken", string), member("total", integer)]);

function product(i) {
  const created = new Date(Date.UTC(2024, i % 12, (i % 28) + 1, i % 24, i % 60, i % 60));
  return {
    id: `p-${100000 + i}`,
    name: `Widget number ${i} — deluxe edition`,
    description: `A widget for every occasion. Model ${i} comes with "quotes", a backslash \\ and unicode ✓.`,
    priceCents: 1999 + i * 7,
    quantity: i % 50,
    weight: 1.25 + i / 8,
    available: i % 3 !== 0,
    size: ["small", "medium", "large"][i % 3],
    createdAt: created,
    updatedAt: new Date(created.getTime() + 86_400_500),
    tags: ["hardware", `batch-${i % 10}`, "sale"],
    attributes: { color: ["red", "green", "blue"][i % 3], finish: "matte", origin: "EU" },
    dimensions: { width: 10 + (i % 7), height: 2.5, depth: 0.75 * (i % 4) },
    reviews: Array.from({ length: i % 3 }, (_, k) => ({
      author: `user${k}@example.com`,
      rating: 1 + ((i + k) % 5),
      body: "Works as described. Would buy again.",
      postedAt: new Date(created.getTime() + k * 3_600_000),
    })),
  };
}

/** The wire form a restJson1 peer sends: epoch-seconds and date-time timestamps as JSON. */
function wireOf(value) {
  return compileWriter(Page)(value);
}

/** Times a baseline (first) and candidates in interleaved rounds: median ms and median time ratio to the baseline. */
function timeAll(fns, totalMs, rounds) {
  return interleaved(fns, totalMs, rounds).map((r) => ({ ms: r.ms, ratio: r.timeRatio }));
}

export async function runJsonBench({ quick }) {
  const minMs = quick ? 300 : 3000;
  const read = compileReader(Page);
  const write = compileWriter(Page);
  const validate = compileValidator(Page);

  const cases = [];
  for (const target of [2_000, 200_000]) {
    const items = [];
    let text = "";
    for (let i = 0; Buffer.byteLength(text) < target; i++) {
      items.push(product(i));
      text = wireOf({ items, nextToken: "abc", total: items.length });
    }
    const value = { items, nextToken: "abc", total: items.length };
    const plain = JSON.parse(text); // the equivalent plain object, as JSON.stringify's baseline input
    const kb = Buffer.byteLength(text) / 1024;
    // many short interleaved slices: on a shared machine, load changes hit a slice and its baseline alike
    const rounds = quick ? 5 : 75;
    const [parse, read_, readValidate] = timeAll([() => JSON.parse(text), () => read(text), () => validate(read(text))], minMs, rounds);
    const [stringify, write_] = timeAll([() => JSON.stringify(plain), () => write(value)], minMs, rounds);
    cases.push({ kb, items: items.length, parse, read: read_, readValidate, stringify, write: write_ });
  }

  console.log("\nJSON codec — a page of products (strings, numbers, timestamps, nested lists and maps)");
  console.log(`${"case".padEnd(44)} ${"ops/s".padStart(10)} ${"MB/s".padStart(8)} ${"vs baseline".padStart(12)}`);
  for (const c of cases) {
    const label = `${c.kb.toFixed(1)} KB, ${c.items} items`;
    const mb = c.kb / 1024;
    const row = (name, { ms, ratio }) =>
      console.log(
        `${`${label}: ${name}`.padEnd(44)} ${(1000 / ms).toFixed(0).padStart(10)} ${(mb / (ms / 1000)).toFixed(1).padStart(8)} ${`${ratio.toFixed(2)}x time`.padStart(12)}`,
      );
    row("JSON.parse (baseline)", c.parse);
    row("anvil read", c.read);
    if (c.readValidate !== undefined) row("anvil read + validate", c.readValidate);
    row("JSON.stringify (baseline)", c.stringify);
    row("anvil write", c.write);
  }
}
