/**
 * The codec contract: one suite, run against every codec implementation.
 *
 * 1. Round trip: for generated values of many schemas, read(write(v)) equals v.
 * 2. Robustness: random bytes and mutated valid encodings never crash a reader,
 *    never hang it, and never make it throw anything but SerializationError.
 * 3. Defaults: an encoding without a defaulted member reads back with the default.
 *
 * Where a codec legitimately cannot carry something, its case lists a skip
 * with the reason; the generated values then leave that thing out.
 */
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { cborCodec } from "@anvil/codec-cbor";
import { jsonCodec } from "@anvil/codec-json";
import { SerializationError } from "@anvil/core";
import type { Codec, Schema, StructSchema } from "@anvil/core";
import { bigDecimal, blob, document, double, integer, list, long, map, member, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbitraryFor, firstDifference } from "./arbitrary.js";
import { CONTRACT_MODEL_FILE, CONTRACT_NS, CONTRACT_SHAPES } from "./contract-model.js";
import { fuzzInputs, hostileClassics, preview } from "./fuzz-inputs.js";
import type { ArbitraryOptions } from "./arbitrary.js";

// ---------------------------------------------------------------------------
// Codecs under test
// ---------------------------------------------------------------------------

/** What a codec cannot carry, with the reason. Each skip narrows the generated values. */
interface Skips {
  /** NaN and ±Infinity in float and double values. */
  readonly nonFinite?: string;
  /** -0 in float and double values. */
  readonly negativeZero?: string;
}

interface CodecCase {
  readonly name: string;
  readonly codec: Codec<any>;
  readonly settings: unknown;
  /** How the fuzz worker finds the same codec (it loads the built packages). */
  readonly module: string;
  readonly exportName: string;
  readonly skips: Skips;
}

const JSON_SKIPS: Skips = {
  negativeZero:
    "the JSON writer writes -0 as 0, as JSON.stringify and most JSON libraries do (JSON text could carry -0, and the reader keeps it); drop this skip if the writer ever emits -0",
};

const CODECS: readonly CodecCase[] = [
  { name: "json (jsonName)", codec: jsonCodec, settings: { useJsonName: true }, module: "@anvil/codec-json", exportName: "jsonCodec", skips: JSON_SKIPS },
  { name: "json (member names)", codec: jsonCodec, settings: { useJsonName: false }, module: "@anvil/codec-json", exportName: "jsonCodec", skips: JSON_SKIPS },
  { name: "cbor", codec: cborCodec, settings: undefined, module: "@anvil/codec-cbor", exportName: "cborCodec", skips: {} },
];

/** Property runs per schema; CONTRACT_RUNS raises it for a longer soak. */
const RUNS = Number(process.env.CONTRACT_RUNS ?? 150);
/** Fuzz inputs per schema and codec. */
const FUZZ_CASES = Number(process.env.CONTRACT_FUZZ ?? 150);
/** A reader taking longer than this on one small input is a failure: a hang in the making. Generous, since CI runs suites side by side. */
const SLOW_MS = 2_000;
/** A worker silent for this long is stuck on an input. */
const HANG_MS = 10_000;

// ---------------------------------------------------------------------------
// Schemas: from a model, through @anvil/dynamic, and built by hand
// ---------------------------------------------------------------------------

const MODEL_FILE = CONTRACT_MODEL_FILE;
const { model, events } = loadModel({ sources: [{ file: MODEL_FILE, text: readFileSync(MODEL_FILE, "utf8") }] });
const schemas = schemasFromModel(model);
const NS = CONTRACT_NS;

/** Model shapes the round trip and the fuzzing cover. */
const MODEL_SHAPES = CONTRACT_SHAPES;

const linked: StructSchema = struct("hand#Linked", [member("value", integer, { required: true }), member("next", () => linked)]);
const HAND_BUILT: readonly Schema[] = [
  linked,
  struct("hand#Mixed", [
    member("when", timestamp, { timestampFormat: "epoch-seconds", jsonName: "When" }),
    member("ids", list("hand#Longs", member("member", long))),
    member("byName", map("hand#Dates", member("key", string), member("value", timestamp, { timestampFormat: "date-time" }), { sparse: true })),
    member("pick", union("hand#Pick", [member("d", double), member("b", blob), member("x", bigDecimal, { jsonName: "X" })])),
    member("required", document, { required: true }),
  ]),
  string,
  long,
  double,
  bigDecimal,
  timestamp,
  blob,
  document,
];

const ROUND_TRIP: readonly Schema[] = [...MODEL_SHAPES.map((id) => schemas.shape(id)), ...HAND_BUILT];

function arbitraryOptions(skips: Skips): Partial<ArbitraryOptions> {
  return { ...(skips.nonFinite ? { nonFinite: false } : {}), ...(skips.negativeZero ? { negativeZero: false } : {}) };
}

describe("contract model", () => {
  it("loads without errors", () => {
    expect(events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER").map((e) => e.message)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------

describe.each(CODECS)("codec contract: $name", (c) => {
  const read = <T>(schema: Schema<T>) => c.codec.reader(schema, c.settings);
  const write = <T>(schema: Schema<T>) => c.codec.writer(schema, c.settings);

  for (const [feature, reason] of Object.entries(c.skips)) {
    it.skip(`round trip of ${feature}: ${reason}`, () => {});
  }

  describe("F2: round trip: read(write(v)) equals v", () => {
    it.each(ROUND_TRIP.map((s) => [s.id, s] as const))("%s", (_id, schema) => {
      const writer = write(schema);
      const reader = read(schema);
      fc.assert(
        fc.property(arbitraryFor(schema, arbitraryOptions(c.skips)), (value) => {
          const bytes = writer(value);
          expect(bytes).toBeInstanceOf(Uint8Array);
          let back: unknown;
          try {
            back = reader(bytes);
          } catch (e) {
            throw new Error(`reading what the writer wrote failed: ${(e as Error).message}\n  bytes: ${preview(bytes)}`, { cause: e });
          }
          const diff = firstDifference(value, back);
          if (diff !== undefined) throw new Error(`round trip differs at ${diff}\n  bytes: ${preview(bytes)}`);
        }),
        { numRuns: RUNS },
      );
    });

    it("values a reader returns can be written and read again unchanged", () => {
      const schema = schemas.shape(`${NS}Everything`);
      const writer = write(schema);
      const reader = read(schema);
      fc.assert(
        fc.property(arbitraryFor(schema, arbitraryOptions(c.skips)), (value) => {
          const back = reader(writer(value));
          const again = reader(writer(back));
          const diff = firstDifference(back, again);
          if (diff !== undefined) throw new Error(`second round trip differs at ${diff}`);
        }),
        { numRuns: Math.ceil(RUNS / 3) },
      );
    });
  });

  describe("robustness: untrusted bytes", () => {
    it.each(MODEL_SHAPES.map((id) => [id] as const))("%s: random and mutated inputs only ever throw SerializationError", async (id) => {
      const schema = schemas.shape(id);
      const writer = write(schema);
      const valid = fc.sample(arbitraryFor(schema, { ...arbitraryOptions(c.skips), maxDepth: 2 }), { numRuns: 30 }).map((v) => writer(v));
      const inputs = fuzzInputs(valid, FUZZ_CASES, c.name.startsWith("json"));
      const report = await runInWorker(
        c,
        inputs.map((bytes) => ({ schemaId: id, bytes })),
      );
      expect(report.hang, report.hang && `reader hung on ${preview(report.hang)}`).toBeUndefined();
      expect(report.crashes.slice(0, 5)).toEqual([]);
      expect(report.slow.slice(0, 5)).toEqual([]);
    });

    it.each([`${NS}Everything`, `${NS}Documents`, `${NS}Tree`, "smithy.api#Document"])(
      "S7: %s: classic hostile inputs, deep nesting included (100 000 levels), throw SerializationError",
      (id) => {
        const reader = read(schemas.shape(id));
        const deep = 100_000;
        const classics = hostileClassics(deep);
        for (const bytes of classics) {
          const started = performance.now();
          try {
            reader(bytes);
          } catch (e) {
            expect(SerializationError.is(e), `${preview(bytes)} threw ${String(e)}`).toBe(true);
          }
          expect(performance.now() - started, preview(bytes)).toBeLessThan(SLOW_MS * 4);
        }
      },
    );

    it("writers throw SerializationError, and nothing else, on values that do not fit the schema", () => {
      const targets = [
        `${NS}Everything`,
        `${NS}Choice`,
        `${NS}Collections`,
        `${NS}Defaults`,
        "smithy.api#Timestamp",
        "smithy.api#BigDecimal",
        "smithy.api#Long",
      ];
      const writers = targets.map((id) => write(schemas.shape(id)));
      fc.assert(
        fc.property(
          fc.nat({ max: writers.length - 1 }),
          fc.anything({
            withBigInt: true,
            withDate: true,
            withTypedArray: true,
            withNullPrototype: true,
            withSparseArray: true,
            withBoxedValues: true,
            withMap: true,
            withSet: true,
          }),
          (i, value) => {
            try {
              writers[i]!(value as never);
            } catch (e) {
              if (!SerializationError.is(e)) throw new Error(`writer for ${targets[i]} threw ${String(e)}`, { cause: e });
            }
          },
        ),
        { numRuns: RUNS * 4 },
      );
    });
  });

  describe("defaults: absent defaulted members read back as their defaults", () => {
    const full = schemas.shape(`${NS}Defaults`) as StructSchema;
    const defaulted = full.members.filter((m) => m.traits.default !== undefined);

    it("every default, from an encoding with only the required member", () => {
      const view = struct(
        full.id,
        full.members.filter((m) => m.traits.default === undefined),
      );
      const back = read(full)(write(view)({ id: "x" })) as Record<string, unknown>;
      expect(back.id).toBe("x");
      for (const m of defaulted) {
        const diff = firstDifference(m.traits.default, back[m.name]);
        expect(diff, `${m.name}: ${diff}`).toBeUndefined();
      }
    });

    it("any subset of defaulted members absent", () => {
      fc.assert(
        fc.property(fc.subarray(defaulted.map((m) => m.name)), (present) => {
          const view = struct(
            full.id,
            full.members.filter((m) => m.traits.default === undefined || present.includes(m.name)),
          );
          const sent = fc.sample(arbitraryFor(view, arbitraryOptions(c.skips)), { numRuns: 1 })[0] as Record<string, unknown>;
          const back = read(full)(write(view)(sent)) as Record<string, unknown>;
          for (const m of full.members) {
            const expected = present.includes(m.name) || m.traits.default === undefined ? sent[m.name] : m.traits.default;
            const diff = firstDifference(expected, back[m.name], `/${m.name}`);
            if (diff) throw new Error(diff);
          }
        }),
        { numRuns: 40 },
      );
    });
  });
});

// ---------------------------------------------------------------------------
// Fuzzing helpers
// ---------------------------------------------------------------------------

interface FuzzReport {
  readonly hang?: Uint8Array;
  readonly crashes: string[];
  readonly slow: string[];
}

/** Runs the codec's reader on every input in a worker; a worker silent for HANG_MS is stopped and its input reported. */
function runInWorker(c: CodecCase, batch: { schemaId: string; bytes: Uint8Array }[]): Promise<FuzzReport> {
  const worker = new Worker(new URL("./fuzz-worker.mjs", import.meta.url), {
    workerData: { modelFile: MODEL_FILE, codecModule: c.module, codecExport: c.exportName, settings: c.settings },
  });
  const crashes: string[] = [];
  const slow: string[] = [];
  let current = -1;
  return new Promise<FuzzReport>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (report: FuzzReport) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(report);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish({ hang: batch[Math.max(current, 0)]!.bytes, crashes, slow }), HANG_MS);
    };
    arm();
    worker.on("message", (msg: { type: string; index: number; outcome: string; detail: string; ms: number }) => {
      arm();
      if (msg.type === "start") current = msg.index;
      else if (msg.type === "done") {
        const input = preview(batch[msg.index]!.bytes);
        if (msg.outcome === "crash") crashes.push(`${msg.detail} on ${input}`);
        if (msg.ms > SLOW_MS) slow.push(`${Math.round(msg.ms)} ms on ${input}`);
      } else if (msg.type === "batch-done") finish({ crashes, slow });
    });
    worker.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    worker.postMessage({ batch });
  });
}
