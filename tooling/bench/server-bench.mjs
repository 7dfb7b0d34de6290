// Server requests/s: an Anvil restJson1 server (@anvil/server on node:http)
// against a bare node:http server doing the same JSON work and against
// fastify (schema validation and serialization), all answering the same
// ~200-byte JSON POST. Each server runs in a process of its own pinned to one
// core; the load generator (wrk, from Debian's package, or autocannon where
// wrk is not installed) runs pinned to another. The servers are measured in
// short interleaved slices, the order rotating each round.
//
// Two figures per server: requests/s, and requests per CPU-second of the
// server process. wrk saturates the servers; one autocannon process cannot
// (on 2 cores it caps fast servers at a few rates it can send at), which
// makes its req/s the load generator's. Wall-clock figures on a shared
// machine move with its other jobs; `--instructions` counts instead
// (instructions.mjs).
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import autocannon from "autocannon";
import { runInstructionBench } from "./instructions.mjs";
import { canPin, cpuCost, cpuTime, pinSelf, printComparison, runAgainst, sideBySide, startServer } from "./server-process.mjs";
import { median } from "./timing.mjs";

// BENCH_SERVERS=bare,anvil runs only those scripts of servers/ (the first is the baseline), for experiments.
const SERVERS = process.env.BENCH_SERVERS
  ? process.env.BENCH_SERVERS.split(",").map((s) => [s, `${s}.mjs`])
  : [
      ["bare node:http", "bare.mjs"],
      ["anvil (restJson1)", "anvil.mjs"],
      ["fastify", "fastify.mjs"],
    ];

const BODY = JSON.stringify({
  customerId: "cust-12345",
  sku: "WIDGET-BLUE-L",
  quantity: 3,
  unitPrice: 19.99,
  currency: "EUR",
  note: "Please leave the parcel at the back door, next to the blue recycling bin.",
  giftWrap: false,
});
const EXPECTED = '{"orderId":"ord-1","customerId":"cust-12345","sku":"WIDGET-BLUE-L","quantity":3,"total":59.97,"currency":"EUR","status":"PENDING"}';

/** One autocannon run against a server (for `seconds`, or until `amount` requests are answered): requests, latency percentiles in ms. */
async function autocannonRun(url, connections, { seconds, amount }) {
  const until = amount === undefined ? { duration: seconds } : { amount, timeout: 60 };
  const result = await autocannon({
    url: `${url}/orders`,
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${BENCH_TOKEN}` },
    body: BODY,
    connections,
    ...until,
  });
  if (result.errors || result.non2xx || result.timeouts) {
    throw new Error(`server bench: ${url} answered ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { requests: result.requests.total, p50: result.latency.p50, p99: result.latency.p99 };
}

/** A wrk latency figure (`812.00us`, `2.42ms`, `1.01s`) in ms. */
function wrkMs(text) {
  const [, value, unit] = /([\d.]+)(us|ms|s)/.exec(text);
  return Number(value) * (unit === "us" ? 1e-3 : unit === "s" ? 1e3 : 1);
}

/** The command line of a wrk run (one thread, pinned to CPU 0 when `pin`) posting the body from `script`. */
function wrkCommand(url, connections, seconds, script, pin) {
  const args = ["-t", "1", "-c", String(connections), "-d", `${seconds}s`, "--latency", "-s", script, `${url}/orders`];
  return pin ? ["taskset", ["-c", "0", "wrk", ...args]] : ["wrk", args];
}

/** A wrk run: requests, latency percentiles in ms. */
function wrkRun(url, connections, seconds, script, pin) {
  const [cmd, args] = wrkCommand(url, connections, seconds, script, pin);
  return wrkResult(url, execFileSync(cmd, args, { encoding: "utf8" }));
}

const execFileAsync = promisify(execFile);

/** A wrk run that lets other work go on meanwhile (another run, on another server). */
export async function wrkRunAsync(url, connections, seconds, script, pin) {
  const [cmd, args] = wrkCommand(url, connections, seconds, script, pin);
  const { stdout } = await execFileAsync(cmd, args, { encoding: "utf8" });
  return wrkResult(url, stdout);
}

/** What wrk printed, read: requests, latency percentiles in ms; throws on failed answers. */
function wrkResult(url, out) {
  const requests = /(\d+) requests in/.exec(out);
  const p50 = /^\s+50%\s+(\S+)/m.exec(out);
  const p99 = /^\s+99%\s+(\S+)/m.exec(out);
  if (requests === null || p50 === null || p99 === null) throw new Error(`server bench: cannot read wrk's output:\n${out}`);
  const failed = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  const socket = /Socket errors: (.*)/.exec(out)?.[1];
  if (failed !== undefined || (socket !== undefined && /[1-9]/.test(socket)))
    throw new Error(`server bench: ${url}: ${failed ?? 0} non-2xx answers, socket errors: ${socket ?? "none"}`);
  return { requests: Number(requests[1]), p50: wrkMs(p50[1]), p99: wrkMs(p99[1]) };
}

/** Whether wrk is installed. */
export function hasWrk() {
  return spawnSync("wrk", ["-v"], { stdio: "ignore" }).error === undefined;
}

/** The bearer token anvil-auth.mjs accepts. */
const BENCH_TOKEN = "bench-token";

/** Connections the load generator keeps open to a server. */
export const CONNECTIONS = 50;

/** Writes wrk's script for the bench's request into `dir`; returns its path. */
export function postScript(dir) {
  const script = join(dir, "post.lua");
  // The bearer token is for anvil-auth.mjs (BENCH_SERVERS=anvil,anvil-auth: what authentication and an interceptor cost); the rest ignore it.
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.headers["content-type"] = "application/json"\nwrk.headers["authorization"] = "Bearer ${BENCH_TOKEN}"\nwrk.body = ${JSON.stringify(BODY)}\n`,
  );
  return script;
}

/** Runs the server bench and prints its table. */
export async function runServerBench({ quick, instructions, against }) {
  if (instructions) return runServerInstructions({ quick });
  if (against !== undefined) return runServerAgainst({ quick, dir: against });
  const pin = canPin();
  const wrk = hasWrk();
  // autocannon runs in this process, so this process is what gets pinned.
  const unpin = pin && !wrk ? pinSelf(0) : () => {};
  const dir = mkdtempSync(join(tmpdir(), "anvil-server-bench-"));
  const script = postScript(dir);
  const connections = CONNECTIONS;
  const rounds = quick ? 3 : 15;
  const seconds = quick ? 1 : 2;
  const servers = [];
  /** One slice of load on a server: req/s, requests per server CPU-second, main-thread µs per request, latency percentiles in ms. */
  const load = async ({ url, child }, secs) => {
    const cpuBefore = await cpuTime(child);
    const run = wrk ? wrkRun(url, connections, secs, script, pin) : await autocannonRun(url, connections, { seconds: secs });
    return { rps: run.requests / secs, ...cpuCost(cpuBefore, await cpuTime(child), run.requests), p50: run.p50, p99: run.p99 };
  };
  try {
    for (const [name, file] of SERVERS) servers.push({ name, ...(await startServer(file, pin ? 1 : undefined)) });
    for (const s of servers) {
      const res = await fetch(`${s.url}/orders`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${BENCH_TOKEN}` },
        body: BODY,
      });
      const text = await res.text();
      if (res.status !== 200 || text !== EXPECTED) throw new Error(`server bench: ${s.name} answered ${res.status} ${text}`);
      await load(s, quick ? 1 : 3); // warm-up past the optimizing compiler
    }
    const samples = servers.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < servers.length; i++) {
        const k = (i + r) % servers.length;
        samples[k].push(await load(servers[k], seconds));
      }
    }
    console.log(`\n## Server (POST /orders, ${BODY.length}-byte JSON body, ${connections} connections, ${wrk ? "wrk" : "autocannon"})\n`);
    if (!wrk) console.log("wrk is not installed (apt-get install wrk): autocannon cannot saturate fast servers, so req/s is capped by it.\n");
    console.log(pin ? "Servers pinned to CPU 1, load generator to CPU 0." : "Processes not pinned (taskset unavailable or a single CPU).");
    console.log(
      `Medians of ${rounds} interleaved ${seconds}-second slices per server, the order rotating; ratios are medians of per-round ratios against bare node:http.\n`,
    );
    const { ratio, main } = printComparison(servers, samples, {
      rate: "req/s",
      perCpu: "req per server CPU-s",
      unit: "req",
      base: "bare",
      extra: [
        { head: "p50 ms", key: "p50" },
        { head: "p99 ms", key: "p99" },
      ],
    });
    if (!process.env.BENCH_SERVERS) {
      const mainRatio = main ? `, ${ratio(2, 1, "mainUs").toFixed(2)}× in main-thread time` : "";
      console.log(`\nanvil vs fastify: ${ratio(1, 2, "rps").toFixed(2)}× req/s, ${ratio(1, 2, "perCpu").toFixed(2)}× req per CPU-s${mainRatio}`);
    }
    console.log(`\nper-round ${servers[1].name} / ${servers[0].name}, req/s: ${samples[1].map((x, r) => (x.rps / samples[0][r].rps).toFixed(2)).join(", ")}`);
    if (wrk && pin && main) await printPairs(servers, { quick, connections, script });
  } finally {
    unpin();
    for (const s of servers) s.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Servers side by side at once: two servers on CPU 1 together, each loaded
 * by a wrk of its own on CPU 0, so that whatever the host does in those
 * seconds (a VM's stolen time, its neighbours' cache traffic) it does to
 * both. The slices above run one server at a time, and the host changes
 * between them: within one run, a server's slices differ by up to 2×. Each
 * server gets about half of CPU 1 here, so its req/s is about half of the
 * above; what compares is the main thread's time per request (ratio: the
 * first server's over the second's, a speed), and req/s, both medians of
 * per-round ratios.
 */
async function printPairs(servers, { quick, connections, script }) {
  const rounds = quick ? 3 : 8;
  const seconds = quick ? 1 : 3;
  const byName = (start) => servers.find((s) => s.name.startsWith(start));
  const pairs = process.env.BENCH_SERVERS
    ? servers.slice(1).map((s) => [servers[0], s])
    : [
        ["bare", "anvil"],
        ["bare", "fastify"],
        ["fastify", "anvil"],
      ].map(([a, b]) => [byName(a), byName(b)]);
  console.log(`\n### Side by side at once (two servers on CPU 1, each with its own wrk on CPU 0; ${rounds} rounds of ${seconds} s)\n`);
  console.log("| server | against | speed by main-thread time | req/s ratio | per-round speed |");
  console.log("|---|---|---:|---:|---|");
  const load = async (server, secs) => (await wrkRunAsync(server.url, connections, secs, script, true)).requests;
  for (const pair of pairs) {
    const [base, other] = pair;
    const { speed, rate } = await sideBySide(pair, { rounds, seconds, load });
    console.log(`| ${other.name} | ${base.name} | ${median(speed).toFixed(2)}× | ${median(rate).toFixed(2)}× | ${speed.map((x) => x.toFixed(2)).join(", ")} |`);
  }
}

/** `--against DIR`: this checkout's Anvil server side by side with DIR's (see runAgainst in server-process.mjs). */
async function runServerAgainst({ quick, dir }) {
  if (!hasWrk()) throw new Error("--against needs wrk (apt-get install wrk)");
  const tmp = mkdtempSync(join(tmpdir(), "anvil-server-bench-"));
  const script = postScript(tmp);
  try {
    await runAgainst({
      heading: `Server (POST /orders, ${BODY.length}-byte JSON body, ${CONNECTIONS} connections, wrk)`,
      script: "anvil.mjs",
      dir,
      quick,
      load: async (server, secs) => (await wrkRunAsync(server.url, CONNECTIONS, secs, script, true)).requests,
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `--instructions`: each server's instructions per request under callgrind (see instructions.mjs), driven by autocannon. */
async function runServerInstructions({ quick }) {
  const connections = CONNECTIONS;
  const [n1, n2] = quick ? [2000, 6000] : [10000, 30000];
  const rows = await runInstructionBench({
    heading: `Server, instructions per request (POST /orders, ${BODY.length}-byte JSON body, autocannon, ${connections} connections)`,
    unit: "request",
    servers: SERVERS,
    drive: (_name, url, amount) => autocannonRun(url, connections, { amount }),
    n1,
    n2,
  });
  if (rows !== undefined && !process.env.BENCH_SERVERS) {
    const [, anvil, fastify] = rows;
    console.log(
      `\nanvil vs fastify: ${(fastify.total / anvil.total).toFixed(2)}× in all, ${(fastify.withoutJit / anvil.withoutJit).toFixed(2)}× without JIT and major GC`,
    );
  }
}
