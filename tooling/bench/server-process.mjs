// Server processes for the server benches: each server script of servers/
// runs in a process of its own (pinned to one core where taskset can), sends
// its port when listening, and answers "cpu" with its CPU time (ready.mjs).
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { cpus } from "node:os";
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

/** Starts a server script of servers/ (pinned to `cpu` when given); resolves with the process and its base URL. */
export async function startServer(script, cpu) {
  const path = fileURLToPath(new URL(`./servers/${script}`, import.meta.url));
  const [cmd, args] = cpu === undefined ? [process.execPath, [path]] : ["taskset", ["-c", String(cpu), process.execPath, path]];
  const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit", "ipc"], env: { ...process.env, NODE_ENV: "production" } });
  const [{ port }] = await Promise.race([once(child, "message"), once(child, "exit").then(() => Promise.reject(new Error(`${script} exited`)))]);
  return { child, url: `http://127.0.0.1:${port}` };
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
  console.log(`| server | ${rate} | vs ${base} | ${perCpu} | vs ${base} |${main ? ` main thread µs/${unit} | vs ${base} |` : ""}${extra.map((c) => ` ${c.head} |`).join("")}`);
  console.log(`|---|---:|---:|---:|---:|${main ? "---:|---:|" : ""}${extra.map(() => "---:|").join("")}`);
  for (let k = 0; k < servers.length; k++) {
    // Main-thread time is a cost: the speed ratio is the baseline's over the server's.
    const mainCells = main ? ` ${med(k, "mainUs").toFixed(2)} | ${ratio(0, k, "mainUs").toFixed(2)}× |` : "";
    const extraCells = extra.map((c) => ` ${med(k, c.key).toFixed(2)} |`).join("");
    console.log(`| ${servers[k].name} | ${Math.round(med(k, "rps"))} | ${ratio(k, 0, "rps").toFixed(2)}× | ${Math.round(med(k, "perCpu"))} | ${ratio(k, 0, "perCpu").toFixed(2)}× |${mainCells}${extraCells}`);
  }
  return { ratio, main };
}
