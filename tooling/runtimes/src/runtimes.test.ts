/**
 * The example's services as one fetch handler (`apps/example/src/runtimes/`),
 * bundled once by esbuild into one file per entry for `--platform=neutral`
 * (also checked for `--platform=browser`), with no Node built-in and nothing
 * left to the host, then run on Node, Bun, Deno and workerd. Each runtime gets
 * the same calls (every HTTP protocol the example serves, modeled and
 * validation errors, event streams, a streamed blob up and down, the docs
 * routes) and must answer as Node does. Then the generated client, bundled
 * the same way, calls a Node server from each runtime; and a small probe
 * service shows that handlers' signals fire when the client goes away.
 *
 * Needs the packages built (`turbo run test` builds them first).
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { decodeEventMessage, splitFrames } from "@anvil/eventstream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BUN,
  bundle,
  DENO,
  HOSTS,
  hostImports,
  PLATFORMS,
  type Running,
  removeDir,
  runProcess,
  runtimeEnv,
  startProcess,
  startWorkerd,
  tempDir,
} from "./runtimes.js";

const RUNTIMES = ["node", "bun", "deno", "workerd"] as const;
type Runtime = (typeof RUNTIMES)[number];

let dir: string;
let denoDir: string;
const out = (name: string) => join(dir, "out", `${name}.js`);

/** Starts a bundle on a runtime: the example's own entry files for Bun and Deno, a host for the bundle's default `fetch` otherwise. */
function serve(runtime: Runtime | "deno-no-legacy-abort", entry: "example" | "probe-worker" | "probe-worker-signal"): Promise<Running> {
  const env = runtimeEnv(denoDir, { PORT: "0", HOST: "127.0.0.1" });
  const worker = out(entry === "example" ? "worker" : entry);
  switch (runtime) {
    case "node":
      return startProcess(process.execPath, [join(HOSTS, "node-host.mjs"), worker], env, dir);
    case "bun":
      return entry === "example" ? startProcess(BUN, [out("bun")], env, dir) : startProcess(BUN, [join(HOSTS, "bun-host.mjs"), worker], env, dir);
    case "deno":
    case "deno-no-legacy-abort": {
      const flags = ["run", "--no-config", "--allow-net", "--allow-env=PORT,HOST", "--allow-read"];
      if (runtime === "deno-no-legacy-abort") flags.push("--unstable-no-legacy-abort");
      return entry === "example"
        ? startProcess(DENO, [...flags, out("deno")], env, dir)
        : startProcess(DENO, [...flags, join(HOSTS, "deno-host.mjs"), worker], env, dir);
    }
    case "workerd":
      return startWorkerd(worker);
  }
}

beforeAll(async () => {
  dir = tempDir("anvil-runtimes-");
  denoDir = join(dir, "deno-dir");
  await bundle("neutral", join(dir, "out"));
});

afterAll(() => removeDir(dir));

describe("the bundle", () => {
  it.each(Object.keys(PLATFORMS) as (keyof typeof PLATFORMS)[])(
    "builds for --platform=%s with no Node built-in, nothing external, no warning",
    async (platform) => {
      const result = await bundle(platform);
      expect(result.errors).toEqual([]);
      expect(result.warnings.map((w) => w.text)).toEqual([]);
      expect(hostImports(result.metafile)).toEqual([]);
    },
  );
});

// ---------------------------------------------------------------------------------------------------------------
// The same calls on every runtime
// ---------------------------------------------------------------------------------------------------------------

const utf8 = new TextEncoder();
/** `{"cityId": id}` in CBOR (a map of one text key). */
const cborCity = (id: string) => Uint8Array.from([0xa1, 0x66, ...utf8.encode("cityId"), 0x60 + id.length, ...utf8.encode(id)]);
const awsJson = (target: string) => ({ "content-type": "application/x-amz-json-1.1", "x-amz-target": `Weather.${target}` });
const cbor = { "content-type": "application/cbor", accept: "application/cbor", "smithy-protocol": "rpc-v2-cbor" };
/** 256 KiB in 16 KiB chunks, sent as a stream. */
const PHOTO = Array.from({ length: 16 }, (_, i) => new Uint8Array(16 * 1024).fill(i + 1));

interface Call {
  readonly name: string;
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Uint8Array | "photo";
  /** How the answer's body is compared: as text, as bytes, by digest, or as event-stream messages. */
  readonly read: "text" | "bytes" | "digest" | "events";
}

const CALLS: readonly Call[] = [
  { name: "restJson1 GetCity", path: "/cities/seattle", read: "text" },
  { name: "restJson1 ListCities", path: "/cities?pageSize=2&tag=capital", read: "text" },
  { name: "restJson1 modeled error", path: "/cities/atlantis", read: "text" },
  { name: "restJson1 validation error", path: "/cities/paris/forecast?days=11", read: "text" },
  { name: "restJson1 no token", method: "DELETE", path: "/cities/tokyo", read: "text" },
  {
    name: "restJson1 blob up (streamed)",
    method: "PUT",
    path: "/cities/paris/photos/runtime/big.png",
    headers: { "content-type": "image/png" },
    body: "photo",
    read: "text",
  },
  { name: "restJson1 blob down (streamed)", path: "/cities/paris/photos/runtime/big.png", read: "digest" },
  { name: "restJson1 event stream", path: "/cities/reykjavik/alerts", read: "events" },
  { name: "awsJson1_1 GetCity", method: "POST", path: "/", headers: awsJson("GetCity"), body: '{"cityId":"tokyo"}', read: "text" },
  { name: "awsJson1_1 modeled error", method: "POST", path: "/", headers: awsJson("GetCity"), body: '{"cityId":"atlantis"}', read: "text" },
  { name: "awsJson1_1 validation error", method: "POST", path: "/", headers: awsJson("GetForecast"), body: '{"cityId":"paris","days":11}', read: "text" },
  { name: "awsJson1_1 event stream", method: "POST", path: "/", headers: awsJson("WatchAlerts"), body: '{"cityId":"reykjavik","minLevel":3}', read: "events" },
  { name: "rpcv2Cbor GetCity", method: "POST", path: "/service/Weather/operation/GetCity", headers: cbor, body: cborCity("seattle"), read: "bytes" },
  { name: "rpcv2Cbor modeled error", method: "POST", path: "/service/Weather/operation/GetCity", headers: cbor, body: cborCity("atlantis"), read: "bytes" },
  { name: "simpleRestJson GetCity", path: "/simple/cities/paris", read: "text" },
  { name: "simpleRestJson modeled error", path: "/simple/cities/atlantis", read: "text" },
  { name: "unknown route", path: "/nowhere", read: "text" },
  { name: "openapi.json", path: "/openapi.json", read: "text" },
  { name: "explorer", path: "/openapi", read: "text" },
  { name: "explorer's stylesheet", path: "/openapi/swagger-ui.css", read: "digest" },
  { name: "explorer's icon", path: "/openapi/favicon-32x32.png", read: "digest" },
  { name: "docs redirect", path: "/docs", read: "text" },
  { name: "docs page", path: "/docs/", read: "text" },
  { name: "liveness", path: "/healthz", read: "text" },
  { name: "readiness", path: "/readyz", read: "text" },
  { name: "SimpleWeather readiness", path: "/simple/readyz", read: "text" },
];

/** The headers compared: those a protocol or the docs routes define (not `date`, `content-length` or the host's own). */
const HEADERS = [
  "content-type",
  "x-amzn-errortype",
  "smithy-protocol",
  "location",
  "last-modified",
  "cache-control",
  "x-content-type-options",
  "allow",
  "www-authenticate",
  "access-control-allow-origin",
];

/** Heartbeats carry the time they were sent: as epoch seconds in JSON. */
const normalizeTimes = (text: string) => text.replace(/"at":\d+(\.\d+)?/g, '"at":"<time>"');

async function describeBody(call: Call, response: Response, origin: string): Promise<unknown> {
  switch (call.read) {
    case "text":
      return (await response.text()).replaceAll(origin, "<origin>");
    case "bytes":
      return Buffer.from(await response.arrayBuffer()).toString("base64");
    case "digest": {
      const bytes = Buffer.from(await response.arrayBuffer());
      return `${bytes.byteLength} bytes, sha256 ${createHash("sha256").update(bytes).digest("hex")}`;
    }
    case "events": {
      const messages: unknown[] = [];
      for await (const frame of splitFrames(response.body!)) {
        const { headers, body } = decodeEventMessage(frame);
        messages.push({
          headers: Object.fromEntries(Object.entries(headers).map(([name, h]) => [name, String(h.value)])),
          body: normalizeTimes(new TextDecoder().decode(body)),
        });
      }
      return messages;
    }
  }
}

async function makeCall(base: string, call: Call): Promise<unknown> {
  const body =
    call.body === "photo"
      ? new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of PHOTO) controller.enqueue(chunk);
            controller.close();
          },
        })
      : call.body;
  const init = { method: call.method ?? "GET", headers: call.headers ?? {}, redirect: "manual", ...(body !== undefined ? { body, duplex: "half" } : {}) };
  const response = await fetch(`${base}${call.path}`, init as RequestInit);
  const headers = Object.fromEntries(HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)]] : [])));
  return {
    status: response.status,
    headers,
    requestId: response.headers.has("x-request-id") || response.headers.has("x-amzn-requestid"),
    body: await describeBody(call, response, base),
  };
}

/** What each runtime answered, by call; and what it printed on stderr. */
const answers = new Map<Runtime, Record<string, unknown>>();
const stderr = new Map<Runtime, string>();

describe("the example's fetch handler, on every runtime", () => {
  beforeAll(async () => {
    // The runtimes run side by side, each making the calls in order (some change what later ones see). Every one
    // is stopped before a failure of another is reported.
    const settled = await Promise.allSettled(
      RUNTIMES.map(async (runtime) => {
        const running = await serve(runtime, "example");
        try {
          const seen: Record<string, unknown> = {};
          for (const call of CALLS) seen[call.name] = await makeCall(running.url, call);
          answers.set(runtime, seen);
        } finally {
          await running.stop();
          stderr.set(runtime, running.stderr());
        }
      }),
    );
    for (const result of settled) if (result.status === "rejected") throw result.reason;
  });

  it.each(CALLS.map((c) => [c.name, STATUS[c.name]]))("answers %s on Node with %i", (name, status) => {
    expect(answers.get("node")![name]).toMatchObject({ status });
  });

  it.each(RUNTIMES.filter((r) => r !== "node").flatMap((runtime) => CALLS.map((c) => [runtime, c.name] as const)))(
    "answers on %s as on Node: %s",
    (runtime, name) => {
      expect(answers.get(runtime)![name]).toEqual(answers.get("node")![name]);
    },
  );

  it("runs on Deno without its legacy-abort warning (the adapter never reads request.signal there)", () => {
    expect(stderr.get("deno")).toBe("");
  });
});

/** What Node answers, checked so that a broken reference cannot pass for the others. */
const STATUS: Readonly<Record<string, number>> = {
  "restJson1 GetCity": 200,
  "restJson1 ListCities": 200,
  "restJson1 modeled error": 404,
  "restJson1 validation error": 400,
  "restJson1 no token": 401,
  "restJson1 blob up (streamed)": 200,
  "restJson1 blob down (streamed)": 200,
  "restJson1 event stream": 200,
  "awsJson1_1 GetCity": 200,
  "awsJson1_1 modeled error": 404,
  "awsJson1_1 validation error": 400,
  "awsJson1_1 event stream": 200,
  "rpcv2Cbor GetCity": 200,
  "rpcv2Cbor modeled error": 404,
  "simpleRestJson GetCity": 200,
  "simpleRestJson modeled error": 404,
  "unknown route": 404,
  "openapi.json": 200,
  explorer: 200,
  "explorer's stylesheet": 200,
  "explorer's icon": 200,
  "docs redirect": 308,
  "docs page": 200,
  liveness: 200,
  readiness: 200,
  "SimpleWeather readiness": 200,
};

// ---------------------------------------------------------------------------------------------------------------
// Handlers' signals when the client goes away
// ---------------------------------------------------------------------------------------------------------------

/** Waits for a condition, asking again every 25 ms; false when it does not hold within `ms`. */
async function until(condition: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (await condition()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function probeState(base: string, id: string): Promise<{ started: boolean; aborted: boolean }> {
  return (await (await fetch(`${base}/state/${id}`)).json()) as { started: boolean; aborted: boolean };
}

/**
 * Calls `/wait/{id}` (the handler waits for its signal; no answer yet) or
 * `/drip/{id}` (a streamed answer, read once), hangs up, and says whether the
 * handler's signal fired.
 */
async function hangUp(base: string, kind: "wait" | "drip", id: string): Promise<boolean> {
  const client = new AbortController();
  const answer = fetch(`${base}/${kind}/${id}`, { signal: client.signal });
  answer.catch(() => {});
  if (kind === "drip") await (await answer).body!.getReader().read();
  else expect(await until(async () => (await probeState(base, id)).started)).toBe(true);
  client.abort();
  return until(async () => (await probeState(base, id)).aborted);
}

/** Where a handler learns that its client went away: before its answer (`wait`), and during a streamed one (`drip`). */
const SIGNALS: readonly { runtime: Runtime | "deno-no-legacy-abort"; entry: "probe-worker" | "probe-worker-signal"; wait: boolean | string }[] = [
  { runtime: "node", entry: "probe-worker", wait: true },
  { runtime: "bun", entry: "probe-worker", wait: true },
  {
    runtime: "deno",
    entry: "probe-worker",
    wait: "Deno 2 aborts request.signal after successful answers too (and warns when it is read): the adapter leaves it alone by default",
  },
  { runtime: "deno-no-legacy-abort", entry: "probe-worker-signal", wait: true },
  {
    runtime: "workerd",
    entry: "probe-worker",
    wait: "workerd 1.20260730 fires request.signal for no client that hangs up before the answer, enable_request_signal or not (seen under Miniflare and bare workerd alike)",
  },
];

describe.each(SIGNALS)("handlers' signals on $runtime", ({ runtime, entry, wait }) => {
  let running: Running;
  beforeAll(async () => {
    running = await serve(runtime, entry);
  });
  afterAll(() => running?.stop());

  it("fire when the client goes away during a streamed answer", async () => {
    expect(await hangUp(running.url, "drip", "d1")).toBe(true);
  });

  it.skipIf(typeof wait === "string")(`fire when the client goes away before the answer${typeof wait === "string" ? ` (not here: ${wait})` : ""}`, async () => {
    expect(await hangUp(running.url, "wait", "w1")).toBe(true);
  });

  if (runtime.startsWith("deno")) {
    it("with no legacy-abort warning", () => {
      expect(running.stderr()).toBe("");
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// The generated client on every runtime, against a Node server
// ---------------------------------------------------------------------------------------------------------------

describe("the generated client with the fetch transport", () => {
  let server: Running;
  const results = new Map<Runtime, unknown>();

  beforeAll(async () => {
    server = await serve("node", "example");
    const env = runtimeEnv(denoDir);
    const client = out("client");
    const script = join(HOSTS, "run-client.mjs");
    const parse = ({ code, stdout, stderr }: { code: number | null; stdout: string; stderr: string }) => {
      if (code !== 0) throw new Error(`client exited ${code}: ${stdout}${stderr}`);
      return JSON.parse(stdout) as unknown;
    };
    const runs: Record<Runtime, () => Promise<unknown>> = {
      node: async () => parse(await runProcess(process.execPath, [script, client, server.url], env, dir)),
      bun: async () => parse(await runProcess(BUN, [script, client, server.url], env, dir)),
      deno: async () => parse(await runProcess(DENO, ["run", "--no-config", "--allow-net", "--allow-read", script, client, server.url], env, dir)),
      workerd: async () => {
        const worker = await startWorkerd(client);
        try {
          const response = await fetch(`${worker.url}/?endpoint=${encodeURIComponent(server.url)}`);
          return await response.json();
        } finally {
          await worker.stop();
        }
      },
    };
    const settled = await Promise.allSettled(RUNTIMES.map(async (runtime) => results.set(runtime, await runs[runtime]())));
    for (const result of settled) if (result.status === "rejected") throw result.reason;
  });
  afterAll(() => server?.stop());

  it("makes every call on Node", () => {
    expect(results.get("node")).toMatchObject({
      "getCity aws.protocols#restJson1": { name: "Seattle", lastModified: "2024-01-01T00:00:00.000Z" },
      "NoSuchCity smithy.protocols#rpcv2Cbor": { name: "NoSuchCity", status: 404 },
      "ValidationException aws.protocols#awsJson1_1": { name: "ValidationException", status: 400 },
      "watchAlerts smithy.protocols#rpcv2Cbor": ["alert 3 Gale warning for the capital region", "heartbeat"],
      "getCity alloy#simpleRestJson": "Reykjavík",
      photo: { size: 262144, back: 262144, same: true },
    });
  });

  it.each(RUNTIMES.filter((r) => r !== "node"))("makes the same calls on %s, with the same results", (runtime) => {
    expect(results.get(runtime)).toEqual(results.get("node"));
  });
});
