/**
 * Fakes end to end, over real sockets: the generated fake (tables compiled
 * into code) and `anvil serve --fake` (tables built at run time) answer the
 * test model's edge cases on every protocol each service declares, with
 * exactly the expected outputs and errors, and with byte-identical HTTP
 * responses between the two.
 */
import { createClient, fetchTransport, type Transport } from "@anvil/client-core";
import { collectBytes, ModeledError, type ServiceSchema } from "@anvil/core";
import { loadModel } from "@anvil/model";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { rpcv2Json } from "@anvil/protocol-rpcv2json";
import { createServer } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "./generate/generate.js";
import { generateInto, loadOrThrow, PACKAGE_ROOT, scratchDir } from "./generate/test-support.js";
import { httpProtocols, startFakeServe, type FakeServe } from "./serve.js";

const ZOO_MODEL = join(PACKAGE_ROOT, "..", "fakes", "src", "__fixtures__", "zoo.smithy");
const PROTOCOLS = [restJson1(), simpleRestJson(), awsJson1_0(), awsJson1_1(), rpcv2Cbor(), rpcv2Json()];
const INSTANT = new Date("2024-01-01T00:00:00Z");
const bytes = (s: string) => new TextEncoder().encode(s);

/** A recorded HTTP response: what must be identical between the generated fake and `anvil serve`. */
interface Recorded {
  status: number;
  headers: [string, string][];
  body: string;
}

/** The fetch transport, buffering and recording each response. */
function recordingTransport(log: Recorded[]): Transport {
  const inner = fetchTransport();
  return {
    async send(request) {
      const response = await inner.send(request);
      const body = response.body === undefined ? new Uint8Array() : await collectBytes(response.body);
      const headers: [string, string][] = [];
      response.headers.forEach((value, key) => {
        // The connection's fields, and the request id `anvil serve` returns (a new one per call).
        if (!["date", "connection", "keep-alive", "x-amzn-requestid", "x-request-id"].includes(key)) headers.push([key, value]);
      });
      log.push({ status: response.status, headers, body: Buffer.from(body).toString("hex") });
      return { status: response.status, headers: response.headers, body };
    },
  };
}

/** An output without the client's `$metadata`. */
function data(output: unknown): unknown {
  const { $metadata: _, ...rest } = output as Record<string, unknown>;
  return rest;
}

async function outcome(call: Promise<unknown>): Promise<unknown> {
  try {
    return { output: data(await call) };
  } catch (e) {
    if (e instanceof ModeledError) return { error: e.code, members: e.members() };
    return { failure: (e as Error).name, message: (e as Error).message };
  }
}

const LION = { animal: { name: "lion", legs: 4, diet: "CARNIVORE", born: new Date("2020-02-03T04:05:06Z"), tags: ["big", "cat"], photo: bytes("lion") } };
const SEARCH = (names: string[], total: number, ratio?: number) => ({ output: ratio === undefined ? { names, total } : { names, total, ratio } });

/** Calls and the exact outcome each must have, on every protocol. */
const CASES: [string, string, unknown, unknown][] = [
  ["lion", "getAnimal", { name: "lion" }, { output: LION }],
  ["lion in detail: the first example matches first", "getAnimal", { name: "lion", detail: true }, { output: LION }],
  ["no example matches: the first non-error example", "getAnimal", { name: "zebra" }, { output: LION }],
  ["error example", "getAnimal", { name: "unicorn" }, { error: "NotFound", members: { message: "no unicorn here", name: "unicorn", hint: "hint" } }],
  ["nested subset", "searchAnimals", { filter: { minLegs: 4, kinds: ["MAMMAL"] } }, SEARCH(["lion", "zebra"], 2)],
  ["list element by element", "searchAnimals", { filter: { kinds: ["BIRD", "FISH"] } }, SEARCH(["parrot", "trout"], 2)],
  ["list of another length", "searchAnimals", { filter: { kinds: ["BIRD"] } }, SEARCH(["lion", "zebra"], 2)],
  ["map per key", "searchAnimals", { labels: { color: "red" } }, SEARCH(["flamingo"], 1)],
  ["map of another size", "searchAnimals", { labels: { color: "red", size: "xl" } }, SEARCH(["lion", "zebra"], 2)],
  [
    "union variant, nested subset",
    "searchAnimals",
    { filter: { where: { $case: "wild", value: { continent: "Africa", country: "Kenya" } } } },
    SEARCH(["zebra"], 1, 0.5),
  ],
  ["union variant", "searchAnimals", { filter: { where: { $case: "zoo", value: "Berlin" } } }, SEARCH(["knut"], 1)],
  ["NaN as a value", "searchAnimals", { ratio: Number.NaN }, SEARCH(["nan"], 0, Number.POSITIVE_INFINITY)],
  ["server error example", "searchAnimals", { page: 99 }, { error: "TooBusy", members: { message: "slow down" } }],
  [
    "synthesized, constraints honoured",
    "feedAnimal",
    { name: "rex" },
    {
      output: {
        portion: 5,
        food: "foodfoodfood",
        code: "AAA-00",
        status: 200,
        when: INSTANT,
        bytes: bytes("byte"),
        meta: "meta",
        colors: ["MAMMAL", "BIRD"],
        counts: { counts: 0, counts1: 1 },
        diet: "HERBIVORE",
        place: { $case: "zoo", value: "zoo" },
        chill: -1,
        big: 0,
        precise: expect.anything(),
        tree: { value: "value", children: [] },
      },
    },
  ],
  ["recursion ends", "getTree", {}, { output: { root: { value: "value", children: [] } } }],
  ["one example, required member synthesized", "ping", { message: "hi" }, { output: { message: "pong", at: INSTANT } }],
  ["union output", "getShape", {}, { output: { shape: { $case: "square", value: { side: 2 } } } }],
];

let dir: string;
let served: FakeServe;
const generatedListeners: NodeListener[] = [];
/** Base URLs per service id and protocol: [generated fake, anvil serve]. */
const urls = new Map<string, [string, string]>();
const services = new Map<string, ServiceSchema>();
let fakesModule: Record<string, unknown>;

beforeAll(async () => {
  const model = loadOrThrow([ZOO_MODEL]);
  dir = scratchDir("fakes-e2e");
  const result = generateInto(dir, model, { client: true, generateFakes: true });
  expect(result.events.filter((e) => e.severity === "ERROR")).toEqual([]);
  served = await startFakeServe(model, { port: 0 });
  const available = httpProtocols();
  for (const l of served.listening) {
    const base = l.service.slice(l.service.indexOf("#") + 1);
    const file = base === "SimpleZoo" ? "simple-zoo" : base.toLowerCase();
    const modelModule = (await import(join(dir, `${file}.ts`))) as Record<string, ServiceSchema>;
    const fakes = (await import(join(dir, `${file}.fakes.ts`))) as Record<string, new () => object>;
    if (base === "Zoo") fakesModule = fakes;
    const service = modelModule[base]!;
    services.set(l.service, service);
    const server = createServer(service, { protocols: l.protocols.map((id) => available.get(id)!) })
      .register(new fakes[`${base}Fake`]!() as never)
      .mapService(...l.protocols);
    const listener = await listen(server, { port: 0 });
    generatedListeners.push(listener);
    for (const p of l.protocols) urls.set(`${l.service} ${p}`, [listener.url, l.url]);
  }
}, 60_000);

afterAll(async () => {
  await served?.close(0);
  await Promise.all(generatedListeners.map((l) => l.close({ graceMs: 0 })));
});

function clientFor(serviceId: string, protocol: string, which: 0 | 1, log: Recorded[]) {
  const service = services.get(serviceId)!;
  return createClient(service, {
    endpoint: urls.get(`${serviceId} ${protocol}`)![which],
    protocols: PROTOCOLS,
    protocol,
    retry: { maxAttempts: 1 },
    transport: recordingTransport(log),
  }) as unknown as Record<string, (input: unknown) => Promise<unknown>>;
}

const ZOO_PROTOCOLS = ["aws.protocols#restJson1", "aws.protocols#awsJson1_0", "smithy.protocols#rpcv2Cbor", "smithy.protocols#rpcv2Json"];
const TARGETS: [string, string][] = [
  ...ZOO_PROTOCOLS.map((p): [string, string] => ["example.fakes#Zoo", p]),
  ["example.fakes#SimpleZoo", "alloy#simpleRestJson"],
];

describe.each(TARGETS)("%s over %s", (serviceId, protocol) => {
  it.each(CASES)("%s (%s)", async (_title, operation, input, expected) => {
    const generatedLog: Recorded[] = [];
    const servedLog: Recorded[] = [];
    const generated = await outcome(clientFor(serviceId, protocol, 0, generatedLog)[operation]!(input));
    const viaServe = await outcome(clientFor(serviceId, protocol, 1, servedLog)[operation]!(input));
    expect(generated).toEqual(expected);
    expect(viaServe).toEqual(generated);
    // The same bytes on the wire, from generated literals and from the model at run time.
    expect(servedLog).toEqual(generatedLog);
  });

  it("validates input before the fake: a bad request gets ValidationException", async () => {
    const out = (await outcome(clientFor(serviceId, protocol, 0, [])["feedAnimal"]!({ name: "" }))) as { error?: string };
    expect(out.error).toBe("ValidationException");
  });

  it("answers the same bytes on every call (run twice, compare)", async () => {
    const log: Recorded[] = [];
    const client = clientFor(serviceId, protocol, 1, log);
    for (let i = 0; i < 2; i++) for (const [, op, input] of CASES) await outcome(client[op]!(input));
    expect(log.slice(CASES.length)).toEqual(log.slice(0, CASES.length));
  });
});

describe("exact wire answers (restJson1)", () => {
  it("writes example outputs and errors as the protocol does", async () => {
    const [, url] = urls.get("example.fakes#Zoo aws.protocols#restJson1")!;
    const lion = await fetch(`${url}/animals/lion`);
    expect(lion.status).toBe(200);
    expect(await lion.text()).toBe('{"animal":{"name":"lion","legs":4,"diet":"CARNIVORE","born":1580702706,"tags":["big","cat"],"photo":"bGlvbg=="}}');
    const unicorn = await fetch(`${url}/animals/unicorn`);
    expect(unicorn.status).toBe(404);
    expect(unicorn.headers.get("x-amzn-errortype")).toBe("NotFound");
    expect(await unicorn.json()).toEqual({ message: "no unicorn here", name: "unicorn", hint: "hint" });
    const busy = await fetch(`${url}/search`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"page":99}' });
    expect(busy.status).toBe(503);
  });

  it("answers one page for a paginated operation (the next token left out)", async () => {
    const out = await outcome(clientFor("example.fakes#Zoo", "aws.protocols#restJson1", 0, [])["listAnimals"]!({}));
    expect(out).toEqual({ output: { names: ["lion"] } });
  });
});

describe("streams (restJson1)", () => {
  it.each([0, 1] as const)("a streaming blob as an in-memory stream, and the example's events as a finite stream (%s)", async (which) => {
    const client = clientFor("example.fakes#Streams", "aws.protocols#restJson1", which, []);
    const download = (await client["download"]!({})) as { data: AsyncIterable<Uint8Array> };
    expect(new TextDecoder().decode(await collectBytes(download.data))).toBe("data");
    const watch = (await client["watch"]!({})) as { events: AsyncIterable<unknown> };
    const events: unknown[] = [];
    for await (const e of watch.events) events.push(e);
    expect(events).toEqual([
      { $case: "tick", value: { n: 1 } },
      { $case: "tick", value: { n: 0 } },
    ]);
  });
});

describe("the generated fake", () => {
  it("is a class: a subclass overrides one operation, the others still answer", async () => {
    const Base = fakesModule["ZooFake"] as new () => Record<string, (input: unknown, ctx: unknown) => Promise<unknown>>;
    class Custom extends Base {
      ping = async () => ({ message: "custom", at: INSTANT });
    }
    const custom: Record<string, (input: unknown, ctx: unknown) => Promise<unknown>> = new Custom();
    expect(await custom["ping"]!({}, undefined)).toEqual({ message: "custom", at: INSTANT });
    expect(await custom["getShape"]!({}, undefined)).toEqual({ shape: { $case: "square", value: { side: 2 } } });
  });

  it("loses to a per-operation handler registered after it", async () => {
    const service = services.get("example.fakes#Zoo")!;
    const Fake = fakesModule["ZooFake"] as new () => object;
    const server = createServer(service, { protocols: PROTOCOLS })
      .register(new Fake() as never)
      .register("ping" as never, (async () => ({ message: "mine", at: INSTANT })) as never)
      .mapService("aws.protocols#restJson1");
    const listener = await listen(server, { port: 0 });
    try {
      const client = createClient(service, { endpoint: listener.url, protocols: PROTOCOLS, retry: { maxAttempts: 1 } }) as unknown as Record<
        string,
        (i: unknown) => Promise<unknown>
      >;
      expect(data(await client["ping"]!({}))).toEqual({ message: "mine", at: INSTANT });
      expect(data(await client["getShape"]!({}))).toEqual({ shape: { $case: "square", value: { side: 2 } } });
    } finally {
      await listener.close({ graceMs: 0 });
    }
  });

  it("has a fake client: the same answers, no network, one page", async () => {
    const Client = fakesModule["ZooFakeClient"] as new () => Record<string, (input?: unknown) => Promise<unknown>>;
    const client = new Client();
    for (const [, op, input, expected] of CASES) expect(await outcome(client[op]!(input))).toEqual(expected);
    expect(await client["listAnimals"]!()).toEqual({ names: ["lion"] });
  });

  it.each(ZOO_PROTOCOLS)("has a fake client that rejects invalid input as a client over the fake server does (%s)", async (protocol) => {
    const fake = new (fakesModule["ZooFakeClient"] as new () => Record<string, (input?: unknown) => Promise<unknown>>)();
    const real = clientFor("example.fakes#Zoo", protocol, 0, []);
    for (const [input, path] of [
      [{}, "/name"],
      [{ name: "" }, "/name"],
      [{ name: "x".repeat(21) }, "/name"],
    ] as const) {
      const viaFake = await fake["feedAnimal"]!(input).then(
        () => undefined,
        (e: unknown) => e,
      );
      const viaServer = await real["feedAnimal"]!(input).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(ModeledError.isModeledError(viaFake)).toBe(true);
      expect(await outcome(Promise.reject(viaFake))).toEqual(await outcome(Promise.reject(viaServer)));
      const e = viaFake as ModeledError & { fieldList: { path: string }[] };
      expect(e.$shapeId).toBe("smithy.framework#ValidationException");
      expect(e.$metadata.httpStatus).toBe((viaServer as ModeledError).$metadata.httpStatus);
      expect(e.fieldList.map((f) => f.path)).toEqual([path]);
      expect(e.message).toContain(`'${path}'`);
    }
  });
});

describe("determinism and diagnostics", () => {
  it("generates byte-identical fakes twice", () => {
    const a = generate(loadOrThrow([ZOO_MODEL]), { client: true, generateFakes: true });
    const b = generate(loadOrThrow([ZOO_MODEL]), { client: true, generateFakes: true });
    expect(b.files).toEqual(a.files);
    expect(a.files.map((f) => f.path)).toContain("zoo.fakes.ts");
  });

  it("reports required recursion that cannot end as an error naming the shapes", () => {
    const { model } = loadModelText(`$version: "2.0"
namespace test.loop
use aws.protocols#restJson1
@restJson1
service Loop { version: "1", operations: [Spin] }
@http(method: "GET", uri: "/spin")
operation Spin { output := { @required a: A } }
structure A { @required b: B }
structure B { @required a: A }
`);
    const { events } = generate(model, { generateFakes: true });
    const error = events.find((e) => e.severity === "ERROR" && e.id === "CodegenFakes");
    expect(error?.message).toContain("test.loop#A -> test.loop#B -> test.loop#A");
    expect(error?.shapeId).toBe("test.loop#Spin");
  });
});

function loadModelText(text: string) {
  return loadModel({ sources: [{ file: "loop.smithy", text }] });
}
