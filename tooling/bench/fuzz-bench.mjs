// Fuzz: every decoder that reads what a peer sends, fed a nightly-sized run
// of fast-check inputs (100 000 each; `--runs N`, `--quick` 10 000): the
// schema-compiled JSON and CBOR readers, protocol-grpc's protobuf reader and
// its 5-byte message framing, event-stream framing and Server-Sent Events, the server's URI labels
// and query strings, and the SigV4 verifier (fuzz/*.mjs). Inputs are
// mutated valid encodings of values generated from models (the codec
// contract suite's arbitraries and mutations, from @anvil/codec-contract),
// this bench's edge vectors (fuzz/seeds.mjs), and random bytes.
//
// Invariants per input: the decoder returns a value or throws its typed
// error (a SerializationError, a gRPC ProtocolError, a 4xx answer, a refusal),
// within 50 ms; and per decoder, the heap after a full collection at the end
// is within 32 MiB of the one at a tenth of the run. Each decoder runs in a
// worker thread of its own (fuzz/worker.mjs) with a 1 GiB heap; one silent
// for 10 s is stopped and its input named. A failure is shrunk by
// fast-check and printed with the seed and path that replay it; the bench
// then throws (and `pnpm bench` exits 1).
//
// FUZZ_TARGETS=json,cbor runs only those; FUZZ_SEED=n FUZZ_PATH=p replays one input.
import { Worker } from "node:worker_threads";
import { TARGETS } from "./fuzz/targets.mjs";
import { mib } from "./proc.mjs";

/** The longest one input may take. */
const SLOW_MS = 50;
/** The heap may grow this much from a tenth of the run to its end (both after a full collection). */
const HEAP_GROWTH = 32 * 1024 * 1024;
/** A decoder silent this long on one input is stuck. */
const HANG_MS = 10_000;
/** Time a target may take to build its seeds. */
const SETUP_MS = 120_000;
/** The description of the input being read, shared with the worker. */
const DESCRIBED_BYTES = 16 * 1024;

/** Runs one decoder's fuzz in a worker; resolves with its figures and failure, if any. */
function fuzzOne(name, { runs, seed, path }) {
  const shared = new SharedArrayBuffer(8 + DESCRIBED_BYTES);
  const progress = new Int32Array(shared, 0, 2);
  const current = () => new TextDecoder().decode(new Uint8Array(shared, 8, Atomics.load(progress, 1)).slice());
  const worker = new Worker(new URL("./fuzz/worker.mjs", import.meta.url), {
    workerData: { name, runs, seed, path, shared, slowMs: SLOW_MS },
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  return new Promise((resolve, reject) => {
    let started = false;
    let seeds = 0;
    let last = -1;
    let lastChange = performance.now();
    const begun = performance.now();
    const stop = (failure) => {
      clearInterval(watch);
      void worker.terminate();
      resolve({ inputs: Atomics.load(progress, 0), values: 0, typed: 0, maxMs: 0, p99Ms: 0, seeds, failure });
    };
    const watch = setInterval(() => {
      const done = Atomics.load(progress, 0);
      if (done !== last) {
        last = done;
        lastChange = performance.now();
      } else if (started && performance.now() - lastChange > HANG_MS) {
        stop({ message: `no answer in ${HANG_MS / 1000} s: the decoder hangs`, counterexample: current() });
      } else if (!started && performance.now() - begun > SETUP_MS) {
        reject(new Error(`fuzz ${name}: its seeds took over ${SETUP_MS / 1000} s to build`));
      }
    }, 250);
    worker.on("message", (m) => {
      if (m.type === "started") {
        started = true;
        seeds = m.seeds;
        lastChange = performance.now();
      } else if (m.type === "done") {
        clearInterval(watch);
        const heapGrowth = m.heap.base === undefined ? 0 : m.heap.end - m.heap.base;
        const failure =
          m.failure ?? (heapGrowth > HEAP_GROWTH ? { message: `the heap grew ${mib(heapGrowth)} over the run (after full collections)` } : undefined);
        resolve({ ...m, seeds, heapGrowth, failure });
      }
    });
    worker.on("error", (error) => {
      clearInterval(watch);
      // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or a crash of the worker itself: the input it was on is the suspect.
      if (!started) reject(new Error(`fuzz ${name}: ${error.stack ?? error}`));
      else
        resolve({
          inputs: Atomics.load(progress, 0),
          values: 0,
          typed: 0,
          maxMs: 0,
          p99Ms: 0,
          seeds,
          failure: { message: String(error), counterexample: current() },
        });
    });
  });
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");

/** Runs the fuzz bench and prints its table; throws when any decoder failed. */
export async function runFuzzBench({ quick, runs: runsFlag }) {
  const runs = runsFlag === undefined ? (quick ? 10_000 : 100_000) : Number(runsFlag);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`--runs ${runsFlag}: give a number of inputs per decoder`);
  const names = process.env.FUZZ_TARGETS ? process.env.FUZZ_TARGETS.split(",") : Object.keys(TARGETS);
  for (const name of names) if (!TARGETS[name]) throw new Error(`FUZZ_TARGETS: no decoder ${name} (${Object.keys(TARGETS).join(", ")})`);
  // A new seed each run covers new inputs night after night; it is printed, and FUZZ_SEED replays a run.
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const path = process.env.FUZZ_PATH;

  console.log(`\n## Fuzz: ${fmt(runs)} inputs per decoder (seed ${seed})\n`);
  const rows = [];
  for (const name of names) {
    const target = await TARGETS[name]();
    const started = performance.now();
    const result = await fuzzOne(name, { runs, seed, path });
    rows.push({ name, target, seconds: (performance.now() - started) / 1000, ...result });
    console.error(`fuzz ${name}: ${fmt(result.inputs)} inputs${result.failure ? ", FAILED" : ""}`);
  }

  console.log("| decoder | inputs | values | typed rejections | max ms | p99 ms | heap growth | seconds | result |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const r of rows) {
    const heap = r.heapGrowth === undefined ? "—" : `${r.heapGrowth >= 0 ? "+" : ""}${mib(r.heapGrowth)}`;
    console.log(
      `| ${r.name} | ${fmt(r.inputs)} | ${fmt(r.values)} | ${fmt(r.typed)} | ${r.maxMs.toFixed(2)} | ${r.p99Ms.toFixed(3)} | ${heap} | ${r.seconds.toFixed(1)} | ${r.failure ? "**failed**" : "ok"} |`,
    );
  }
  console.log(
    `\nInvariants: a value or the typed error, under ${SLOW_MS} ms an input (a slow one is timed three times, the least counts); ` +
      `heap after full collections within ${mib(HEAP_GROWTH)} from a tenth of the run to its end. ` +
      "Values and typed rejections stop counting at a failure (fast-check then shrinks it).\n",
  );
  for (const r of rows) console.log(`- ${r.name}: ${r.target.decoder}; typed: ${r.target.typed}; ${fmt(r.seeds)} seeds.`);

  const failed = rows.filter((r) => r.failure);
  for (const r of failed) {
    const f = r.failure;
    console.log(`\n### ${r.name}: ${f.message}\n`);
    console.log(`Counterexample${f.shrinks !== undefined ? ` (shrunk ${f.shrinks} times)` : ""}: ${f.counterexample}`);
    if (f.path !== undefined) console.log(`Replay: FUZZ_TARGETS=${r.name} FUZZ_SEED=${f.seed} FUZZ_PATH=${f.path} node tooling/bench/run.mjs fuzz`);
    if (f.stack) console.log(`\n\`\`\`\n${f.stack.split("\n").slice(0, 12).join("\n")}\n\`\`\``);
  }
  if (failed.length > 0) throw new Error(`fuzz: ${failed.map((r) => r.name).join(", ")} failed (seed ${seed})`);
}
