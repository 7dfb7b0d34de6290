// The client side of the grpc-client bench (grpc-client-bench.mjs), in a
// process of its own so that it can be pinned to a core and profiled
// (`node --cpu-prof grpc-client-worker.mjs ...`). Prints one line of JSON.
//
//   node grpc-client-worker.mjs quick|full URL [only]
//
// `only` (anvil or grpc-js) runs that client alone, for a profile of it;
// GRPC_CLIENT_CONCURRENCY=1 (or 32) runs that concurrency alone.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Greeter } from "./servers/greeter-model.mjs";
import { compareClients } from "./timing.mjs";

const [size, url, only] = process.argv.slice(2);

/** The call both clients make, and what the server answers it with. */
const INPUT = { name: "bench client", times: 1 };
const ANSWER = "Hello, bench client!";

/** Anvil's client, as a user writes it: createClient with the gRPC protocol, over client-core's HTTP/2 transport (its default for gRPC). */
async function anvilClient() {
  const [{ createClient }, { grpc }] = await Promise.all([import("@anvil/client-core"), import("@anvil/protocol-grpc")]);
  const client = createClient(Greeter, { endpoint: url, protocols: [grpc()] });
  return () => client.sayHello(INPUT);
}

/** grpc-js's client, as its documentation makes one: proto-loader on the `.proto` Anvil emits for the service, a promise per call. */
async function grpcJsClient() {
  const [grpcJs, protoLoader, { emitProto }] = await Promise.all([import("@grpc/grpc-js"), import("@grpc/proto-loader"), import("@anvil/protocol-grpc")]);
  const file = join(mkdtempSync(join(tmpdir(), "anvil-bench-")), "greeter.proto");
  writeFileSync(file, emitProto(Greeter));
  const loaded = grpcJs.loadPackageDefinition(protoLoader.loadSync(file, { keepCase: true, defaults: true }));
  const client = new loaded.bench.grpc.Greeter(new URL(url).host, grpcJs.credentials.createInsecure());
  return () => new Promise((resolve, reject) => client.SayHello(INPUT, (error, reply) => (error ? reject(error) : resolve(reply))));
}

const all = [
  ["Anvil", anvilClient],
  ["grpc-js", grpcJsClient],
];
const clients = [];
for (const [name, make] of all) {
  if (only === undefined || only === name.toLowerCase()) clients.push([name, await make()]);
}
// Each client's answer checked once, before anything is timed.
for (const [name, call] of clients) {
  const reply = await call();
  if (reply.message !== ANSWER) throw new Error(`grpc-client bench: ${name} answered ${JSON.stringify(reply)}`);
}
const quick = size === "quick";
const rows = [];
const concurrencies = process.env.GRPC_CLIENT_CONCURRENCY === undefined ? [1, 32] : [Number(process.env.GRPC_CLIENT_CONCURRENCY)];
for (const concurrency of concurrencies) rows.push(...(await compareClients(clients, concurrency, quick ? 4 : 10, quick ? 400 : 1000, quick ? 1500 : 3000)));
console.log(JSON.stringify({ rows }));
process.exit(0); // both clients keep their connection open
