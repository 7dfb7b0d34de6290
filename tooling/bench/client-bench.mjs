// @anvil/client-core calls/s against a bare client making the same request
// (same route, same JSON payload, same server, same concurrency), measured in
// interleaved rounds in one run, for each HTTP/1.1 transport: over `fetch`
// against a bare `fetch`, and over the default transport on Node (node:http)
// against a bare node:http request on a keep-alive agent. The server is a
// bare node:http process of its own, so that it does not share the client's
// event loop.
import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import { createClient, fetchTransport } from "@anvil/client-core";
import { integer, member, operation, service, string, struct, timestamp } from "@anvil/core/codegenv1";
import { restJson1 } from "@anvil/protocol-restjson";
import { callLoops, median } from "./timing.mjs";

/** Calls per second of `call` run by `concurrency` loops for `ms` milliseconds. */
const callsPerSecond = async (call, concurrency, ms) => (await callLoops(call, concurrency, ms)).callsPerSecond;

const Item = struct("bench#Item", [
  member("id", string, { required: true }),
  member("name", string, { required: true }),
  member("quantity", integer),
  member("owner", string),
  member("updatedAt", timestamp),
]);
const PutItemInput = struct("bench#PutItemInput", [
  member("id", string, { required: true, httpLabel: true }),
  member("name", string, { required: true }),
  member("quantity", integer),
  member("owner", string),
  member("updatedAt", timestamp),
]);
const Items = service("bench#Items", {
  version: "1",
  protocols: ["aws.protocols#restJson1"],
  operations: {
    putItem: operation("bench#PutItem", {
      input: () => PutItemInput,
      output: () => Item,
      traits: { idempotent: true, http: { method: "PUT", uri: "/items/{id}", code: 200 } },
    }),
  },
});

// Echoes the JSON body with the id from the path: the same ~200-byte answer for both clients.
const SERVER = `
const http = require("node:http");
const server = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    const item = JSON.parse(body || "{}");
    item.id = decodeURIComponent(req.url.slice(req.url.lastIndexOf("/") + 1));
    const out = JSON.stringify(item);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out), "x-amzn-requestid": "bench" });
    res.end(out);
  });
});
server.listen(0, "127.0.0.1", () => process.send(server.address().port));
`;

const input = {
  id: "item-42",
  name: "A widget with a reasonably descriptive name",
  quantity: 12,
  owner: "someone@example.com",
  updatedAt: new Date(Date.UTC(2024, 5, 1, 12, 30)),
};

/** Runs the client bench and prints its table. */
export async function runClientBench({ quick }) {
  const child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const [port] = await once(child, "message");
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    const url = `${endpoint}/items/${encodeURIComponent(input.id)}`;
    const { id: _id, ...bodyInput } = input;
    const bodyOf = () => JSON.stringify({ ...bodyInput, updatedAt: bodyInput.updatedAt.getTime() / 1000 });
    const outputOf = (out) => {
      out.updatedAt = new Date(out.updatedAt * 1000);
      return out;
    };
    const bareFetch = async () => {
      const res = await fetch(url, { method: "PUT", headers: { "content-type": "application/json" }, body: bodyOf() });
      return outputOf(await res.json());
    };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
    const bareHttp = () =>
      new Promise((resolve, reject) => {
        const body = bodyOf();
        const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
        const req = http.request(url, { method: "PUT", agent, headers }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve(outputOf(JSON.parse(text))));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end(body);
      });
    const pairs = [
      ["fetch", "bare fetch", bareFetch, createClient(Items, { endpoint, protocols: [restJson1()], transport: fetchTransport() })],
      ["node:http, the default on Node", "bare node:http", bareHttp, createClient(Items, { endpoint, protocols: [restJson1()] })],
    ];
    const rounds = quick ? 4 : 10;
    const sliceMs = quick ? 300 : 1000;
    for (const [transport, bareName, bare, client] of pairs) {
      const anvil = () => client.putItem(input);
      const check = await anvil();
      if (check.name !== input.name || check.updatedAt.getTime() !== input.updatedAt.getTime()) throw new Error("client bench: the client's answer is wrong");
      const rows = [];
      for (const concurrency of [1, 16]) {
        await callsPerSecond(bare, concurrency, 300);
        await callsPerSecond(anvil, concurrency, 300);
        const samples = [[], []];
        for (let r = 0; r < rounds; r++) {
          const order = r % 2 === 0 ? [0, 1] : [1, 0];
          for (const k of order) samples[k].push(await callsPerSecond(k === 0 ? bare : anvil, concurrency, sliceMs));
        }
        const ratio = median(samples[1].map((x, r) => x / samples[0][r]));
        rows.push([concurrency, median(samples[0]), median(samples[1]), ratio]);
      }
      console.log(`\n## Client (@anvil/client-core, restJson1 over ${transport}) vs ${bareName}\n`);
      console.log(`| concurrency | ${bareName} calls/s | anvil client calls/s | ratio |`);
      console.log("|---:|---:|---:|---:|");
      for (const [c, b, a, r] of rows) console.log(`| ${c} | ${Math.round(b)} | ${Math.round(a)} | ${r.toFixed(2)}× |`);
    }
    agent.destroy();
  } finally {
    child.kill();
  }
}
