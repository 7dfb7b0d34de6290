// CBOR codec throughput: our schema-compiled reader and writer against raw
// cbor-x decode/encode of the equivalent plain value, in the same run.
import { interleaved } from "./timing.mjs";
import { compileReader, compileWriter } from "@anvil/codec-cbor";
import { blob, boolean, double, enumeration, integer, list, long, map, member, string, struct, timestamp } from "@anvil/core/codegenv1";
import { Decoder, Encoder } from "cbor-x";

const Status = enumeration("bench.cbor#Status", [
  { name: "ACTIVE", value: "active" },
  { name: "PAUSED", value: "paused" },
]);
const Tags = list("bench.cbor#Tags", member("member", string));
const Attributes = map("bench.cbor#Attributes", member("key", string), member("value", string));
const Reading = struct("bench.cbor#Reading", [member("at", timestamp, { required: true }), member("value", double, { required: true })]);
const Readings = list("bench.cbor#Readings", member("member", Reading));
const Item = struct("bench.cbor#Item", [
  member("id", string, { required: true }),
  member("name", string),
  member("count", integer),
  member("total", long),
  member("price", double),
  member("active", boolean),
  member("status", Status),
  member("createdAt", timestamp),
  member("tags", Tags),
  member("attributes", Attributes),
  member("readings", Readings),
  member("checksum", blob),
]);
export const Page = struct("bench.cbor#Page", [member("items", list("bench.cbor#Items", member("member", Item))), member("nextToken", string)]);

/** A deterministic page of `n` items (about 1 KB of CBOR per item). */
export function makePage(n) {
  const items = [];
  for (let i = 0; i < n; i++) {
    const readings = [];
    for (let j = 0; j < 6; j++) readings.push({ at: new Date(1_700_000_000_000 + (i * 6 + j) * 1500), value: i * 0.37 + j * 1.25 });
    items.push({
      id: `item-${i.toString(36).padStart(8, "0")}`,
      name: `Widget number ${i} with a longer descriptive name`,
      count: i * 7,
      total: i * 1_000_003,
      price: 19.99 + i,
      active: i % 3 !== 0,
      status: i % 2 ? "active" : "paused",
      createdAt: new Date(1_690_000_000_000 + i * 60_000),
      tags: ["alpha", "beta", `tag-${i % 17}`, "gamma-delta"],
      attributes: { color: i % 2 ? "red" : "blue", size: `${i % 5}`, region: "eu-west-1", owner: `team-${i % 9}` },
      readings,
      checksum: Uint8Array.from({ length: 16 }, (_, k) => (i * 31 + k) & 0xff),
    });
  }
  return { items, nextToken: "eyJvZmZzZXQiOjEwMH0=" };
}

/** Baseline vs ours: median ms per call of each and the speed ratio (baseline time / our time). */
function compare(base, ours, totalMs, rounds) {
  const [b, o] = interleaved([base, ours], totalMs, rounds);
  return { baseMs: b.ms, oursMs: o.ms, ratio: 1 / o.timeRatio };
}

export async function runCborBench({ quick }) {
  const minMs = quick ? 400 : 3000;
  // many short interleaved slices: on a shared machine, load changes hit a slice and its baseline alike
  const rounds = quick ? 15 : 75;
  const read = compileReader(Page);
  const write = compileWriter(Page);
  const encoder = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false });
  const decoder = new Decoder({ useRecords: false, mapsAsObjects: true, copyBuffers: true });
  const rows = [];
  for (const [label, n] of [
    ["~2 KB", 4],
    ["~200 KB", 440],
  ]) {
    const value = makePage(n);
    const ours = write(value);
    const plain = decoder.decode(encoder.encode(value)); // the equivalent plain value
    const raw = encoder.encode(plain);
    // sanity: we read what we wrote, and cbor-x reads it too
    if (read(ours).items.length !== n || decoder.decode(ours).items.length !== n) throw new Error("bench payload does not round-trip");
    rows.push([
      `${label} read`,
      ours.length,
      compare(
        () => decoder.decode(raw),
        () => read(ours),
        minMs,
        rounds,
      ),
    ]);
    rows.push([
      `${label} write`,
      ours.length,
      compare(
        () => encoder.encode(plain),
        () => write(value),
        minMs,
        rounds,
      ),
    ]);
  }
  console.log("\nCBOR codec — schema-compiled reader/writer vs raw cbor-x on the equivalent plain value");
  console.log(`(same run, interleaved slices; medians of ${rounds} rounds; ratio = median of per-round ratios)`);
  console.log(`${"case".padEnd(18)} ${"bytes".padStart(8)} ${"cbor-x ops/s".padStart(13)} ${"anvil ops/s".padStart(12)} ${"anvil/cbor-x".padStart(13)}`);
  for (const [name, size, { baseMs, oursMs, ratio }] of rows) {
    console.log(
      `${name.padEnd(18)} ${String(size).padStart(8)} ${(1000 / baseMs).toFixed(0).padStart(13)} ${(1000 / oursMs).toFixed(0).padStart(12)} ${`${ratio.toFixed(2)}x`.padStart(13)}`,
    );
  }
}
