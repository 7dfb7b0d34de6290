// gRPC unary calls/s: the Anvil gRPC server (@anvil/server + protocol-grpc on
// h2c) against a grpc-js server of the same service (proto-loader on the
// emitted .proto), with bare node:http2 servers answering a pre-encoded reply
// as the floor (on the stream API, and on the compatibility API that
// @anvil/server's Node adapter uses). The load comes from h2load (Debian's nghttp2-client): one
// connection, 50 concurrent streams, the same framed request to every server.
// Servers run in processes of their own pinned to one core, h2load to the
// other; they are measured in interleaved rounds, the order rotating each
// round, and ratios are medians of per-round ratios.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PATH, REQUEST } from "./servers/greeter-model.mjs";
import { runInstructionBench } from "./instructions.mjs";
import { canPin, cpuCost, cpuTime, printComparison, runAgainst, startServer } from "./server-process.mjs";

// BENCH_SERVERS=grpc-js,grpc-anvil runs only those scripts of servers/ (the first is the baseline), for experiments.
const SERVERS = process.env.BENCH_SERVERS
  ? process.env.BENCH_SERVERS.split(",").map((s) => [s, `${s}.mjs`])
  : [
      ["grpc-js", "grpc-js.mjs"],
      ["anvil (grpc)", "grpc-anvil.mjs"],
      ["bare node:http2 (stream API)", "grpc-bare.mjs"],
      ["bare node:http2 (compat API)", "grpc-bare-compat.mjs"],
    ];

function has(cmd, args) {
  try {
    execFileSync(cmd, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Concurrent streams h2load keeps open on its one connection. */
const STREAMS = 50;

/** h2load's command line for one run (for `seconds`, or until `calls` calls are answered). */
function h2loadCommand(url, { body, streams, pin, seconds, calls }) {
  const until = calls === undefined ? ["-D", String(seconds)] : ["-n", String(calls)];
  const args = ["-c", "1", "-m", String(streams), ...until, "--data", body, "-H", "content-type: application/grpc+proto", "-H", "te: trailers", url];
  return pin ? ["taskset", ["-c", "0", "h2load", ...args]] : ["h2load", args];
}

/** One h2load run (for `seconds`, or until `calls` calls are answered); resolves with the calls answered. */
function h2load(name, url, options) {
  const [cmd, args] = h2loadCommand(url, options);
  return h2loadResult(name, execFileSync(cmd, args, { encoding: "utf8" }));
}

const execFileAsync = promisify(execFile);

/** An h2load run that lets other work go on meanwhile (another run, on another server). */
async function h2loadAsync(name, url, options) {
  const [cmd, args] = h2loadCommand(url, options);
  const { stdout } = await execFileAsync(cmd, args, { encoding: "utf8" });
  return h2loadResult(name, stdout);
}

/** What h2load printed, read: the calls answered; throws on failed calls. */
function h2loadResult(name, out) {
  const done = /requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored/.exec(out);
  if (done === null) throw new Error(`grpc bench: cannot read h2load's output:\n${out}`);
  const [, total, ok, failed, errored] = done.map(Number);
  if (failed > 0 || errored > 0 || ok !== total) throw new Error(`grpc bench: ${name}: ${failed} failed, ${errored} errored calls\n${out}`);
  return ok;
}

/** One h2load run: calls/s, calls per server CPU-second, main-thread µs per call. */
async function load(server, { body, seconds, streams, pin }) {
  const cpuBefore = await cpuTime(server.child);
  const ok = h2load(server.name, server.url, { body, streams, pin, seconds });
  return { rps: ok / seconds, ...cpuCost(cpuBefore, await cpuTime(server.child), ok) };
}

/** Runs the gRPC bench and prints its table. */
export async function runGrpcBench({ quick, instructions, against }) {
  if (!has("h2load", ["--version"])) {
    console.log("\n## gRPC server\n\nskipped: h2load is not installed (apt-get install nghttp2-client)");
    return;
  }
  const body = requestFile();
  if (instructions) return runGrpcInstructions({ quick, body });
  if (against !== undefined) {
    return runAgainst({
      heading: `gRPC server (unary ${PATH}, h2load: 1 connection, ${STREAMS} streams)`,
      script: "grpc-anvil.mjs",
      dir: against,
      quick,
      load: (server, seconds) => h2loadAsync("anvil (grpc)", `${server.url}${PATH}`, { body, streams: STREAMS, pin: true, seconds }),
    });
  }
  const pin = canPin();
  const rounds = quick ? 3 : 6;
  const seconds = quick ? 2 : 5;
  const streams = STREAMS;
  const servers = [];
  try {
    for (const [name, script] of SERVERS) {
      const started = await startServer(script, pin ? 1 : undefined);
      servers.push({ name, child: started.child, url: `${started.url}${PATH}` });
    }
    for (const s of servers) await load(s, { body, seconds: quick ? 1 : 3, streams, pin }); // warm-up (and a check that every call succeeds)
    const samples = servers.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < servers.length; i++) {
        const k = (i + r) % servers.length;
        samples[k].push(await load(servers[k], { body, seconds, streams, pin }));
      }
    }
    console.log(`\n## gRPC server (unary ${PATH}, ${REQUEST.length}-byte request, h2load: 1 connection, ${streams} streams)\n`);
    console.log(pin ? "Servers pinned to CPU 1, h2load to CPU 0." : "Processes not pinned (taskset unavailable or a single CPU).");
    console.log(`Medians of ${rounds} interleaved ${seconds}-second runs per server; ratios are medians of per-round ratios against grpc-js.\n`);
    printComparison(servers, samples, { rate: "calls/s", perCpu: "calls per server CPU-s", unit: "call", base: "grpc-js" });
    console.log(`\nper-round anvil/grpc-js calls/s: ${samples[1].map((x, r) => (x.rps / samples[0][r].rps).toFixed(2)).join(", ")}`);
  } finally {
    for (const s of servers) s.child.kill();
  }
}

/** The framed request every server gets, in a file for h2load. */
function requestFile() {
  const dir = mkdtempSync(join(tmpdir(), "anvil-grpc-bench-"));
  const body = join(dir, "request.bin");
  const framed = Buffer.alloc(5 + REQUEST.length);
  framed.writeUInt32BE(REQUEST.length, 1);
  framed.set(REQUEST, 5);
  writeFileSync(body, framed);
  return body;
}

/** `--instructions`: each server's instructions per call under callgrind (see instructions.mjs), driven by h2load. */
async function runGrpcInstructions({ quick, body }) {
  const streams = STREAMS;
  const [n1, n2] = quick ? [1000, 3000] : [5000, 15000];
  await runInstructionBench({
    heading: `gRPC server, instructions per call (unary ${PATH}, h2load: 1 connection, ${streams} streams)`,
    unit: "call",
    servers: SERVERS,
    drive: (name, url, calls) => h2load(name, `${url}${PATH}`, { body, streams, pin: false, calls }),
    n1,
    n2,
  });
}
