// The soak bench's load generator, in a process of its own (so that the
// server's process holds only the server). One lane per protocol and HTTP
// version the server answers: restJson1, simpleRestJson, awsJson1_0,
// awsJson1_1, rpcv2Cbor and rpcv2Json over HTTP/1.1 and HTTP/2, gRPC over
// HTTP/2.
//
// Anvil's clients cost more a call than Anvil's server (they encode, decode
// and validate too), so a load generator made of them alone, on one core,
// cannot bring the server near its capacity. Each lane therefore first makes
// a corpus of calls with the real Anvil client of its protocol, through a
// recording transport, checking every decoded answer against what the
// handler must answer; then the load sends those exact requests over raw
// node:http (keep-alive sockets) and node:http2 (one session per lane) and
// checks each answer byte for byte (status, body, gRPC status) against the
// recorded one. One call in LIVE_EVERY still goes through the Anvil client,
// decoded and checked, for the whole run.
//
// Told by the bench over IPC:
//   { type: "start", endpoints }      records the corpus; answers { type: "ready", lanes, errors }
//   { type: "probe", seconds }        closed loop, every lane full: answers { type: "probed", calls, seconds, perLane, ... }
//   { type: "run", rate, shares, seconds }
//                                     open loop: `rate` calls a second, split over the lanes by `shares` (their
//                                     probe rates), started on schedule whatever the answers do; { type: "progress" }
//                                     every second, then { type: "ran", ... }
// Latency is from the time a call was due, so a call that waited for a free
// connection or stream counts its wait (no coordinated omission).
import http from "node:http";
import http2 from "node:http2";
import { createHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { createClient, noRetry } from "@anvil/client-core";
import { http2Transport, nodeHttpTransport } from "@anvil/client-core/node";
import { collectBytes } from "@anvil/core";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { grpc } from "@anvil/protocol-grpc";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { rpcv2Json } from "@anvil/protocol-rpcv2json";
import { Inventory, itemOf, MISSING_PREFIX, NoSuchItem, pageOf } from "./servers/soak-model.mjs";

const PROTOCOLS = [restJson1(), awsJson1_0(), awsJson1_1(), rpcv2Cbor(), rpcv2Json(), simpleRestJson(), grpc()];
const GRPC = "alloy.proto#grpc";

/** Calls in flight per lane: HTTP/1.1 lanes hold at most this many connections, HTTP/2 lanes this many streams on one session. */
const H1_LANE = 8;
const H2_LANE = 32;
/** Recorded calls per lane, replayed in turn. */
const CORPUS = 200;
/** Every this many calls of a lane, one goes through the Anvil client (decoded and checked) instead of the raw replay. */
const LIVE_EVERY = 25;
/** A call not answered in this time is an error (a hung call). */
const TIMEOUT_MS = 10_000;
/** Calls due but waiting for the lane beyond this many seconds' worth are not sent, and counted as errors. */
const BACKLOG_SECONDS = 2;
/** Headers HTTP/2 refuses (RFC 9113 §8.2.2), and `host`, which becomes `:authority`. */
const H2_FORBIDDEN = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host"]);

/** A small seeded PRNG (mulberry32): the same mix every run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(20261202);

/** Values as the checks compare them: dates by time, keys sorted. */
function canonical(value) {
  return JSON.stringify(value, (_key, v) => {
    if (v instanceof Date) return `date:${v.getTime()}`;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)));
    return v;
  });
}

/** The kinds of call in the mix, with their weights: each makes an input and says what must come back. */
const CALLS = [
  {
    weight: 30,
    make(n) {
      const id = `item-${n}`;
      const withNotes = n % 4 === 0;
      return { op: "getItem", input: { id, withNotes }, expect: canonical(itemOf(id, withNotes)) };
    },
  },
  {
    weight: 30,
    make(n) {
      const item = itemOf(`put-${n}`, n % 3 === 0);
      // Bodies from about 300 B to 4 KiB.
      if (n % 5 === 0) item.notes = "x".repeat(256 + ((n * 97) % 3840));
      return { op: "putItem", input: item, expect: canonical(item) };
    },
  },
  {
    weight: 20,
    make(n) {
      const input = { limit: 1 + (n % 20), tag: [`tag-${n % 9}`], after: String(n * 7) };
      return { op: "listItems", input, expect: canonical(pageOf(input)) };
    },
  },
  {
    weight: 5,
    make(n) {
      return { op: "getItem", input: { id: `${MISSING_PREFIX}${n}` }, expectError: NoSuchItem };
    },
  },
];
const TOTAL_WEIGHT = CALLS.reduce((n, c) => n + c.weight, 0);

function pickCall(n) {
  let r = next() * TOTAL_WEIGHT;
  for (const c of CALLS) {
    r -= c.weight;
    if (r < 0) return c.make(n);
  }
  return CALLS[0].make(n);
}

/** Why a call failed, in a few words: the error's class, code and message. */
function kindOf(error) {
  if (error instanceof Error) {
    const code = error.code ?? error.cause?.code;
    return `${error.name}${code === undefined ? "" : ` (${code})`}: ${error.message.slice(0, 100)}`;
  }
  return `non-error thrown: ${String(error).slice(0, 100)}`;
}

const short = (id) => id.slice(id.indexOf("#") + 1);

/** A transport that hands the request and the answer, as bytes, to `record` on their way. */
function recording(inner, record) {
  return {
    httpVersion: inner.httpVersion,
    async send(request) {
      const body = request.body === undefined ? undefined : await collectBytes(request.body);
      const response = await inner.send({ ...request, body });
      const bytes = response.body === undefined ? new Uint8Array() : await collectBytes(response.body);
      const trailers = response.trailers === undefined ? undefined : await response.trailers;
      record({
        method: request.method,
        path: `${request.url.pathname}${request.url.search}`,
        headers: [...request.headers].filter(([name]) => !H2_FORBIDDEN.has(name)),
        body: body === undefined ? undefined : Buffer.from(body),
        status: response.status,
        answer: Buffer.from(bytes),
        grpcStatus: trailers?.get("grpc-status") ?? response.headers.get("grpc-status") ?? undefined,
      });
      return { ...response, body: bytes, ...(trailers === undefined ? {} : { trailers }) };
    },
    close: () => inner.close?.(),
  };
}

/** Sends a recorded request over raw node:http on the lane's keep-alive agent; resolves with the status and answer. */
function sendH1(lane, x) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent: lane.agent, host: lane.url.hostname, port: lane.url.port, method: x.method, path: x.path, headers: x.h1Headers, timeout: TIMEOUT_MS },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, answer: Buffer.concat(chunks), grpcStatus: undefined }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(Object.assign(new Error(`no answer in ${TIMEOUT_MS} ms`), { code: "TIMEOUT" })));
    req.on("error", reject);
    req.end(x.body);
  });
}

/** Sends a recorded request on the lane's HTTP/2 session (made again if it went away). */
function sendH2(lane, x) {
  if (lane.session === undefined || lane.session.closed || lane.session.destroyed) {
    lane.session = http2.connect(lane.url.origin);
    lane.session.on("error", () => {});
  }
  return new Promise((resolve, reject) => {
    const stream = lane.session.request(x.h2Headers, { endStream: x.body === undefined });
    let status = 0;
    let grpcStatus;
    const chunks = [];
    stream.setTimeout(TIMEOUT_MS, () => stream.close(http2.constants.NGHTTP2_CANCEL));
    stream.on("response", (head) => {
      status = head[":status"];
      grpcStatus = head["grpc-status"];
    });
    stream.on("trailers", (trailers) => (grpcStatus = trailers["grpc-status"] ?? grpcStatus));
    stream.on("data", (c) => chunks.push(c));
    stream.on("end", () => resolve({ status, answer: Buffer.concat(chunks), grpcStatus }));
    stream.on("error", reject);
    stream.on("close", () => {
      if (stream.rstCode !== 0) reject(Object.assign(new Error(`stream reset (code ${stream.rstCode})`), { code: "RST_STREAM" }));
    });
    if (x.body !== undefined) stream.end(x.body);
  });
}

/** Counters of a phase. */
function tally() {
  loopDelay.reset();
  return { calls: 0, live: 0, expectedErrors: 0, errors: new Map(), latency: createHistogram(), shed: 0, cpu: process.cpuUsage() };
}

/** This process's own event-loop delay: when it is large, the load generator, not the server, is late. */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

function recordError(t, lane, kind) {
  const key = `${lane.name}: ${kind}`;
  t.errors.set(key, (t.errors.get(key) ?? 0) + 1);
}

/** A call through the lane's Anvil client, its answer decoded and checked against `spec`. */
async function liveCall(lane, spec, t) {
  let output;
  try {
    output = await lane.client[spec.op](spec.input);
  } catch (error) {
    if (spec.expectError?.is(error) && error.id === spec.input.id) return void t.expectedErrors++;
    return void recordError(t, lane, kindOf(error));
  }
  if (spec.expectError) recordError(t, lane, `expected ${spec.expectError.name}, got an answer`);
  else if (canonical(output) !== spec.expect) recordError(t, lane, `wrong answer to ${spec.op}`);
}

/** One call on a lane: every LIVE_EVERY-th through the Anvil client, the others the raw replay of a recorded one. */
async function call(lane, due, t) {
  const k = lane.calls++;
  lane.inFlight++;
  try {
    if (k % LIVE_EVERY === 0) {
      t.live++;
      await liveCall(lane, lane.specs[(k / LIVE_EVERY) % lane.specs.length], t);
      return;
    }
    const x = lane.corpus[k % lane.corpus.length];
    let got;
    try {
      got = await lane.send(lane, x);
    } catch (error) {
      return void recordError(t, lane, kindOf(error));
    }
    if (got.status !== x.status || (x.grpcStatus !== undefined && got.grpcStatus !== x.grpcStatus) || !got.answer.equals(x.answer)) {
      recordError(
        t,
        lane,
        `answer differs from the recorded one (status ${got.status}, ${got.answer.length} bytes; recorded ${x.status}, ${x.answer.length} bytes)`,
      );
    } else if (x.expectedError) t.expectedErrors++;
  } finally {
    lane.inFlight--;
    t.calls++;
    t.latency.record(Math.max(1, Math.round((performance.now() - due) * 1000)));
  }
}

/** The lanes, each with its Anvil client and its recorded corpus. */
async function makeLanes(endpoints, t) {
  const lanes = [];
  for (const protocol of Object.keys(endpoints)) {
    for (const version of protocol === GRPC ? ["2"] : ["1.1", "2"]) {
      const url = new URL(endpoints[protocol]);
      const corpus = [];
      const h2 = version === "2";
      const lane = {
        name: `${short(protocol)} HTTP/${version}`,
        url,
        cap: h2 ? H2_LANE : H1_LANE,
        inFlight: 0,
        calls: 0,
        corpus,
        specs: [],
        send: h2 ? sendH2 : sendH1,
        // Idle sockets are closed at 4 s, before the server would (it says `Keep-Alive: timeout=5` and, on Node 20,
        // closes a second after that): a request written on a socket the server is closing for idleness fails with
        // ECONNRESET (the keep-alive race), which is not the server's fault. Node's agent takes no notice of the
        // hint (measured: a socket kept 4 s by a server saying timeout=3, closed by the server).
        agent: h2 ? undefined : new http.Agent({ keepAlive: true, maxSockets: H1_LANE, timeout: 4_000 }),
        session: undefined,
      };
      const inner = h2 ? http2Transport() : nodeHttpTransport();
      const options = { endpoint: url.origin, protocols: PROTOCOLS, protocol, retry: noRetry, timeoutMs: TIMEOUT_MS };
      const recordingClient = createClient(Inventory, { ...options, transport: recording(inner, (x) => corpus.push(x)) });
      // The live calls: HTTP/1.1 through node:http (the default transport on Node), HTTP/2 on the transport's session
      // (not the replay's).
      lane.client = createClient(Inventory, { ...options, transport: inner });
      lane.transport = inner;
      for (let n = 0; n < CORPUS; n++) {
        const spec = pickCall(n);
        lane.specs.push(spec);
        const before = corpus.length;
        await liveCall({ ...lane, client: recordingClient }, spec, t);
        if (corpus.length !== before + 1) throw new Error(`${lane.name}: the recording transport saw ${corpus.length - before} requests for one call`);
        corpus[before].expectedError = spec.expectError !== undefined;
      }
      for (const x of corpus) {
        x.h1Headers = Object.fromEntries(x.headers);
        x.h2Headers = { ...Object.fromEntries(x.headers), ":method": x.method, ":path": x.path };
      }
      lanes.push(lane);
    }
  }
  return lanes;
}

function summary(t, seconds) {
  const ms = (p) => t.latency.percentile(p) / 1000;
  return {
    calls: t.calls,
    live: t.live,
    seconds,
    expectedErrors: t.expectedErrors,
    errors: Object.fromEntries(t.errors),
    shed: t.shed,
    latencyMs: { p50: ms(50), p99: ms(99), max: t.latency.max / 1000 },
    // This process's CPU time in the phase, in seconds: what the load itself cost; and how late its timers ran (ms).
    cpuSeconds: ((u) => (u.user + u.system) / 1e6)(process.cpuUsage(t.cpu)),
    loopDelayP99: Math.max(0, loopDelay.percentile(99) / 1e6 - 10),
  };
}

let lanes;

/** Closed loop: every lane kept full for `seconds`. */
async function probe(seconds) {
  const t = tally();
  const end = performance.now() + seconds * 1000;
  const counts = new Map(lanes.map((l) => [l, 0]));
  const loop = async (lane) => {
    while (performance.now() < end) {
      await call(lane, performance.now(), t);
      counts.set(lane, counts.get(lane) + 1);
    }
  };
  const start = performance.now();
  await Promise.all(lanes.flatMap((lane) => Array.from({ length: lane.cap }, () => loop(lane))));
  const elapsed = (performance.now() - start) / 1000;
  return { ...summary(t, elapsed), perLane: Object.fromEntries(lanes.map((l) => [l.name, counts.get(l)])) };
}

/** Open loop: `rate` calls a second split over the lanes by `shares`, for `seconds`. */
async function run(rate, shares, seconds) {
  const t = tally();
  const total = shares.reduce((n, x) => n + x, 0);
  const plans = lanes.map((lane, i) => ({ lane, rate: (rate * shares[i]) / total, issued: 0, queue: [], calls: 0 }));
  const start = performance.now();
  const end = start + seconds * 1000;
  const pump = (p) => {
    while (p.lane.inFlight < p.lane.cap && p.queue.length > 0) {
      const due = p.queue.shift();
      p.calls++;
      void call(p.lane, due, t).then(() => pump(p));
    }
  };
  const progress = setInterval(() => process.send({ type: "progress", ...summary(t, (performance.now() - start) / 1000) }), 1000);
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      const elapsed = (Math.min(now, end) - start) / 1000;
      for (const p of plans) {
        const maxQueued = Math.max(16, p.rate * BACKLOG_SECONDS);
        for (const due = Math.floor(elapsed * p.rate); p.issued < due; p.issued++) {
          if (p.queue.length >= maxQueued) {
            t.shed++;
            recordError(t, p.lane, `not sent: the lane fell over ${BACKLOG_SECONDS} s behind its schedule (slow answers, or a load generator short of CPU)`);
            continue;
          }
          p.queue.push(start + (p.issued / p.rate) * 1000);
        }
        pump(p);
      }
      if (now < end) setTimeout(tick, 2);
      else resolve();
    };
    tick();
  });
  // The calls still queued or in flight finish (or time out) before the phase ends.
  while (plans.some((p) => p.lane.inFlight > 0 || p.queue.length > 0)) await new Promise((r) => setTimeout(r, 10));
  clearInterval(progress);
  return { ...summary(t, (performance.now() - start) / 1000), perLane: Object.fromEntries(plans.map((p) => [p.lane.name, p.calls])) };
}

process.on("message", async (message) => {
  try {
    if (message.type === "start") {
      const t = tally();
      lanes = await makeLanes(message.endpoints, t);
      process.send({ type: "ready", lanes: lanes.map((l) => l.name), corpus: CORPUS, liveEvery: LIVE_EVERY, errors: Object.fromEntries(t.errors) });
    } else if (message.type === "probe") {
      process.send({ type: "probed", ...(await probe(message.seconds)) });
    } else if (message.type === "run") {
      process.send({ type: "ran", ...(await run(message.rate, message.shares, message.seconds)) });
    } else if (message.type === "stop") {
      for (const lane of lanes ?? []) {
        lane.agent?.destroy();
        lane.session?.close();
        await lane.transport?.close();
      }
      process.exit(0);
    }
  } catch (error) {
    process.send({ type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
