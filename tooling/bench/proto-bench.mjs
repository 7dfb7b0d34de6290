// Protobuf codec throughput: our schema-compiled reader and writer against
// protobufjs (reflection Type.encode/decode, the code it generates at run time)
// on the same message, loaded from the .proto that emitProto writes for it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { blob, boolean, double, enumeration, integer, list, long, map, member, operation, service, string, struct, timestamp } from "@anvil/core/codegenv1";
import { emitProto } from "@anvil/protocol-grpc";
import { compileProtobufReader, compileProtobufWriter } from "@anvil/protocol-grpc/protobuf";
import protobuf from "protobufjs";
import { interleaved } from "./timing.mjs";

const i = (n, extra = {}) => ({ protoIndex: n, ...extra });
const Status = enumeration("bench.proto#Status", [
  { name: "ACTIVE", value: "active" },
  { name: "PAUSED", value: "paused" },
]);
const Tags = list("bench.proto#Tags", member("member", string));
const Attributes = map("bench.proto#Attributes", member("key", string), member("value", string));
const Reading = struct("bench.proto#Reading", [member("at", timestamp, i(1, { required: true })), member("value", double, i(2, { required: true }))]);
const Readings = list("bench.proto#Readings", member("member", Reading));
const Samples = list("bench.proto#Samples", member("member", integer));
const Item = struct("bench.proto#Item", [
  member("id", string, i(1, { required: true })),
  member("name", string, i(2)),
  member("count", integer, i(3)),
  member("total", long, i(4)),
  member("price", double, i(5)),
  member("active", boolean, i(6)),
  member("status", Status, i(7)),
  member("createdAt", timestamp, i(8)),
  member("tags", Tags, i(9)),
  member("attributes", Attributes, i(10)),
  member("readings", Readings, i(11)),
  member("checksum", blob, i(12)),
  member("samples", Samples, i(13)),
]);
export const Page = struct("bench.proto#Page", [member("items", list("bench.proto#Items", member("member", Item)), i(1)), member("nextToken", string, i(2))]);
const Bench = service("bench.proto#Bench", { version: "1", operations: { get: operation("bench.proto#Get", { input: Page, output: Page }) } });

/** A deterministic page of `n` items, in Anvil's value model. */
export function makePage(n) {
  const items = [];
  for (let k = 0; k < n; k++) {
    const readings = [];
    for (let j = 0; j < 6; j++) readings.push({ at: new Date(1_700_000_000_000 + (k * 6 + j) * 1500), value: k * 0.37 + j * 1.25 });
    items.push({
      id: `item-${k.toString(36).padStart(8, "0")}`,
      name: `Widget number ${k} with a longer descriptive name`,
      count: k * 7,
      total: k * 1_000_003,
      price: 19.99 + k,
      active: k % 3 !== 0,
      status: k % 2 ? "active" : "paused",
      createdAt: new Date(1_690_000_000_000 + k * 60_000),
      tags: ["alpha", "beta", `tag-${k % 17}`, "gamma-delta"],
      attributes: { color: k % 2 ? "red" : "blue", size: `${k % 5}`, region: "eu-west-1", owner: `team-${k % 9}` },
      readings,
      checksum: Uint8Array.from({ length: 16 }, (_, b) => (k * 31 + b) & 0xff),
      samples: Array.from({ length: 8 }, (_, s) => (k * 13 + s * 101) % 5000),
    });
  }
  return { items, nextToken: "eyJvZmZzZXQiOjEwMH0=" };
}

/** The same page as protobufjs messages take it: timestamps as { seconds, nanos }, enums as numbers. */
function toProtobufjs(page) {
  const ts = (d) => ({ seconds: Math.floor(d.getTime() / 1000), nanos: (d.getTime() % 1000) * 1e6 });
  return {
    nextToken: page.nextToken,
    items: page.items.map((it) => ({
      ...it,
      status: it.status === "active" ? 0 : 1,
      createdAt: ts(it.createdAt),
      readings: it.readings.map((r) => ({ at: ts(r.at), value: r.value })),
    })),
  };
}

/** One-kind pages (50 items) that show where decode time goes, by what the items hold. */
const KINDS = [
  [
    "scalars",
    [member("a", string, i(1)), member("b", integer, i(2)), member("c", double, i(3)), member("d", long, i(4))],
    (k) => ({ a: `item-${k}`, b: k, c: k + 0.5, d: k * 1000 }),
    (v) => v,
  ],
  [
    "maps",
    [member("m", map("bench.proto#KindMap", member("key", string), member("value", string)), i(1))],
    (k) => ({ m: { color: "red", size: `${k}`, region: "eu" } }),
    (v) => v,
  ],
  [
    "nested",
    [member("r", list("bench.proto#KindRs", member("member", struct("bench.proto#KindR", [member("v", double, i(1))]))), i(1))],
    (k) => ({ r: [{ v: 1 }, { v: 2 }, { v: k }] }),
    (v) => v,
  ],
  [
    "timestamps",
    [member("t", timestamp, i(1)), member("u", timestamp, i(2))],
    (k) => ({ t: new Date(1.7e12 + k), u: new Date(1.6e12 + k) }),
    (v) => ({
      t: { seconds: Math.floor(v.t.getTime() / 1000), nanos: (v.t.getTime() % 1000) * 1e6 },
      u: { seconds: Math.floor(v.u.getTime() / 1000), nanos: (v.u.getTime() % 1000) * 1e6 },
    }),
  ],
];

/** Baseline vs ours: median ms per call of each and the speed ratio (baseline time / our time). */
function compare(base, ours, totalMs, rounds) {
  const [b, o] = interleaved([base, ours], totalMs, rounds);
  return { baseMs: b.ms, oursMs: o.ms, ratio: 1 / o.timeRatio };
}

export async function runProtoBench({ quick }) {
  const minMs = quick ? 400 : 3000;
  const rounds = quick ? 15 : 75;
  const dir = mkdtempSync(join(tmpdir(), "anvil-bench-proto-"));
  writeFileSync(join(dir, "bench.proto"), emitProto(Bench));
  const PbPage = protobuf.loadSync(join(dir, "bench.proto")).lookupType("bench.proto.Page");
  const read = compileProtobufReader(Page);
  const write = compileProtobufWriter(Page);
  const rows = [];
  for (const [label, n] of [
    ["~2 KB", 4],
    ["~200 KB", 440],
  ]) {
    const value = makePage(n);
    const message = toProtobufjs(value);
    const ours = write(value);
    const theirs = PbPage.encode(message).finish();
    // sanity: the same bytes both ways, each side reads the other's
    if (!Buffer.from(ours).equals(Buffer.from(theirs))) throw new Error("anvil and protobufjs write different bytes for the bench page");
    if (read(theirs).items.length !== n || PbPage.decode(ours).items.length !== n) throw new Error("bench payload does not round-trip");
    rows.push([
      `${label} decode`,
      ours.length,
      compare(
        () => PbPage.decode(theirs),
        () => read(ours),
        minMs,
        rounds,
      ),
    ]);
    rows.push([
      `${label} encode`,
      ours.length,
      compare(
        () => PbPage.encode(message).finish(),
        () => write(value),
        minMs,
        rounds,
      ),
    ]);
  }
  for (const [kind, members, make, toPb] of KINDS) {
    const KindItem = struct(`bench.proto#${kind}Item`, members);
    const KindPage = struct(`bench.proto#${kind}Page`, [member("items", list(`bench.proto#${kind}Items`, member("member", KindItem)), i(1))]);
    const svc = service(`bench.proto#${kind}Service`, {
      version: "1",
      operations: { get: operation(`bench.proto#${kind}Get`, { input: KindPage, output: KindPage }) },
    });
    writeFileSync(join(dir, `${kind}.proto`), emitProto(svc));
    const PbKind = protobuf.loadSync(join(dir, `${kind}.proto`)).lookupType(`bench.proto.${kind}Page`);
    const items = Array.from({ length: 50 }, (_, k) => make(k));
    const bytes = compileProtobufWriter(KindPage)({ items });
    if (!Buffer.from(bytes).equals(Buffer.from(PbKind.encode({ items: items.map(toPb) }).finish())))
      throw new Error(`${kind}: anvil and protobufjs write different bytes`);
    const readKind = compileProtobufReader(KindPage);
    rows.push([
      `${kind} decode`,
      bytes.length,
      compare(
        () => PbKind.decode(bytes),
        () => readKind(bytes),
        minMs / 2,
        rounds,
      ),
    ]);
  }
  console.log("\nProtobuf codec — schema-compiled reader/writer vs protobufjs Type.decode/encode (same .proto, same bytes)");
  console.log(`(same run, interleaved slices; medians of ${rounds} rounds; ratio = median of per-round ratios)`);
  console.log(`${"case".padEnd(18)} ${"bytes".padStart(8)} ${"protobufjs ops/s".padStart(17)} ${"anvil ops/s".padStart(12)} ${"anvil/pbjs".padStart(11)}`);
  for (const [name, size, { baseMs, oursMs, ratio }] of rows) {
    console.log(
      `${name.padEnd(18)} ${String(size).padStart(8)} ${(1000 / baseMs).toFixed(0).padStart(17)} ${(1000 / oursMs).toFixed(0).padStart(12)} ${`${ratio.toFixed(2)}x`.padStart(11)}`,
    );
  }
}
