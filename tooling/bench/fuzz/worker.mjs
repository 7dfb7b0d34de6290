// One decoder's fuzz run, in a worker thread of its own (its heap is its
// own, and a hang can be stopped): fast-check draws the inputs of the
// decoder's target (targets.mjs) and checks each one: the decoder returns a
// value or throws its typed error, within SLOW_MS, and the heap comes back
// after a full collection. A failure is shrunk by fast-check to a small
// counterexample.
//
// Shares with the bench an Int32Array: [inputs done, length of the current
// input's description], then the description's UTF-8 bytes, so that the
// bench can name the input a hung decoder is stuck on.
import v8 from "node:v8";
import vm from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import fc from "fast-check";
import { TARGETS } from "./targets.mjs";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");

const { name, runs, seed, path, shared, slowMs } = workerData;
const progress = new Int32Array(shared, 0, 2);
const described = new Uint8Array(shared, 8);
const encoder = new TextEncoder();

const target = await TARGETS[name]();
const t = await target.setup();
parentPort.postMessage({ type: "started", seeds: t.seeds });

const times = new Float64Array(runs);
let inputs = 0;
let values = 0;
let typed = 0;
// Figures stop at the first failure: fast-check then runs smaller inputs to shrink it.
let failing = false;
let heapPeak = 0;
let heapBase;
const heapUsed = () => v8.getHeapStatistics().used_heap_size;

/** Shares the input's description, for a hang report. */
function note(input) {
  const { written } = encoder.encodeInto(t.describe(input), described);
  Atomics.store(progress, 1, written);
}

/** Counts an outcome and its time; throws on a failure (an untyped error, a slow input). */
function tally(ms, outcome, retime) {
  if (failing) return;
  if (ms > slowMs) {
    // A slow input is timed again: a pause of the machine's is not the decoder's.
    const again = Math.min(ms, retime(), retime());
    if (again > slowMs) {
      failing = true;
      throw new Error(`took ${again.toFixed(1)} ms (the limit is ${slowMs} ms)`);
    }
    ms = again;
  }
  times[inputs % runs] = ms;
  inputs++;
  if (outcome === "typed") typed++;
  else values++;
  Atomics.store(progress, 0, inputs);
  if (inputs % 1000 === 0) heapPeak = Math.max(heapPeak, heapUsed());
  if (inputs === Math.ceil(runs / 10)) {
    gc();
    heapBase = heapUsed();
  }
}

function untyped(error) {
  failing = true;
  const what = error instanceof Error ? `${error.constructor.name}: ${error.message}` : `a non-error thrown: ${String(error)}`;
  return new Error(`threw ${what}`, { cause: error });
}

function runSync(input) {
  const once = () => {
    const start = performance.now();
    try {
      t.run(input);
      return [performance.now() - start, "value"];
    } catch (error) {
      const ms = performance.now() - start;
      if (t.isTyped(error)) return [ms, "typed"];
      throw untyped(error);
    }
  };
  note(input);
  const [ms, outcome] = once();
  tally(ms, outcome, () => once()[0]);
}

async function runAsync(input) {
  const once = async () => {
    const start = performance.now();
    try {
      await t.run(input);
      return [performance.now() - start, "value"];
    } catch (error) {
      const ms = performance.now() - start;
      if (t.isTyped(error)) return [ms, "typed"];
      throw untyped(error);
    }
  };
  note(input);
  const [ms, outcome] = await once();
  const retimes = [];
  if (ms > slowMs) for (let i = 0; i < 2; i++) retimes.push((await once())[0]);
  tally(ms, outcome, () => retimes.shift() ?? ms);
}

const property = target.async ? fc.asyncProperty(t.arbitrary, runAsync) : fc.property(t.arbitrary, runSync);
const started = performance.now();
const details = await fc.check(property, { numRuns: runs, seed, ...(path ? { path } : {}) });
const seconds = (performance.now() - started) / 1000;
gc();
const heapEnd = heapUsed();
const sorted = times.slice(0, Math.min(inputs, runs)).sort();
const p99 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] : 0;

let failure;
if (details.failed) {
  const [input] = details.counterexample ?? [];
  let counterexample;
  try {
    counterexample = input === undefined ? "(none)" : t.describe(input);
  } catch (error) {
    counterexample = `(cannot describe it: ${String(error)})`;
  }
  const error = details.errorInstance;
  failure = {
    message: error instanceof Error ? error.message : String(details.error ?? error),
    stack: error instanceof Error ? (error.cause instanceof Error ? error.cause.stack : error.stack) : undefined,
    counterexample,
    shrinks: details.numShrinks,
    seed: details.seed,
    path: details.counterexamplePath,
  };
}
parentPort.postMessage({
  type: "done",
  inputs,
  values,
  typed,
  seconds,
  maxMs: sorted.length ? sorted[sorted.length - 1] : 0,
  p99Ms: p99,
  heap: { base: heapBase, end: heapEnd, peak: heapPeak },
  failure,
});
