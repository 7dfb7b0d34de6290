// What OpenTelemetry costs a server: the bench's Anvil restJson1 server (anvil.mjs) side by side with
//   - itself (a second copy: the noise of the method, what "no difference" looks like),
//   - the same server with one request hook that only calls on (what the hooks themselves cost),
//   - the same server with serverTelemetry() and no SDK registered (the API's no-op tracer and meter),
//   - the same server with serverTelemetry() and the SDK registered (every span sampled, batched to an
//     exporter that drops them; histograms aggregated).
// Each pair runs at once on CPU 1, each server with its own wrk on CPU 0 (sideBySide in server-process.mjs),
// in runs that swap the two servers' places; the figure is the speed by main-thread time per request,
// the median of per-round ratios (below 1: the second server is slower).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canPin, sideBySide, startServer } from "./server-process.mjs";
import { CONNECTIONS, hasWrk, postScript, wrkRunAsync } from "./server-bench.mjs";
import { median } from "./timing.mjs";

// BENCH_SERVERS=anvil-otel-api,anvil-otel-sdk compares only those scripts of servers/ with anvil.mjs, for experiments.
const SERVERS = process.env.BENCH_SERVERS
  ? process.env.BENCH_SERVERS.split(",").map((s) => [s, `${s}.mjs`])
  : [
      ["anvil (copy)", "anvil.mjs"],
      ["a request hook doing nothing", "anvil-hook.mjs"],
      ["telemetry, no SDK", "anvil-otel-api.mjs"],
      ["telemetry, SDK", "anvil-otel-sdk.mjs"],
    ];

/** Runs the OpenTelemetry bench and prints its table. */
export async function runOtelBench({ quick }) {
  if (!hasWrk()) throw new Error("the otel bench needs wrk (apt-get install wrk)");
  if (!canPin()) throw new Error("the otel bench needs two CPUs and taskset: both servers of a pair share CPU 1 while the load comes from CPU 0");
  const dir = mkdtempSync(join(tmpdir(), "anvil-otel-bench-"));
  const script = postScript(dir);
  const runs = quick ? 2 : 4;
  const rounds = quick ? 3 : 8;
  const seconds = quick ? 1 : 3;
  const load = async (server, secs) => (await wrkRunAsync(server.url, CONNECTIONS, secs, script, true)).requests;
  const base = { name: "anvil", ...(await startServer("anvil.mjs", 1)) };
  const others = [];
  try {
    for (const [name, file] of SERVERS) others.push({ name, ...(await startServer(file, 1)) });
    for (const s of [base, ...others]) await load(s, quick ? 1 : 3); // warm-up past the optimizing compiler
    console.log(`\n## OpenTelemetry on the server (POST /orders, restJson1, ${CONNECTIONS} connections, wrk)\n`);
    console.log(
      `Each server at once with the plain one on CPU 1, each with its own wrk on CPU 0; ${runs} runs of ${rounds} rounds of ${seconds} s, swapping places each run.`,
    );
    console.log("Speed: the plain server's main-thread time per request over this one's (1.00: the same cost; below: slower).\n");
    console.log("| server | speed vs anvil | req/s vs anvil | per-run speed |");
    console.log("|---|---:|---:|---|");
    for (const other of others) {
      const speeds = [];
      const rates = [];
      const perRun = [];
      for (let run = 0; run < runs; run++) {
        const pair = run % 2 === 0 ? [base, other] : [other, base];
        const { speed, rate } = await sideBySide(pair, { rounds, seconds, load });
        const ours = run % 2 === 0 ? speed : speed.map((x) => 1 / x);
        speeds.push(...ours);
        rates.push(...(run % 2 === 0 ? rate : rate.map((x) => 1 / x)));
        perRun.push(median(ours));
      }
      console.log(`| ${other.name} | ${median(speeds).toFixed(3)}× | ${median(rates).toFixed(3)}× | ${perRun.map((x) => x.toFixed(3)).join(", ")} |`);
    }
  } finally {
    for (const s of [base, ...others]) s.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
