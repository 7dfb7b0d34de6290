// The client side of the client-cpu bench (client-cpu-bench.mjs), in a
// process of its own so that it can be pinned and so that a cold start is
// cold. Prints one line of JSON.
//
//   node client-cpu-worker.mjs in-process quick|full
//   node client-cpu-worker.mjs loopback quick|full PORT
//   node client-cpu-worker.mjs cold anvil|sdk PORT
//
// A cold run's totalMs is performance.now() at the first answer: the time
// since the process started (Node's time origin).
import { join } from "node:path";
import { compareClients } from "./timing.mjs";

const [mode, arg, portText] = process.argv.slice(2);
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

const GENERATED = join(import.meta.dirname, ".generated", "dynamodb", "dynamo-db-20120810.js");
const REGION = "us-east-1";
// Not frozen: the SDK marks credentials objects with where they came from.
const CREDENTIALS = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

/** The call both clients make, in each client's spelling of DynamoDB's attribute values. */
const TABLE = "widgets";
const anvilInput = { TableName: TABLE, Key: { id: { $case: "S", value: "item-42" } }, ConsistentRead: true };
const sdkInput = { TableName: TABLE, Key: { id: { S: "item-42" } }, ConsistentRead: true };

/** Anvil's client: what a user of the generated client writes. */
async function anvilClient(endpoint, transport) {
  const [{ createClient }, { awsJson1_0 }, { sigv4 }, { DynamoDB_20120810 }] = await Promise.all([
    import("@anvil/client-core"),
    import("@anvil/protocol-awsjson"),
    import("@anvil/auth-sigv4"),
    import(GENERATED),
  ]);
  const client = createClient(DynamoDB_20120810, {
    endpoint,
    protocols: [awsJson1_0()],
    auth: [sigv4({ region: REGION, credentials: CREDENTIALS })],
    retry: { maxAttempts: 1 },
    ...(transport === undefined ? {} : { transport }),
  });
  return () => client.getItem(anvilInput);
}

/** The SDK's client, as its documentation makes one. */
async function sdkClient(endpoint, requestHandler) {
  const { DynamoDBClient, GetItemCommand } = await import("@aws-sdk/client-dynamodb");
  const client = new DynamoDBClient({
    region: REGION,
    endpoint,
    credentials: CREDENTIALS,
    maxAttempts: 1,
    ...(requestHandler === undefined ? {} : { requestHandler }),
  });
  return () => client.send(new GetItemCommand(sdkInput));
}

/** The answer both in-process transports give: a GetItem output as DynamoDB writes one. */
const ANSWER = new TextEncoder().encode(
  JSON.stringify({
    Item: {
      id: { S: "item-42" },
      name: { S: "A widget with a reasonably descriptive name" },
      quantity: { N: "12" },
      owner: { S: "someone@example.com" },
      tags: { SS: ["blue", "large"] },
      inStock: { BOOL: true },
    },
  }),
);
const ANSWER_HEADERS = [
  "content-type",
  "application/x-amz-json-1.0",
  "content-length",
  String(ANSWER.byteLength),
  "x-amzn-requestid",
  "EXAMPLEREQUESTID0000000000000000000000000000000000000",
  "date",
  new Date().toUTCString(),
];

async function inProcessClients() {
  const { HttpHeaders } = await import("@anvil/core");
  // As a socket transport answers: headers from the raw pairs the HTTP parser gave, the body as bytes.
  const transport = { httpVersion: "1.1", send: async () => ({ status: 200, headers: HttpHeaders.fromRawPairs(ANSWER_HEADERS), body: ANSWER }) };
  const handler = {
    handle: async () => {
      const headers = {};
      for (let i = 0; i < ANSWER_HEADERS.length; i += 2) headers[ANSWER_HEADERS[i]] = ANSWER_HEADERS[i + 1];
      return { response: { statusCode: 200, headers, body: ANSWER } };
    },
  };
  const endpoint = "http://dynamodb.test";
  return [
    ["Anvil", await anvilClient(endpoint, transport)],
    ["AWS SDK", await sdkClient(endpoint, handler)],
  ];
}

const quick = arg === "quick";
if (mode === "in-process") {
  const clients = await inProcessClients();
  const check = await clients[0][1]();
  if (check.Item?.quantity?.value !== "12" || check.$metadata.httpStatusCode !== 200) throw new Error("client-cpu: Anvil's answer is wrong");
  console.log(JSON.stringify({ rows: await compareClients(clients, 1, quick ? 4 : 10, quick ? 300 : 1000, quick ? 1000 : 3000) }));
} else if (mode === "loopback") {
  const endpoint = `http://127.0.0.1:${portText}`;
  const clients = [
    ["Anvil", await anvilClient(endpoint)],
    ["AWS SDK", await sdkClient(endpoint)],
  ];
  const rows = [];
  for (const concurrency of [1, 32]) rows.push(...(await compareClients(clients, concurrency, quick ? 4 : 10, quick ? 300 : 1000, quick ? 1000 : 3000)));
  console.log(JSON.stringify({ rows }));
  process.exit(0); // keep-alive sockets of either client
} else if (mode === "cold") {
  const endpoint = `http://127.0.0.1:${portText}`;
  const t0 = performance.now();
  const call = arg === "anvil" ? await anvilClient(endpoint) : await sdkClient(endpoint);
  const t1 = performance.now();
  await call();
  const t2 = performance.now();
  await call();
  const t3 = performance.now();
  console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, secondMs: t3 - t2, totalMs: t2 }));
  process.exit(0);
} else {
  throw new Error(`client-cpu-worker: unknown mode ${mode}`);
}
