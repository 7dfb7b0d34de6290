// Streaming memory: 1 GiB up through a `@streaming` blob input and 1 GiB
// down through a `@streaming` blob output (`--quick` 128 MiB, `--size`),
// Anvil client to Anvil server (servers/stream-anvil.mjs, restJson1), over
// HTTP/1.1 and over HTTP/2 (h2c). Every side runs in a process of its own,
// started afresh for each HTTP version and direction, so each one's peak
// resident memory (VmHWM, from /proc) is its own and that direction's: the
// target is under 96 MiB for the Anvil client and the Anvil server, however
// large the blob.
//
// The baseline, in the same run on the same machine: bare node:http and
// node:http2 moving the same bytes (servers/stream-bare.mjs, and
// stream-client.mjs's bare side): a client streams the bytes to a server
// that drops them, a server streams them to a client that drops them, both
// writing the same 64 KiB chunks and waiting for `drain`. Anvil and bare
// alternate in rounds; the throughput figure is the median of per-round
// ratios (target ≥ 0.8×).
//
// A process that buffers what it should stream would take the machine's
// memory with it: one whose RSS passes GUARD_BYTES is stopped, and its row
// says so.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { hasProc, memoryOf, mib, parseSize } from "./proc.mjs";
import { canPin, startServer } from "./server-process.mjs";
import { median } from "./timing.mjs";

/** Peak resident memory an Anvil client or server may reach, whatever the blob's size. */
const PEAK_TARGET = 96 * 1024 * 1024;
/** Throughput against the bare baseline. */
const RATIO_TARGET = 0.8;
/** Resident memory past which a process of the bench is stopped. */
const GUARD_BYTES = 1024 * 1024 * 1024;
const ROUNDS = 3;

/** Starts stream-client.mjs on one side (`anvil` or `bare`), pinned to `cpu` when given. */
async function startClient(kind, cpu) {
  const path = fileURLToPath(new URL("./stream-client.mjs", import.meta.url));
  const [cmd, args] = cpu === undefined ? [process.execPath, [path, kind]] : ["taskset", ["-c", String(cpu), process.execPath, path, kind]];
  const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit", "ipc"], env: { ...process.env, NODE_ENV: "production" } });
  await Promise.race([once(child, "message"), once(child, "exit").then(() => Promise.reject(new Error(`the ${kind} stream client exited`)))]);
  return child;
}

/** Stopped by the memory guard: which process, and its RSS then. */
class Guarded extends Error {
  constructor(role, rss) {
    super(`the ${role}'s RSS passed ${mib(GUARD_BYTES)} (${mib(rss)}): stopped`);
    this.role = role;
    this.rss = rss;
  }
}

/**
 * One transfer by a client process (`type`: upload or download) of `size`
 * bytes; resolves with its time in ms, having checked the byte count.
 * Watches the RSS of `watched` ({ role: child }) meanwhile, and stops a
 * process that passes the guard (rejecting with {@link Guarded}).
 */
async function transfer(client, { type, origin, version, size, watched }) {
  let tripped;
  const guard = setInterval(() => {
    for (const [role, child] of Object.entries(watched)) {
      const { rss } = memoryOf(child.pid);
      if (rss > GUARD_BYTES && tripped === undefined) {
        tripped = new Guarded(role, rss);
        child.kill("SIGKILL");
      }
    }
  }, 50);
  try {
    client.send({ type, origin, version, size });
    const [answer] = await Promise.race([once(client, "message"), ...Object.values(watched).map((c) => once(c, "exit").then(() => [{ exited: true }]))]);
    if (tripped) throw tripped;
    if (answer.exited) throw new Error(`stream-memory: a process exited during the ${type} over HTTP/${version}`);
    if (answer.error) throw new Error(`stream-memory: the ${type} over HTTP/${version} failed: ${answer.error}`);
    if (answer.bytes !== size) throw new Error(`stream-memory: the ${type} over HTTP/${version} moved ${answer.bytes} bytes, not ${size}`);
    return answer.ms;
  } finally {
    clearInterval(guard);
  }
}

const mbps = (size, ms) => size / 1e6 / (ms / 1000);

/** One HTTP version and direction, in fresh processes: throughputs and peaks of both sides. */
async function measure({ version, type, size, pin }) {
  const procs = [];
  try {
    // Servers on CPU 1, clients on CPU 0.
    const servers = {};
    const clients = {};
    for (const kind of ["bare", "anvil"]) {
      servers[kind] = await startServer(`stream-${kind}.mjs`, pin ? 1 : undefined);
      clients[kind] = await startClient(kind, pin ? 0 : undefined);
      procs.push(servers[kind].child, clients[kind]);
    }
    const origin = (kind) => `http://127.0.0.1:${version === "2" ? servers[kind].h2Port : new URL(servers[kind].url).port}`;
    const run = (kind, bytes) =>
      transfer(clients[kind], {
        type,
        origin: origin(kind),
        version,
        size: bytes,
        watched: { [`${kind} client`]: clients[kind], [`${kind} server`]: servers[kind].child },
      });
    const ms = { bare: [], anvil: [] };
    let stopped;
    try {
      // Warm-up past the optimizing compiler: 16 MiB each.
      for (const kind of ["bare", "anvil"]) await run(kind, Math.min(size, 16 * 1024 * 1024));
      for (let r = 0; r < ROUNDS; r++) {
        for (const kind of r % 2 === 0 ? ["bare", "anvil"] : ["anvil", "bare"]) ms[kind].push(await run(kind, size));
      }
    } catch (error) {
      if (!(error instanceof Guarded)) throw error;
      stopped = error;
    }
    const peak = (child) => (child.exitCode === null && child.signalCode === null ? memoryOf(child.pid).peak : undefined);
    return {
      version,
      type,
      stopped,
      bare: ms.bare.length === ROUNDS ? mbps(size, median(ms.bare)) : undefined,
      anvil: ms.anvil.length === ROUNDS ? mbps(size, median(ms.anvil)) : undefined,
      // Speed: the bare time over Anvil's, per round.
      ratio: ms.anvil.length === ROUNDS ? median(ms.bare.map((b, r) => b / ms.anvil[r])) : undefined,
      peaks: {
        "anvil client": peak(clients.anvil),
        "anvil server": peak(servers.anvil.child),
        "bare client": peak(clients.bare),
        "bare server": peak(servers.bare.child),
      },
    };
  } finally {
    for (const child of procs) child.kill();
  }
}

/** Runs the stream-memory bench and prints its table. */
export async function runStreamMemoryBench({ quick, size: sizeFlag }) {
  if (!hasProc()) throw new Error("the stream-memory bench reads peak memory (VmHWM) from /proc: it runs on Linux");
  const size = parseSize(sizeFlag, quick ? 128 * 1024 * 1024 : 1024 * 1024 * 1024);
  const pin = canPin();
  const rows = [];
  for (const version of ["1.1", "2"]) {
    for (const type of ["upload", "download"]) rows.push(await measure({ version, type, size, pin }));
  }

  const shown = size >= 1024 ** 3 && size % 1024 ** 3 === 0 ? `${size / 1024 ** 3} GiB` : mib(size);
  console.log(`\n## Streaming blobs: ${shown} up and down, Anvil client and server against bare node:http / node:http2\n`);
  console.log(
    "restJson1, `PUT /blobs/{key}` (`@streaming` blob input) and `GET /blobs/{key}?size=N` (`@streaming` blob output). " +
      `Every side a process of its own, fresh for each row${pin ? "; servers on CPU 1, clients on CPU 0" : " (not pinned: taskset unavailable or a single CPU)"}. ` +
      `Medians of ${ROUNDS} rounds, Anvil and bare alternating; the speed is the median of per-round ratios. ` +
      `Peaks (VmHWM) are over each process's life: a 16 MiB warm-up and every round.\n`,
  );
  const peakCell = (row, who) => {
    const bytes = row.peaks[who];
    if (row.stopped?.role === who) return `over ${mib(GUARD_BYTES)} (stopped)`;
    return bytes === undefined ? "—" : mib(bytes);
  };
  const met = (ok) => (ok ? "met" : "**not met**");
  console.log("| HTTP | direction | bare MB/s | anvil MB/s | speed vs bare | anvil client peak | anvil server peak | bare client peak | bare server peak |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const what = r.type === "upload" ? "upload (client → server)" : "download (server → client)";
    const cell = (x, digits = 0) => (x === undefined ? "—" : x.toFixed(digits));
    console.log(
      `| ${r.version} | ${what} | ${cell(r.bare)} | ${cell(r.anvil)} | ${r.ratio === undefined ? "—" : `${r.ratio.toFixed(2)}×`} | ` +
        `${peakCell(r, "anvil client")} | ${peakCell(r, "anvil server")} | ${peakCell(r, "bare client")} | ${peakCell(r, "bare server")} |`,
    );
  }
  console.log(`\nTargets: speed ≥ ${RATIO_TARGET}× bare; Anvil client and server peak RSS < ${mib(PEAK_TARGET)}.\n`);
  for (const r of rows) {
    const where = `HTTP/${r.version} ${r.type}`;
    const problems = [];
    if (r.stopped) problems.push(r.stopped.message);
    if (r.ratio !== undefined && r.ratio < RATIO_TARGET) problems.push(`speed ${r.ratio.toFixed(2)}× bare`);
    for (const who of ["anvil client", "anvil server"])
      if (r.peaks[who] !== undefined && r.peaks[who] >= PEAK_TARGET) problems.push(`${who} peak ${mib(r.peaks[who])}`);
    console.log(`- ${where}: ${met(problems.length === 0)}${problems.length > 0 ? ` (${problems.join("; ")})` : ""}`);
  }
}
