#!/usr/bin/env node
// Anvil benchmarks. Every figure is reported next to a baseline measured in
// the same run, on the same input, so results compare across machines.
//
//   pnpm bench                 all benchmarks
//   pnpm bench model json      only those named (model, codegen, json, cbor, proto, client, server, grpc, otel)
//   pnpm bench --quick         smaller inputs and shorter runs
//   pnpm bench server grpc --instructions
//                              the servers' instructions per request under callgrind, not the wall clock
//   pnpm bench server --against ../other-checkout
//                              this checkout's Anvil server side by side with another checkout's (server, grpc)
import { parseArgs } from "node:util";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { quick: { type: "boolean" }, instructions: { type: "boolean" }, against: { type: "string" } },
});
const only = new Set(positionals);
const options = { quick: values.quick ?? false, instructions: values.instructions ?? false, against: values.against };

if (options.against !== undefined && (only.size === 0 || [...only].some((name) => name !== "server" && name !== "grpc"))) {
  console.error("--against compares servers: name the server bench, the grpc bench or both (pnpm bench server --against ../other-checkout)");
  process.exit(2);
}

const benches = [
  ["model", () => import("./model-bench.mjs").then((m) => m.runModelBench(options))],
  ["codegen", () => import("./codegen-bench.mjs").then((m) => m.runCodegenBench(options))],
  ["json", () => import("./json-bench.mjs").then((m) => m.runJsonBench(options))],
  ["cbor", () => import("./cbor-bench.mjs").then((m) => m.runCborBench(options))],
  ["proto", () => import("./proto-bench.mjs").then((m) => m.runProtoBench(options))],
  ["client", () => import("./client-bench.mjs").then((m) => m.runClientBench(options))],
  ["server", () => import("./server-bench.mjs").then((m) => m.runServerBench(options))],
  ["grpc", () => import("./grpc-bench.mjs").then((m) => m.runGrpcBench(options))],
  ["otel", () => import("./otel-bench.mjs").then((m) => m.runOtelBench(options))],
];
try {
  for (const [name, run] of benches) if (only.size === 0 || only.has(name)) await run();
} catch (error) {
  // A bench that cannot run (a missing tool, a wrong --against) says why, without a stack.
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
