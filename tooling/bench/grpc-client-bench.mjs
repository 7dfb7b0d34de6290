// Anvil's gRPC client against grpc-js's, on the same server: unary
// `/bench.grpc.Greeter/SayHello` calls of the greeter model
// (servers/greeter-model.mjs), at concurrency 1 and 32, each client over one
// HTTP/2 connection kept open. Anvil's client is `createClient` with
// `grpc()` over client-core's HTTP/2 transport; grpc-js's is made with
// proto-loader from the `.proto` Anvil emits for the same service, each call
// a promise around its callback.
//
// Both clients run in one process of their own (grpc-client-worker.mjs),
// pinned to CPU 0, and call one server process pinned to CPU 1 (where taskset
// can): calls/s, and the client process's CPU per call (every thread). They
// alternate round by round; ratios are medians of per-round ratios against
// grpc-js. The same comparison runs against two servers: Anvil's gRPC server
// (the faster one: the client's costs weigh most there) and grpc-js's.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { PATH } from "./servers/greeter-model.mjs";
import { canPin, startServer } from "./server-process.mjs";

const SERVERS = [
  ["Anvil's gRPC server", "grpc-anvil.mjs"],
  ["grpc-js's server", "grpc-js.mjs"],
];

/** Runs the worker (pinned to CPU 0 when it can) and resolves with the JSON it prints last. */
async function runWorker(args, pin) {
  const script = join(import.meta.dirname, "grpc-client-worker.mjs");
  const [command, argv] = pin ? ["taskset", ["-c", "0", process.execPath, script, ...args]] : [process.execPath, [script, ...args]];
  const child = spawn(command, argv, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => (out += chunk));
  const [code] = await once(child, "close");
  if (code !== 0) throw new Error(`grpc-client-worker.mjs ${args.join(" ")} exited with ${code}`);
  return JSON.parse(out.trim().split("\n").at(-1));
}

const fmt = (x, digits = 0) => x.toFixed(digits);

/** Runs the bench and prints its tables. */
export async function runGrpcClientBench({ quick }) {
  const pin = canPin();
  console.log(`\n## gRPC client: Anvil (createClient + grpc(), HTTP/2 transport) vs grpc-js (unary ${PATH})\n`);
  console.log(pin ? "Server pinned to CPU 1, clients to CPU 0." : "Processes not pinned (taskset unavailable or a single CPU).");
  const rounds = quick ? 4 : 10;
  console.log(`Medians of ${rounds} interleaved rounds of ${quick ? 0.4 : 1} s per client; ratios are medians of per-round ratios against grpc-js.`);
  for (const [name, script] of SERVERS) {
    const server = await startServer(script, pin ? 1 : undefined);
    try {
      const { rows } = await runWorker([quick ? "quick" : "full", server.url], pin);
      console.log(`\nAgainst ${name}:\n`);
      console.log("| client | concurrency | calls/s | CPU µs/call | calls/s vs grpc-js | CPU vs grpc-js |");
      console.log("|---|---:|---:|---:|---:|---:|");
      for (const row of rows) {
        console.log(
          `| ${row.name} | ${row.concurrency} | ${fmt(row.callsPerSecond)} | ${fmt(row.cpuUs, 1)} | ${fmt(row.speedRatio, 2)}× | ${fmt(row.cpuRatio, 2)}× |`,
        );
      }
      for (const row of rows) {
        if (row.name === "Anvil") console.log(`\nper-round Anvil/grpc-js calls/s at ${row.concurrency}: ${row.speedRatios.map((x) => fmt(x, 2)).join(", ")}`);
      }
    } finally {
      server.child.kill();
    }
  }
}
