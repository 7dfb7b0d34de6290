// Server processes for the server benches: each server script of servers/
// runs in a process of its own (pinned to one core where taskset can), sends
// its port when listening, and answers "cpu" with its CPU time (ready.mjs).
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./timing.mjs";

/**
 * Whether `taskset` can pin processes here (Linux with util-linux, two cores
 * or more). Counts the machine's CPUs, not this process's share of them
 * (`availableParallelism` follows the affinity mask, which a bench that
 * pinned itself has narrowed to one CPU).
 */
export function canPin() {
  if (cpus().length < 2) return false;
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a server script of servers/, or the script at an absolute path
 * (another checkout's, see {@link runAgainst}), pinned to `cpu` when given;
 * resolves with the process, its base URL and whatever else the server sent
 * with its port (see ready.mjs).
 */
export async function startServer(script, cpu) {
  const path = isAbsolute(script) ? script : fileURLToPath(new URL(`./servers/${script}`, import.meta.url));
  const [cmd, args] = cpu === undefined ? [process.execPath, [path]] : ["taskset", ["-c", String(cpu), process.execPath, path]];
  const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit", "ipc"], env: { ...process.env, NODE_ENV: "production" } });
  const [{ port, ...extra }] = await Promise.race([once(child, "message"), once(child, "exit").then(() => Promise.reject(new Error(`${script} exited`)))]);
  return { child, url: `http://127.0.0.1:${port}`, ...extra };
}

/** A server process's CPU time so far in µs: in all (every thread), and its main thread's where the system tells it. */
export async function cpuTime(child) {
  child.send("cpu");
  const [{ cpu, main }] = await once(child, "message");
  return { total: cpu, main };
}

/**
 * What a run of `count` requests cost a server, from its {@link cpuTime}
 * before and after: requests per CPU-second (every thread), and µs of its
 * main thread per request (undefined where the system does not tell it).
 */
export function cpuCost(before, after, count) {
  const mainUs = before.main === undefined || after.main === undefined ? undefined : (after.main - before.main) / count;
  return { perCpu: count / ((after.total - before.total) / 1e6), mainUs };
}

/** Pins this process to `cpu`; returns what puts it back on every CPU. */
export function pinSelf(cpu) {
  execFileSync("taskset", ["-pc", String(cpu), String(process.pid)], { stdio: "ignore" });
  return () => execFileSync("taskset", ["-pc", `0-${cpus().length - 1}`, String(process.pid)], { stdio: "ignore" });
}

/**
 * Prints a server bench's comparison table from interleaved rounds
 * (`samples[k][round]` of server k): the median rate and rate per server
 * CPU-second, each with its ratio against the first server (the median of
 * per-round ratios), the main thread's µs per `unit` where the system tells
 * it, then the `extra` columns. Returns `ratio(k, base, key)`, the median of
 * server k's per-round `key` over server `base`'s, and whether the
 * main-thread column was there.
 */
export function printComparison(servers, samples, { rate, perCpu, unit, base, extra = [] }) {
  const ratio = (k, b, key) => median(samples[k].map((x, r) => x[key] / samples[b][r][key]));
  const med = (k, key) => median(samples[k].map((x) => x[key]));
  const main = samples[0][0].mainUs !== undefined;
  console.log(
    `| server | ${rate} | vs ${base} | ${perCpu} | vs ${base} |${main ? ` main thread µs/${unit} | vs ${base} |` : ""}${extra.map((c) => ` ${c.head} |`).join("")}`,
  );
  console.log(`|---|---:|---:|---:|---:|${main ? "---:|---:|" : ""}${extra.map(() => "---:|").join("")}`);
  for (let k = 0; k < servers.length; k++) {
    // Main-thread time is a cost: the speed ratio is the baseline's over the server's.
    const mainCells = main ? ` ${med(k, "mainUs").toFixed(2)} | ${ratio(0, k, "mainUs").toFixed(2)}× |` : "";
    const extraCells = extra.map((c) => ` ${med(k, c.key).toFixed(2)} |`).join("");
    console.log(
      `| ${servers[k].name} | ${Math.round(med(k, "rps"))} | ${ratio(k, 0, "rps").toFixed(2)}× | ${Math.round(med(k, "perCpu"))} | ${ratio(k, 0, "perCpu").toFixed(2)}× |${mainCells}${extraCells}`,
    );
  }
  return { ratio, main };
}

/**
 * Two servers side by side at once: both pinned to CPU 1 (where they were
 * started), each loaded by a load generator of its own on CPU 0 at the same
 * time, `rounds` rounds of `seconds`. Whatever the host does in those
 * seconds it does to both. Per round: the speed of the second against the
 * first by main-thread time per request (the first's µs over the second's),
 * and the ratio of their counts. `load(server, seconds)` runs one load
 * generator and resolves with the requests answered.
 */
export async function sideBySide(pair, { rounds, seconds, load }) {
  const speed = [];
  const rate = [];
  for (let r = 0; r < rounds; r++) {
    const before = await Promise.all(pair.map((s) => cpuTime(s.child)));
    const counts = await Promise.all(pair.map((s) => load(s, seconds)));
    const after = await Promise.all(pair.map((s) => cpuTime(s.child)));
    const [first, second] = pair.map((_, k) => cpuCost(before[k], after[k], counts[k]).mainUs);
    speed.push(first / second);
    rate.push(counts[1] / counts[0]);
  }
  return { speed, rate };
}

/**
 * `--against DIR`: this checkout's Anvil server side by side with the same
 * server script of another checkout (DIR, built: `pnpm install` and
 * `turbo run build`), to tell whether a change made it faster. Runs
 * {@link sideBySide} `runs` times, the two swapping places each run, and
 * prints the speed of this checkout's server against the other's per run
 * and over all rounds (medians of per-round ratios: above 1 is faster).
 */
export async function runAgainst({ heading, script, dir, quick, load }) {
  const root = resolve(dir);
  const other = join(root, "tooling", "bench", "servers", script);
  if (!existsSync(other)) throw new Error(`--against ${dir}: there is no ${other}; give the root of another Anvil checkout, installed and built`);
  if (!canPin()) throw new Error("--against needs two CPUs and taskset: both servers share CPU 1 while the load comes from CPU 0");
  const runs = quick ? 2 : 4;
  const rounds = quick ? 3 : 10;
  const seconds = quick ? 1 : 3;
  const servers = [
    { name: "this checkout", ...(await startServer(script, 1)) },
    { name: root, ...(await startServer(other, 1)) },
  ];
  try {
    await Promise.all(servers.map((s) => load(s, quick ? 1 : 3))); // warm-up past the optimizing compiler
    console.log(`\n## ${heading}: this checkout against ${root}\n`);
    console.log(`Both servers on CPU 1 at once, each with its own load on CPU 0; ${runs} runs of ${rounds} rounds of ${seconds} s, swapping places each run.`);
    console.log("Speed: the other server's main-thread time per request over this one's (above 1: this checkout is faster).\n");
    console.log("| run | first | speed | req ratio | per-round speed |");
    console.log("|---|---|---:|---:|---|");
    const all = [];
    for (let run = 0; run < runs; run++) {
      const [mine, theirs] = servers;
      const pair = run % 2 === 0 ? [theirs, mine] : [mine, theirs];
      const { speed, rate } = await sideBySide(pair, { rounds, seconds, load });
      // As this checkout's speed against the other's, whichever went first.
      const ours = run % 2 === 0 ? speed : speed.map((x) => 1 / x);
      const counts = run % 2 === 0 ? rate : rate.map((x) => 1 / x);
      all.push(...ours);
      console.log(
        `| ${run + 1} | ${pair[0].name} | ${median(ours).toFixed(3)}× | ${median(counts).toFixed(3)}× | ${ours.map((x) => x.toFixed(2)).join(", ")} |`,
      );
    }
    console.log(`\nOver all ${all.length} rounds: this checkout at ${median(all).toFixed(3)}× the other's speed.`);
  } finally {
    for (const s of servers) s.child.kill();
  }
}
