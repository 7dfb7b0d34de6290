// The soak bench's server: one process serving the Inventory service on every
// protocol it declares, as `anvil serve` groups them: the HTTP protocols share
// a server while their routes do not collide (restJson1 and simpleRestJson
// do, awsJson1_0 and awsJson1_1 do), each group listening on a port of its
// own for HTTP/1.1 and h2c alike; gRPC on h2c on another. Sends the bench
// `{ port, endpoints }` ({ protocol id: base URL }) and answers "eld" with
// the event loop's delay (ms) since the last ask and since the last
// "eld-reset", besides ready.mjs's messages.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { grpc } from "@anvil/protocol-grpc";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { rpcv2Json } from "@anvil/protocol-rpcv2json";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { ready } from "./ready.mjs";
import { handlers, Inventory } from "./soak-model.mjs";

const PROTOCOLS = [restJson1(), awsJson1_0(), awsJson1_1(), rpcv2Cbor(), rpcv2Json(), simpleRestJson(), grpc()];
const GRPC = "alloy.proto#grpc";

const make = (ids) =>
  createServer(Inventory, { protocols: PROTOCOLS })
    .register(handlers)
    .mapService(...ids);

// Each protocol joins the first group whose routes it does not collide with (as `anvil serve` does).
const groups = [];
for (const id of Inventory.protocols) {
  if (id === GRPC) continue;
  const group = groups.find((g) => {
    try {
      make([...g, id]).start();
      return true;
    } catch {
      return false;
    }
  });
  if (group) group.push(id);
  else groups.push([id]);
}

const endpoints = {};
const listeners = [];
for (const ids of groups) {
  const listener = await listen(make(ids), { port: 0, http2: "both" });
  listeners.push(listener);
  for (const id of ids) endpoints[id] = listener.url;
}
const grpcListener = await listen(make([GRPC]), { port: 0, http2: true });
endpoints[GRPC] = grpcListener.url;

// The event loop's delay: since the last "eld" (a sample), and since the last "eld-reset" (a whole phase). The
// histograms hold the intervals between ticks of a RESOLUTION_MS timer: the delay is what they exceed it by.
const RESOLUTION_MS = 10;
const sample = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
const phase = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
sample.enable();
phase.enable();
const late = (ns) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
const figures = (h) => ({ p99: late(h.percentile(99)), max: late(h.max), mean: late(h.mean), count: h.count });
process.on("message", (message) => {
  if (message === "eld") {
    process.send({ eld: figures(sample), phase: figures(phase) });
    sample.reset();
  } else if (message === "eld-reset") {
    sample.reset();
    phase.reset();
  }
});
ready(listeners[0].port, { endpoints });
