// The client's own cost per call, against the AWS SDK for JavaScript v3 on
// the same calls: DynamoDB's GetItem over awsJson1_0, signed with SigV4, one
// attempt, as `anvil generate --client` types it for our DynamoDB model
// (tooling/server-contract/models/dynamodb.smithy) and as
// `@aws-sdk/client-dynamodb` sends it.
//
// - In process: both clients answered by a transport (the SDK: a request
//   handler) that hands back the same recorded answer without a socket, so
//   that what is measured is the client: serializing, signing, parsing,
//   `$metadata`. CPU time of the process per call.
// - Loopback: both clients calling one `anvil serve --fake` process over
//   keep-alive HTTP/1.1 with their default transports, the client in a
//   process of its own (pinned to CPU 0, the server to CPU 1 where taskset
//   can): calls/s at concurrency 1 and 32, and the client's CPU per call.
// - Cold start: fresh processes, each importing a client, making it and
//   making two calls to that server: the import, the first call, the second.
//
// Each comparison alternates the two clients round by round and reports
// medians; the machine's load drifts, and both see the same drift.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "@anvil/codegen";
import { loadModel } from "@anvil/model";
import { transformSync } from "esbuild";
import { median } from "./timing.mjs";

const here = dirname(fileURLToPath(import.meta.url));
/** Our own model of a few DynamoDB operations; `--aws-model FILE` takes AWS's (the JSON AST of aws/api-models-aws) instead. */
const OUR_MODEL = join(here, "..", "server-contract", "models", "dynamodb.smithy");
/** Where the generated client goes: inside this package, so that `@anvil/core` resolves from it. */
export const GENERATED = join(here, ".generated", "dynamodb");

/**
 * Writes the DynamoDB model's generated code (`anvil generate --client`) as
 * JavaScript (esbuild strips the types, as a user's build would) and
 * returns the path of the service module.
 */
export function generateDynamoDbClient(modelFile = OUR_MODEL) {
  const text = readFileSync(modelFile, "utf8");
  const { model } = loadModel({ sources: [{ file: modelFile, text }] });
  mkdirSync(GENERATED, { recursive: true });
  let serviceModule;
  for (const file of generate(model, { client: true, server: false }).files) {
    const code = transformSync(file.text, { loader: "ts", format: "esm" }).code;
    const path = join(GENERATED, file.path.replace(/\.ts$/, ".js"));
    writeFileSync(path, code);
    if (/^dynamo-db-\d+\.ts$/.test(file.path)) serviceModule = path;
  }
  writeFileSync(join(GENERATED, "package.json"), '{ "type": "module" }\n');
  return serviceModule;
}

function canPin() {
  return availableParallelism() >= 2 && spawnSync("taskset", ["-c", "0", "true"]).status === 0;
}

/** Runs `node script args` (pinned to `cpu` when it can) and resolves with the JSON it prints last. */
async function runNode(script, args, cpu) {
  const [command, argv] = cpu === undefined ? [process.execPath, [script, ...args]] : ["taskset", ["-c", String(cpu), process.execPath, script, ...args]];
  const child = spawn(command, argv, {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  });
  let out = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => (out += chunk));
  const [code] = await once(child, "close");
  if (code !== 0) throw new Error(`${script} ${args.join(" ")} exited with ${code}`);
  return JSON.parse(out.trim().split("\n").at(-1));
}

/** Starts `anvil serve --fake` on the DynamoDB model, pinned to CPU 1 when it can; resolves with its port and a stop function. */
async function startFakeServer(pin, modelFile) {
  const cli = join(here, "node_modules", "@anvil", "codegen", "dist", "cli.js");
  const port = 20000 + (process.pid % 20000);
  const args = [cli, "serve", "--model", modelFile, "--fake", "--port", String(port), "--no-docs", "--no-health"];
  const child = pin
    ? spawn("taskset", ["-c", "1", process.execPath, ...args], { stdio: ["ignore", "pipe", "inherit"] })
    : spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  child.stdout.setEncoding("utf8");
  let said = "";
  await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      said += chunk;
      if (said.includes(`:${port}`)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`anvil serve exited with ${code}: ${said}`)));
  });
  child.stdout.resume();
  return { port, stop: () => child.kill() };
}

const fmt = (x, digits = 0) => x.toFixed(digits);

/**
 * The two programs the bundles are made of: one GetItem with static
 * credentials, as each client's documentation writes it. Anvil's builds a
 * service of the one operation (`withOperations`), so a bundler can leave
 * the model's other operations out.
 */
const BUNDLED_PROGRAMS = {
  anvil: (serviceModule) => `import { createClient } from "@anvil/client-core";
import { withOperations } from "@anvil/core";
import { awsJson1_0 } from "@anvil/protocol-awsjson";
import { sigv4 } from "@anvil/auth-sigv4";
import { DynamoDB_20120810Base, GetItem } from ${JSON.stringify(serviceModule)};

const client = createClient(withOperations(DynamoDB_20120810Base, { getItem: GetItem }), {
  endpoint: process.argv[2],
  protocols: [awsJson1_0()],
  auth: [sigv4({ region: "us-east-1", credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" } })],
});
console.log(await client.getItem({ TableName: "widgets", Key: { id: { $case: "S", value: "item-42" } } }));
`,
  sdk: () => `import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";

const client = new DynamoDBClient({ region: "us-east-1", endpoint: process.argv[2], credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" } });
console.log(await client.send(new GetItemCommand({ TableName: "widgets", Key: { id: { S: "item-42" } } })));
`,
};

/** The outputs an entry loads before it runs: itself and what it imports statically, transitively. */
function eagerOutputs(metafile, entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of metafile.outputs[file].imports) if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
  };
  visit(entry);
  return seen;
}

/**
 * Bundles each program with esbuild for Node, minified, two ways: one file
 * (every `import()` inlined, as esbuild does without splitting), and split
 * as bundlers split `import()`s, counting what the program loads (its entry
 * and the chunks that imports statically). Bytes minified and gzipped.
 */
async function bundleSizes(serviceModule) {
  const { build } = await import("esbuild");
  const { gzipSync } = await import("node:zlib");
  const dir = join(here, ".generated", "bundles");
  mkdirSync(dir, { recursive: true });
  const sizes = {};
  for (const [name, program] of Object.entries(BUNDLED_PROGRAMS)) {
    const entry = join(dir, `${name}.mjs`);
    writeFileSync(entry, program(serviceModule));
    const common = { absWorkingDir: here, entryPoints: [entry], bundle: true, minify: true, platform: "node", format: "esm", write: false, logLevel: "silent" };
    const single = await build({ ...common, outfile: join(dir, "out", `${name}.mjs`) });
    const split = await build({ ...common, outdir: join(dir, "split", name), splitting: true, metafile: true });
    const entryOut = Object.entries(split.metafile.outputs).find(([, o]) => o.entryPoint !== undefined)[0];
    const eager = eagerOutputs(split.metafile, entryOut);
    const loaded = split.outputFiles.filter((f) => eager.has(relative(here, f.path)));
    const sum = (files, f) => files.reduce((n, file) => n + f(file.contents), 0);
    sizes[name] = {
      single: single.outputFiles[0].contents.byteLength,
      singleGzip: gzipSync(single.outputFiles[0].contents).byteLength,
      loaded: sum(loaded, (c) => c.byteLength),
      loadedGzip: sum(loaded, (c) => gzipSync(c).byteLength),
    };
  }
  return sizes;
}

function printBundleSizes(sizes) {
  const kib = (bytes) => `${fmt(bytes / 1024, 1)} KiB`;
  const ratio = (key) => `${fmt(sizes.anvil[key] / sizes.sdk[key], 2)}×`;
  console.log("\nBundle of one GetItem with static credentials (esbuild for Node, minified; gzip in brackets):\n");
  console.log("| bundle | Anvil | AWS SDK | Anvil/SDK |");
  console.log("|---|---:|---:|---:|");
  console.log(
    `| what the program loads (split as bundlers split \`import()\`) | ${kib(sizes.anvil.loaded)} (${kib(sizes.anvil.loadedGzip)}) | ${kib(sizes.sdk.loaded)} (${kib(sizes.sdk.loadedGzip)}) | ${ratio("loaded")} (${ratio("loadedGzip")}) |`,
  );
  console.log(
    `| one file, every \`import()\` inlined | ${kib(sizes.anvil.single)} (${kib(sizes.anvil.singleGzip)}) | ${kib(sizes.sdk.single)} (${kib(sizes.sdk.singleGzip)}) | ${ratio("single")} (${ratio("singleGzip")}) |`,
  );
  console.log(
    "\nAnvil loads the AWS credential chain (`@aws-sdk/credential-provider-node`) by `import()` only for a client given no credentials; the SDK imports it always. Inlined, the chain is most of both files.",
  );
}

/** Runs the bench and prints its tables. */
export async function runClientCpuBench({ quick, awsModel }) {
  const modelFile = awsModel ?? OUR_MODEL;
  const serviceModule = generateDynamoDbClient(modelFile);
  const pin = canPin();
  const worker = join(here, "client-cpu-worker.mjs");

  console.log("\n## Client CPU per call: Anvil (generated DynamoDB client, awsJson1_0, SigV4) vs AWS SDK v3 (@aws-sdk/client-dynamodb)\n");
  console.log(`Model: ${awsModel === undefined ? "our own (tooling/server-contract/models/dynamodb.smithy)" : awsModel}.\n`);
  const inProcess = await runNode(worker, ["in-process", quick ? "quick" : "full"], pin ? 0 : undefined);
  console.log("In process (a recorded answer, no socket):\n");
  console.log("| client | CPU µs/call | calls/s | vs SDK (CPU) |");
  console.log("|---|---:|---:|---:|");
  for (const row of inProcess.rows) console.log(`| ${row.name} | ${fmt(row.cpuUs)} | ${fmt(row.callsPerSecond)} | ${fmt(row.cpuRatio, 2)}× |`);

  const server = await startFakeServer(pin, modelFile);
  try {
    const loopback = await runNode(worker, ["loopback", quick ? "quick" : "full", String(server.port)], pin ? 0 : undefined);
    console.log(`\nLoopback (anvil serve --fake ${pin ? "on CPU 1, clients on CPU 0" : "unpinned"}; default transports, keep-alive):\n`);
    console.log("| client | concurrency | calls/s | CPU µs/call | calls/s vs SDK | CPU vs SDK |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const row of loopback.rows) {
      console.log(
        `| ${row.name} | ${row.concurrency} | ${fmt(row.callsPerSecond)} | ${fmt(row.cpuUs)} | ${fmt(row.speedRatio, 2)}× | ${fmt(row.cpuRatio, 2)}× |`,
      );
    }

    const runs = quick ? 5 : 15;
    const samples = { anvil: [], sdk: [] };
    for (let r = 0; r < runs; r++) {
      for (const name of r % 2 === 0 ? ["anvil", "sdk"] : ["sdk", "anvil"]) {
        samples[name].push(await runNode(worker, ["cold", name, String(server.port)], pin ? 0 : undefined));
      }
    }
    console.log(`\nCold start (a fresh process each, ${runs} runs each; medians in ms):\n`);
    console.log("| client | import + create | first call | second call | process start to first answer |");
    console.log("|---|---:|---:|---:|---:|");
    for (const name of ["anvil", "sdk"]) {
      const s = samples[name];
      const m = (key) => median(s.map((x) => x[key]));
      console.log(
        `| ${name === "anvil" ? "Anvil" : "AWS SDK"} | ${fmt(m("importMs"), 1)} | ${fmt(m("firstMs"), 1)} | ${fmt(m("secondMs"), 1)} | ${fmt(m("totalMs"), 1)} |`,
      );
    }
  } finally {
    server.stop();
  }
  printBundleSizes(await bundleSizes(serviceModule));
}
