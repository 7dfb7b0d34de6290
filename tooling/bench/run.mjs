#!/usr/bin/env node
// Anvil benchmarks. Every figure is reported next to a baseline measured in
// the same run, on the same input, so results compare across machines.
//
//   pnpm bench                 all the speed benchmarks
//   pnpm bench model json      only those named (model, codegen, json, cbor, proto, client, grpc-client, server, grpc, otel;
//                              client-cpu (client's second half), soak, stream-memory and fuzz run only when named)
//   pnpm bench --quick         smaller inputs and shorter runs
//   pnpm bench soak --duration 10m      one server under mixed load at 70% of its capacity (default 10 minutes)
//   pnpm bench stream-memory --size 1g  streaming blobs up and down, peak memory of each side (default 1 GiB)
//   pnpm bench fuzz --runs 100000       every decoder fed fast-check inputs (default 100 000 each)
//   pnpm bench server grpc --instructions
//                              the servers' instructions per request under callgrind, not the wall clock
//   pnpm bench server --against ../other-checkout
//                              this checkout's Anvil server side by side with another checkout's (server, grpc)
import { parseArgs } from "node:util";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    quick: { type: "boolean" },
    instructions: { type: "boolean" },
    against: { type: "string" },
    duration: { type: "string" },
    runs: { type: "string" },
    size: { type: "string" },
    "aws-model": { type: "string" },
  },
});
const only = new Set(positionals);
const options = {
  quick: values.quick ?? false,
  instructions: values.instructions ?? false,
  against: values.against,
  duration: values.duration,
  runs: values.runs,
  awsModel: values["aws-model"],
  size: values.size,
};

if (options.against !== undefined && (only.size === 0 || [...only].some((name) => name !== "server" && name !== "grpc"))) {
  console.error("--against compares servers: name the server bench, the grpc bench or both (pnpm bench server --against ../other-checkout)");
  process.exit(2);
}

// name, run, and whether `pnpm bench` with no names runs it: the reliability benches (minutes long, and
// failing on a broken invariant rather than reporting a ratio) run only when named.
const benches = [
  ["model", () => import("./model-bench.mjs").then((m) => m.runModelBench(options))],
  ["codegen", () => import("./codegen-bench.mjs").then((m) => m.runCodegenBench(options))],
  ["json", () => import("./json-bench.mjs").then((m) => m.runJsonBench(options))],
  ["cbor", () => import("./cbor-bench.mjs").then((m) => m.runCborBench(options))],
  ["proto", () => import("./proto-bench.mjs").then((m) => m.runProtoBench(options))],
  // `client`: against bare node:http and fetch, then against the AWS SDK's client (`client-cpu`, also run alone).
  [
    "client",
    () =>
      import("./client-bench.mjs")
        .then((m) => m.runClientBench(options))
        .then(() => import("./client-cpu-bench.mjs"))
        .then((m) => m.runClientCpuBench(options)),
  ],
  ["client-cpu", () => import("./client-cpu-bench.mjs").then((m) => m.runClientCpuBench(options)), "named"],
  ["grpc-client", () => import("./grpc-client-bench.mjs").then((m) => m.runGrpcClientBench(options))],
  ["server", () => import("./server-bench.mjs").then((m) => m.runServerBench(options))],
  ["grpc", () => import("./grpc-bench.mjs").then((m) => m.runGrpcBench(options))],
  ["otel", () => import("./otel-bench.mjs").then((m) => m.runOtelBench(options))],
  ["soak", () => import("./soak-bench.mjs").then((m) => m.runSoakBench(options)), "named"],
  ["stream-memory", () => import("./stream-memory-bench.mjs").then((m) => m.runStreamMemoryBench(options)), "named"],
  ["fuzz", () => import("./fuzz-bench.mjs").then((m) => m.runFuzzBench(options)), "named"],
];
const unknown = [...only].filter((name) => !benches.some(([known]) => known === name));
if (unknown.length > 0) {
  console.error(`no bench named ${unknown.join(", ")}: the benches are ${benches.map(([name]) => name).join(", ")}`);
  process.exit(2);
}
try {
  for (const [name, run, when] of benches) if (only.has(name) || (only.size === 0 && when !== "named")) await run();
} catch (error) {
  // A bench that cannot run (a missing tool, a wrong --against) says why, without a stack.
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
