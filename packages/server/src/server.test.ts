import { describe, expect, expectTypeOf, it } from "vitest";
import type { HttpRequest, HttpResponse } from "@anvil/core";
import { bodyBytes } from "@anvil/core/protocol";
import { member, operation, service, string, struct } from "@anvil/core/codegenv1";
import { createServer, type HandlerContext, type OperationHandler, type Server } from "./index.js";
import { testProtocol } from "./test-protocol.js";

const Greet = operation("example.hello#Greet", {
  input: struct<{ name: string }>("example.hello#GreetInput", [member("name", string, { required: true, httpLabel: true })]),
  output: struct<{ greeting?: string }>("example.hello#GreetOutput", [member("greeting", string)]),
  traits: { http: { method: "POST", uri: "/greet/{name}", code: 200 } },
});
const Wave = operation("example.hello#Wave", {
  input: struct<{ name: string }>("example.hello#WaveInput", [member("name", string, { required: true, httpLabel: true })]),
  output: struct<{ greeting?: string }>("example.hello#WaveOutput", [member("greeting", string)]),
  traits: { http: { method: "POST", uri: "/wave/{name}", code: 200 } },
});
const Hello = service("example.hello#Hello", { operations: { greet: Greet, wave: Wave }, protocols: ["test#a", "test#b"] });

const protocols = [testProtocol("test#a"), testProtocol("test#b", ["x-protocol", "b"]), testProtocol("test#other", ["x-protocol", "other"])];
const req = (path: string, headers: Record<string, string> = {}): HttpRequest => ({
  method: "POST",
  path,
  query: [],
  headers: new Headers(headers),
  body: undefined,
});
const json = (response: HttpResponse): unknown => JSON.parse(new TextDecoder().decode(bodyBytes(response.body as Uint8Array | string)));

async function call(server: Server<typeof Hello>, request: HttpRequest): Promise<HttpResponse> {
  const exchange = server.begin();
  try {
    return await server.dispatch(request, exchange, { remoteAddress: "192.0.2.1" });
  } finally {
    exchange.end();
  }
}

type OperationHandlerOfGreet = OperationHandler<typeof Hello, "greet">;

class HelloHandler {
  constructor(private readonly prefix: string) {}
  greet(input: { name: string }, context: HandlerContext) {
    return { greeting: `${this.prefix} ${input.name} via ${context.protocol} from ${context.remoteAddress}` };
  }
  wave(input: { name: string }) {
    return { greeting: `${this.prefix} wave ${input.name}` };
  }
}

describe("createServer", () => {
  it("serves a whole-service handler (a class instance) on every declared protocol", async () => {
    const server = createServer(Hello, { protocols }).register(new HelloHandler("hi")).mapService();
    expect(json(await call(server, req("/greet/ann")))).toEqual({ greeting: "hi ann via test#a from 192.0.2.1" });
    expect(json(await call(server, req("/greet/ann", { "x-protocol": "b" })))).toEqual({ greeting: "hi ann via test#b from 192.0.2.1" });
    // test#other is available but not declared: not mapped.
    expect(json(await call(server, req("/greet/ann", { "x-protocol": "other" })))).toEqual({ greeting: "hi ann via test#a from 192.0.2.1" });
  });

  it("lets the last registration of an operation win, whichever kind", async () => {
    const perOp = createServer(Hello, { protocols })
      .register(new HelloHandler("hi"))
      .register("wave", (input) => ({ greeting: `override ${input.name}` }))
      .mapService();
    expect(json(await call(perOp, req("/wave/bo")))).toEqual({ greeting: "override bo" });
    expect(json(await call(perOp, req("/greet/bo")))).toMatchObject({ greeting: expect.stringMatching(/^hi bo/) });

    const whole = createServer(Hello, { protocols })
      .register("wave", (input) => ({ greeting: `override ${input.name}` }))
      .register(new HelloHandler("later"))
      .mapService();
    expect(json(await call(whole, req("/wave/bo")))).toEqual({ greeting: "later wave bo" });

    const twice = createServer(Hello, { protocols })
      .register(new HelloHandler("hi"))
      .register("greet", () => ({ greeting: "first" }))
      .register("greet", () => ({ greeting: "second" }))
      .mapService();
    expect(json(await call(twice, req("/greet/x")))).toEqual({ greeting: "second" });
  });

  it("takes a protocol's both sides and serves its server side", async () => {
    const both = { client: {}, server: protocols[1]! };
    const server = createServer(Hello, { protocols: [{ server: protocols[0]! }, both] })
      .register(new HelloHandler("hi"))
      .mapService();
    expect(json(await call(server, req("/greet/ann", { "x-protocol": "b" })))).toMatchObject({ greeting: expect.stringContaining("via test#b") });
  });

  it("maps only the protocols it is told to", async () => {
    const server = createServer(Hello, { protocols }).register(new HelloHandler("hi")).mapService("test#other");
    expect(json(await call(server, req("/greet/x", { "x-protocol": "other" })))).toMatchObject({ greeting: expect.stringContaining("via test#other") });
    expect((await call(server, req("/greet/x"))).status).toBe(404);
  });

  it.each([
    [
      "a missing handler",
      () =>
        createServer(Hello, { protocols })
          .register("greet", () => ({}))
          .mapService()
          .start(),
      /no handler registered for wave/,
    ],
    ["no mapped protocol", () => createServer(Hello, { protocols }).register(new HelloHandler("")).start(), /no protocol mapped; call mapService\(\)/],
    [
      "a declared protocol without implementation",
      () => createServer(Hello, { protocols: [protocols[0]!] }).mapService(),
      /no implementation of protocol test#b was given \(options.protocols has test#a\)/,
    ],
    ["an unknown operation", () => createServer(Hello, { protocols }).register("nope" as "greet", () => ({})), /has no operation nope/],
    [
      "an incomplete service handler",
      () => createServer(Hello, { protocols }).register({ greet: () => ({}) } as never),
      /no method wave \(example.hello#Wave\)/,
    ],
    [
      "conflicting routes across protocols",
      () =>
        createServer(Hello, { protocols: [testProtocol("test#a"), testProtocol("test#b")] })
          .register(new HelloHandler(""))
          .mapService()
          .start(),
      /route conflict: POST \/greet\/\{name\} is served by both example.hello#Greet \(test#a\) and example.hello#Greet \(test#b\)/,
    ],
  ])("refuses to start with %s", (_label, start, message) => {
    expect(start).toThrow(message);
  });

  it("refuses registrations after start", () => {
    const server = createServer(Hello, { protocols }).register(new HelloHandler("")).mapService().start();
    expect(() => server.register("greet", () => ({}))).toThrow(/after the server started/);
  });

  it("types handlers from the service schema", () => {
    const server = createServer(Hello, { protocols });
    expectTypeOf(server.register).toBeCallableWith("greet", (input: { name: string }) => ({ greeting: input.name }));
    expectTypeOf(server.register).toBeCallableWith(new HelloHandler(""));
    type Register = typeof server.register;
    // @ts-expect-error an unknown operation key
    expectTypeOf<Register>().toBeCallableWith("nope", () => ({}));
    // @ts-expect-error a handler with the wrong output type
    expectTypeOf<Register>().toBeCallableWith("greet", () => ({ greeting: 1 }));
    expectTypeOf<Parameters<OperationHandlerOfGreet>[1]["signal"]>().toEqualTypeOf<AbortSignal>();
    expectTypeOf<Parameters<OperationHandlerOfGreet>[0]>().toEqualTypeOf<{ name: string }>();
    // @ts-expect-error a service handler missing an operation
    expectTypeOf<Register>().toBeCallableWith({ greet: () => ({}) });
  });

  describe("close", () => {
    it("counts exchanges in flight in any end order, once each, and aborts only those left at close", async () => {
      const server = createServer(Hello, { protocols }).register(new HelloHandler("hi")).mapService();
      const [a, b, c, d] = [server.begin(), server.begin(), server.begin(), server.begin()];
      expect(server.inFlight).toBe(4);
      b.end(); // from the middle
      d.end(); // the last one begun
      d.end(); // a second end changes nothing
      expect(server.inFlight).toBe(2);
      await server.close({ graceMs: 0 });
      expect([a.signal.aborted, b.signal.aborted, c.signal.aborted, d.signal.aborted]).toEqual([true, false, true, false]);
      a.end();
      c.end();
      expect(server.inFlight).toBe(0);
    });

    it("drains calls in flight, answers 503 to new ones, and aborts what outlives the grace period", async () => {
      const started: string[] = [];
      const aborted: string[] = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const server = createServer(Hello, { protocols })
        .register({
          greet: async (input) => {
            started.push(input.name);
            await released;
            return { greeting: input.name };
          },
          wave: (input, { signal }) => {
            started.push(input.name);
            return new Promise((_, reject) =>
              signal.addEventListener("abort", () => {
                aborted.push(input.name);
                reject(signal.reason);
              }),
            );
          },
        })
        .mapService();

      const quick = call(server, req("/greet/quick"));
      const slow = call(server, req("/wave/slow"));
      await Promise.resolve();
      expect(server.inFlight).toBe(2);
      const closed = server.close({ graceMs: 50 });
      expect(server.closing).toBe(true);
      const refused = await call(server, req("/greet/late"));
      expect([refused.status, json(refused), refused.headers.get("retry-after")]).toEqual([
        503,
        { type: "ServiceUnavailableException", message: "the server is shutting down" },
        "1",
      ]);
      release();
      expect(json(await quick)).toEqual({ greeting: "quick" });
      await closed;
      expect(aborted).toEqual(["slow"]);
      expect((await slow).status).toBe(500);
      expect(started).toEqual(["quick", "slow"]);
    });

    it("resolves at once when nothing is in flight", async () => {
      const server = createServer(Hello, { protocols }).register(new HelloHandler("")).mapService();
      const t = Date.now();
      await server.close({ graceMs: 5_000 });
      expect(Date.now() - t).toBeLessThan(1_000);
    });
  });
});
