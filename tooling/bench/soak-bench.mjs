// Soak: one Anvil server process (servers/soak-anvil.mjs) serving every
// protocol of the serve stack (restJson1, simpleRestJson, awsJson1_0,
// awsJson1_1, rpcv2Cbor, rpcv2Json over HTTP/1.1 and HTTP/2, gRPC over
// HTTP/2) under a mixed load from processes of their own (soak-load.mjs:
// calls recorded with Anvil's clients, replayed raw, a share still made
// through the clients; every answer checked). First a short saturation probe
// (every lane full) measures the server's capacity, as calls per CPU-second
// of the server; then an open-loop load runs at 70% of it for the whole
// duration (10 minutes; `--duration`, `--quick` 30 s).
//
// Watched from outside the server, from /proc: its resident memory (VmRSS)
// and open file descriptors, sampled through the run; from inside, its event
// loop's delay. The baseline is the run's own first minute: memory and
// descriptors at the end must be within 10% of it, and no call may fail (the
// modeled NoSuchItem errors the mix asks for are answers, not failures).
// The bench throws (and `pnpm bench` exits 1) when either does not hold.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { hasProc, memoryOf, mib, openFds, parseDuration } from "./proc.mjs";
import { canPin, cpuTime, startServer } from "./server-process.mjs";
import { median } from "./timing.mjs";

/** The share of the server's capacity the soak runs at. */
const LOAD = 0.7;
/** The share of the load generators' own top rate (the probe's) they are asked for at most: beyond it they fall behind. */
const LOAD_CEILING = 0.75;
/** Load generator processes: one cannot keep a server busy on its own (a client call costs more than serving it). */
const LOADERS = 2;
/** The growth of memory or descriptors from the first minute to the end that fails the soak. */
const GROWTH_LIMIT = 0.1;

/** Starts soak-load.mjs (on any CPU) and returns it with `ask`, which sends a message and resolves with the answer. */
function startLoad() {
  const path = fileURLToPath(new URL("./soak-load.mjs", import.meta.url));
  const child = spawn(process.execPath, [path], { stdio: ["ignore", "inherit", "inherit", "ipc"], env: { ...process.env, NODE_ENV: "production" } });
  const waiting = [];
  child.on("message", (m) => {
    if (m.type === "progress") child.progress = m;
    else waiting.shift()?.(m);
  });
  const exited = once(child, "exit").then(([code]) => Promise.reject(new Error(`a soak load generator exited (${code})`)));
  exited.catch(() => {});
  const ask = (message) =>
    Promise.race([
      new Promise((resolve, reject) => {
        waiting.push((m) => (m.type === "failed" ? reject(new Error(`soak load generator: ${m.message}`)) : resolve(m)));
        child.send(message);
      }),
      exited,
    ]);
  return { child, ask };
}

/** Counts by name, summed over several such records. */
function summed(records) {
  const out = {};
  for (const record of records) for (const [name, n] of Object.entries(record)) out[name] = (out[name] ?? 0) + n;
  return out;
}

/** The load generators' answers to one phase as one: counts summed, latency percentiles the worst of them. */
function merged(results) {
  const sum = (key) => results.reduce((n, r) => n + r[key], 0);
  return {
    calls: sum("calls"),
    live: sum("live"),
    expectedErrors: sum("expectedErrors"),
    shed: sum("shed"),
    cpuSeconds: sum("cpuSeconds"),
    loopDelayP99: Math.max(...results.map((r) => r.loopDelayP99)),
    seconds: Math.max(...results.map((r) => r.seconds)),
    errors: summed(results.map((r) => r.errors)),
    perLane: summed(results.map((r) => r.perLane)),
    latencyMs: {
      p50: median(results.map((r) => r.latencyMs.p50)),
      p99: Math.max(...results.map((r) => r.latencyMs.p99)),
      max: Math.max(...results.map((r) => r.latencyMs.max)),
    },
  };
}

/** The event loop's delay of the server: since the last ask (`eld`), and over the phase (`phase`). */
async function eventLoopDelay(server) {
  server.child.send("eld");
  for (;;) {
    const [m] = await once(server.child, "message");
    if (m.eld) return m;
  }
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");
const pct = (x) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;
const errorCount = (errors) => Object.values(errors).reduce((n, x) => n + x, 0);

/** Runs the soak bench; throws when a call failed or memory or descriptors grew. */
export async function runSoakBench({ quick, duration }) {
  if (!hasProc()) throw new Error("the soak bench reads the server's memory and descriptors from /proc: it runs on Linux");
  const seconds = parseDuration(duration, quick ? 30 : 600);
  const probeSeconds = quick ? 5 : 20;
  // Samples: often enough for a few dozen over the run.
  const every = Math.max(1, Math.min(10, Math.round(seconds / 60)));
  // The baseline: the first minute of the run (of a short run, its first quarter), once a few seconds in.
  const refFrom = Math.min(10, seconds * 0.1);
  const refTo = Math.min(60, seconds * 0.25);
  // The end: the last minute (of a short run, its last fifth).
  const endFrom = seconds - Math.min(60, seconds * 0.2);
  const pin = canPin();
  const server = await startServer("soak-anvil.mjs", pin ? 1 : undefined);
  // taskset execs node: the pid is the server's either way.
  const pid = server.child.pid;
  const loads = [];
  try {
    for (let i = 0; i < LOADERS; i++) loads.push(startLoad());
    const all = (message) => Promise.all(loads.map((l) => l.ask(message)));
    const started = await all({ type: "start", endpoints: server.endpoints });
    const { lanes, corpus, liveEvery } = started[0];
    const recordingErrors = summed(started.map((s) => s.errors));

    console.log(`\n## Soak: every protocol, one Anvil server process, open loop at ${LOAD * 100}% of its capacity\n`);
    console.log(`${lanes.length} lanes: ${lanes.join(", ")}.`);
    console.log(
      `${LOADERS} load generator processes; each lane recorded ${corpus} calls with its Anvil client (answers decoded and checked), ` +
        `replayed raw and checked byte for byte; one call in ${liveEvery} goes through the client. ` +
        `${pin ? "Server pinned to CPU 1." : "Processes not pinned (taskset unavailable or a single CPU)."}`,
    );

    // The probe, which also warms the server up past the optimizing compiler.
    const cpuBefore = await cpuTime(server.child);
    const probe = merged(await all({ type: "probe", seconds: probeSeconds }));
    const cpuAfter = await cpuTime(server.child);
    const probeRate = probe.calls / probe.seconds;
    const serverCpu = (cpuAfter.total - cpuBefore.total) / 1e6;
    const capacity = probe.calls / serverCpu;
    const wanted = capacity * LOAD;
    const rate = Math.max(1, Math.round(Math.min(wanted, probeRate * LOAD_CEILING)));
    console.log(
      `\nCapacity probe: ${probeSeconds} s closed loop, every lane full: ${fmt(probeRate)} calls/s with the server busy ` +
        `${((serverCpu / probe.seconds) * 100).toFixed(0)}% of a core: its capacity ${fmt(capacity)} calls per CPU-second ` +
        `(${((serverCpu / probe.calls) * 1e6).toFixed(0)} µs a call; the load generators ${((probe.cpuSeconds / probe.calls) * 1e6).toFixed(0)} µs).`,
    );
    console.log(
      rate < wanted * 0.98
        ? `Soak: ${fmt(rate)} calls/s, the load generators' ceiling (${LOAD_CEILING * 100}% of the probe's rate), below ${LOAD * 100}% of the server's capacity (${fmt(wanted)}): ` +
            `the load costs more CPU than serving it; the server CPU column says what share of a core it used.`
        : `Soak: ${fmt(rate)} calls/s (${LOAD * 100}% of the server's capacity).`,
    );
    console.log(`${seconds} s, sampled every ${every} s; baseline ${refFrom}–${refTo} s, end ${endFrom}–${seconds} s.\n`);

    // The run, sampled from outside.
    server.child.send("eld-reset");
    const samples = [];
    const start = performance.now();
    const cpuRun = await cpuTime(server.child);
    const shares = lanes.map((name) => probe.perLane[name]);
    let done = false;
    const ran = all({ type: "run", rate: rate / LOADERS, shares, seconds }).finally(() => (done = true));
    ran.catch(() => {});
    let lastPrint = 0;
    console.log("| at | calls | errors | server RSS | open fds | loop delay p99 (last sample) |");
    console.log("|---:|---:|---:|---:|---:|---:|");
    while (!done) {
      const wait = every * 1000 - ((performance.now() - start) % (every * 1000));
      await Promise.race([new Promise((r) => setTimeout(r, wait)), ran.catch(() => {})]);
      if (done) break;
      const at = (performance.now() - start) / 1000;
      const { rss } = memoryOf(pid);
      const fds = openFds(pid);
      const { eld } = await eventLoopDelay(server);
      const calls = loads.reduce((n, l) => n + (l.child.progress?.calls ?? 0), 0);
      const errors = loads.reduce((n, l) => n + errorCount(l.child.progress?.errors ?? {}), 0);
      samples.push({ at, rss, fds, eld: eld.p99 });
      // A line for a person every 30 s (every 5 s of a short run), and the first one.
      if (at - lastPrint >= (seconds > 120 ? 30 : 5) || samples.length === 1) {
        lastPrint = at;
        console.log(`| ${at.toFixed(0)} s | ${fmt(calls)} | ${errors} | ${mib(rss)} | ${fds} | ${eld.p99.toFixed(1)} ms |`);
      }
    }
    const result = merged(await ran);
    const cpuEnd = await cpuTime(server.child);
    const { phase } = await eventLoopDelay(server);
    const { peak } = memoryOf(pid);

    const window = (from, to) => samples.filter((s) => s.at >= from && s.at <= to);
    const ref = window(refFrom, refTo);
    const end = window(endFrom, seconds + 60);
    if (ref.length === 0 || end.length === 0) throw new Error("soak: the run is too short for a baseline and an end (try --duration 30 or more)");
    const figure = (xs, key) => median(xs.map((s) => s[key]));
    const rssGrowth = figure(end, "rss") / figure(ref, "rss") - 1;
    const fdGrowth = figure(end, "fds") / figure(ref, "fds") - 1;
    const errors = Object.entries({ ...recordingErrors, ...result.errors });
    const failed = errorCount(recordingErrors) + errorCount(result.errors) + errorCount(probe.errors);

    console.log(
      "\n| phase | calls | calls/s | through the client | NoSuchItem (expected) | errors | latency p50 / p99 / max | server CPU | load generators' CPU | their loop delay p99 |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    const row = (name, r, cpuSeconds) =>
      console.log(
        `| ${name} | ${fmt(r.calls)} | ${fmt(r.calls / r.seconds)} | ${fmt(r.live)} | ${fmt(r.expectedErrors)} | ${errorCount(r.errors)} | ` +
          `${r.latencyMs.p50.toFixed(1)} / ${r.latencyMs.p99.toFixed(1)} / ${r.latencyMs.max.toFixed(1)} ms | ${((cpuSeconds / r.seconds) * 100).toFixed(0)}% | ` +
          `${((r.cpuSeconds / r.seconds) * 100).toFixed(0)}% | ${r.loopDelayP99.toFixed(1)} ms |`,
      );
    row(`probe (${probeSeconds} s, closed loop)`, probe, serverCpu);
    row(`soak (${seconds} s at ${fmt(rate)}/s)`, result, (cpuEnd.total - cpuRun.total) / 1e6);

    console.log("\n| server process | first minute | end | change | limit |");
    console.log("|---|---:|---:|---:|---|");
    console.log(`| RSS (VmRSS, median) | ${mib(figure(ref, "rss"))} | ${mib(figure(end, "rss"))} | ${pct(rssGrowth)} | ≤ +${GROWTH_LIMIT * 100}% |`);
    console.log(`| open file descriptors (median) | ${figure(ref, "fds")} | ${figure(end, "fds")} | ${pct(fdGrowth)} | ≤ +${GROWTH_LIMIT * 100}% |`);
    console.log(`| event-loop delay p99 (of each sample, median) | ${figure(ref, "eld").toFixed(1)} ms | ${figure(end, "eld").toFixed(1)} ms | | |`);
    console.log(
      `\nOver the soak: the server's event-loop delay p99 ${phase.p99.toFixed(1)} ms (max ${phase.max.toFixed(1)} ms); ` +
        `its peak RSS (VmHWM, probe included) ${mib(peak)}.`,
    );
    console.log(
      `Calls per lane: ${Object.entries(result.perLane)
        .map(([name, n]) => `${name} ${fmt(n)}`)
        .join(", ")}.`,
    );
    if (errors.length > 0) {
      console.log("\nErrors by kind:\n");
      for (const [kind, n] of errors.sort((a, b) => b[1] - a[1])) console.log(`- ${n} × ${kind}`);
    }

    const problems = [
      ...(failed > 0 ? [`${failed} calls failed`] : []),
      ...(rssGrowth > GROWTH_LIMIT ? [`the server's RSS grew ${pct(rssGrowth)}`] : []),
      ...(fdGrowth > GROWTH_LIMIT ? [`the server's open descriptors grew ${pct(fdGrowth)}`] : []),
    ];
    if (problems.length > 0) throw new Error(`soak failed: ${problems.join("; ")}`);
    console.log(`\nNo call failed; the server's memory and descriptors stayed within ${GROWTH_LIMIT * 100}% of the first minute's.`);
  } finally {
    for (const load of loads) {
      load.child.send({ type: "stop" });
      setTimeout(() => load.child.kill(), 2000).unref();
    }
    server.child.kill();
  }
}
