import { getEventListeners } from "node:events";
import { collectBytes, ModeledError, type RequestCustomization, TransportError, UnmodeledError, type ClientOf } from "@anvil/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { createClient, type Client } from "./client.js";
import type { ClientConfig } from "./config.js";
import type { AttemptResult, ClientInterceptor, Interceptor } from "./interceptor.js";
import { Busy, NotFound, scriptedTransport, type Answer, testJson, Things } from "./test-fixtures.js";

/** A client over a scripted transport, with a recording sleep and `random() = 0.5`. */
function setup(answers: Answer[], config: Partial<ClientConfig> = {}) {
  const transport = scriptedTransport(answers);
  const sleeps: number[] = [];
  const client = createClient(Things, {
    endpoint: "https://things.example.com/base",
    protocols: [testJson()],
    transport,
    retry: { random: () => 0.5 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...config,
  });
  return { client, transport, sleeps };
}

/** The error a promise rejects with. */
async function failure(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** A streamed body: one chunk per array. */
async function* chunks(...parts: number[][]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new Uint8Array(part);
}

const ok = (body: unknown, headers: Record<string, string> = {}): Answer => ({ status: 200, body, headers });
const err = (name: string, status: number) => ({ status, headers: { "x-error": name }, body: { message: name } });

describe("calls", () => {
  it("returns the output with its metadata, which stays out of the data", async () => {
    const { client, transport } = setup([ok({ id: "a", name: "A" }, { "x-amzn-requestid": "req-1", "x-amz-id-2": "ext" })]);
    const out = await client.getThing({ id: "a" });
    expect(out).toEqual({ id: "a", name: "A" });
    expect(out.$metadata).toEqual({ httpStatus: 200, httpStatusCode: 200, requestId: "req-1", extendedRequestId: "ext", attempts: 1, totalRetryDelay: 0 });
    expect(Object.keys(out)).toEqual(["id", "name"]);
    expect(JSON.stringify(out)).toBe('{"id":"a","name":"A"}');
    expect(transport.seen[0]!.url).toBe("https://things.example.com/base/GetThing");
  });

  it("gives a call to the same path the same URL, unless a transport changed the one it was given", async () => {
    const urls: URL[] = [];
    const answer = async (request: { url: URL }) => {
      urls.push(request.url);
      return { status: 200, headers: new Headers(), body: new TextEncoder().encode('{"id":"a"}') };
    };
    const { client } = setup([answer, answer, answer, answer]);
    await client.getThing({ id: "a" });
    await client.getThing({ id: "a" });
    expect(urls[1]).toBe(urls[0]);
    urls[1]!.pathname = "/elsewhere"; // a transport that should not have
    await client.getThing({ id: "a" });
    expect(urls[2]!.href).toBe("https://things.example.com/base/GetThing");
    await client.putThing({ id: "a" });
    expect(urls[3]!.href).toBe("https://things.example.com/base/PutThing");
  });

  it("reads the request id from x-amz-request-id too", async () => {
    const { client } = setup([ok({ id: "a" }, { "x-amz-request-id": "req-2" })]);
    expect((await client.getThing({ id: "a" })).$metadata.requestId).toBe("req-2");
  });

  it("throws the modeled error class with the call's metadata", async () => {
    const { client } = setup([{ ...err("NotFound", 404), headers: { "x-error": "NotFound", "x-amzn-requestid": "req-3" } }]);
    const error = await failure(client.getThing({ id: "zz" }));
    expect(error).toBeInstanceOf(NotFound);
    expect(NotFound.is(error)).toBe(true);
    expect(error.message).toBe("NotFound");
    expect(error.$metadata).toEqual({ httpStatus: 404, httpStatusCode: 404, requestId: "req-3", attempts: 1, totalRetryDelay: 0 });
  });

  it("sends the client's and the call's headers after the protocol's", async () => {
    const { client, transport } = setup([ok({ id: "a" })], { headers: { "user-agent": "things/1", "content-type": "text/x" } });
    await client.getThing({ id: "a" }, { headers: { "x-trace": "t1" } });
    const headers = transport.seen[0]!.headers;
    expect([headers.get("user-agent"), headers.get("content-type"), headers.get("x-trace")]).toEqual(["things/1", "text/x", "t1"]);
  });

  it("streams a streaming body to the transport as it is", async () => {
    async function* chunks() {
      yield new Uint8Array([1, 2]);
      yield new Uint8Array([3]);
    }
    const { client, transport } = setup([ok({ id: "u" })]);
    await client.upload({ data: chunks() });
    expect(transport.seen[0]!.streamed).toBe(true);
    expect([...transport.seen[0]!.body!]).toEqual([1, 2, 3]);
  });

  it("rejects a configuration whose protocols the service does not declare", () => {
    expect(() => createClient(Things, { endpoint: "http://x", protocols: [testJson("other#p")] })).toThrow(
      /declares test#json; none of the protocols given \(other#p\)/,
    );
    expect(() => createClient(Things, { endpoint: "not a url", protocols: [testJson()] })).toThrow(/is not a URL/);
    expect(() => createClient(Things, { protocols: [testJson()] } as unknown as Parameters<typeof createClient>[1])).toThrow(/an endpoint is required/);
    expect(() => createClient(Things, { endpoint: "http://x", protocols: [testJson()], protocol: "nope#p" })).toThrow(/nope#p is not among/);
  });
});

describe("protocol selection", () => {
  const declaring = { ...Things, protocols: ["test#a", "test#b"] };
  const hits: string[] = [];
  const spy = (id: string) => {
    const p = testJson(id);
    return { ...p, serializeRequest: (...args: Parameters<typeof p.serializeRequest>) => (hits.push(id), p.serializeRequest(...args)) };
  };

  it("speaks the first protocol the service declares among those given", async () => {
    hits.length = 0;
    const client = createClient(declaring, {
      endpoint: "http://x",
      protocols: [spy("test#b"), spy("test#a")],
      transport: scriptedTransport([ok({ id: "a" })]),
    });
    await client.getThing({ id: "a" });
    expect(hits).toEqual(["test#a"]);
  });

  it("speaks the protocol named by `protocol`", async () => {
    hits.length = 0;
    const client = createClient(declaring, {
      endpoint: "http://x",
      protocols: [spy("test#a"), spy("test#b")],
      protocol: "test#b",
      transport: scriptedTransport([ok({ id: "a" })]),
    });
    await client.getThing({ id: "a" });
    expect(hits).toEqual(["test#b"]);
  });
});

describe("C1: retries", () => {
  it("C1: 503 twice then 200: three attempts, each wait within full jitter's bounds (100 then 200 ms at most)", async () => {
    const { client, sleeps, transport } = setup([err("Busy", 503), err("Busy", 503), ok({ id: "a" })], { retry: {} });
    const out = await client.getThing({ id: "a" });
    expect([out.$metadata.attempts, transport.seen.length, sleeps.length]).toEqual([3, 3, 2]);
    expect(sleeps[0]).toBeGreaterThanOrEqual(0);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(0);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
    expect(out.$metadata.totalRetryDelay).toBe(sleeps[0]! + sleeps[1]!);
  });

  it("retries throttling with exponential backoff and full jitter", async () => {
    const { client, sleeps, transport } = setup([err("Throttled", 429), err("Throttled", 429), ok({ id: "a" })]);
    const out = await client.getThing({ id: "a" });
    // random() = 0.5 of the caps 100 and 200 ms
    expect(sleeps).toEqual([50, 100]);
    expect(out.$metadata).toMatchObject({ attempts: 3, totalRetryDelay: 150, httpStatus: 200 });
    expect(transport.seen).toHaveLength(3);
  });

  it("caps the delay at maxDelayMs and uses the injected random", async () => {
    const { client, sleeps } = setup([err("Busy", 503), err("Busy", 503), err("Busy", 503), ok({ id: "a" })], {
      retry: { maxAttempts: 4, baseDelayMs: 300, maxDelayMs: 1000, random: () => 0.999 },
    });
    await client.putThing({ id: "a" });
    expect(sleeps).toEqual([299, 599, 999]);
  });

  it("gives up after maxAttempts with the last error and its metadata", async () => {
    const { client } = setup([err("Busy", 503), err("Busy", 503), err("Busy", 503), ok({ id: "a" })]);
    const error = await failure(client.getThing({ id: "a" }));
    expect(error).toBeInstanceOf(Busy);
    expect(error.$metadata).toMatchObject({ attempts: 3, totalRetryDelay: 150, httpStatus: 503 });
  });

  it("makes one attempt with maxAttempts 1", async () => {
    const { client, transport } = setup([err("Busy", 503), ok({ id: "a" })], { retry: { maxAttempts: 1 } });
    await failure(client.getThing({ id: "a" }));
    expect(transport.seen).toHaveLength(1);
  });

  it.each([
    ["a modeled error that is not @retryable", err("NotFound", 404)],
    ["an unmodeled 400", { status: 400, headers: { "x-error": "BadThing" } }],
  ] as [string, Answer][])("does not retry %s", async (_name, answer) => {
    const { client, transport } = setup([answer, ok({ id: "a" })]);
    await failure(client.getThing({ id: "a" }));
    expect(transport.seen).toHaveLength(1);
  });

  it.each([
    ["an unmodeled 500", { status: 500 }],
    ["an unmodeled 502", { status: 502 }],
    ["an unmodeled throttling code", { status: 400, headers: { "x-error": "ThrottlingException" } }],
    ["a 429 without a type", { status: 429 }],
    ["a connection reset", { throws: new TransportError("ECONNRESET", "reset") }],
  ] as [string, Answer][])("retries %s on a readonly operation", async (_name, answer) => {
    const { client, transport } = setup([answer, ok({ id: "a" })]);
    expect((await client.getThing({ id: "a" })).$metadata.attempts).toBe(2);
    expect(transport.seen).toHaveLength(2);
  });

  it("does not retry a non-idempotent operation once the request was sent", async () => {
    for (const answer of [err("Busy", 503), { throws: new TransportError("ECONNRESET", "reset") }] as Answer[]) {
      const { client, transport } = setup([answer, ok({ id: "a" })]);
      const error = await failure(client.createThing({ id: "a" }));
      expect(error.$metadata.attempts).toBe(1);
      expect(transport.seen).toHaveLength(1);
    }
  });

  it("retries a non-idempotent operation whose request never left", async () => {
    const { client } = setup([{ throws: new TransportError("ECONNREFUSED", "refused") }, ok({ id: "a" })]);
    expect((await client.createThing({ id: "a" })).$metadata.attempts).toBe(2);
  });

  it("retries an operation with an idempotency token, sending the same token", async () => {
    let n = 0;
    const { client, transport } = setup([err("Busy", 503), ok({ name: "x", token: "t" })], { idempotencyToken: () => `token-${++n}` });
    await client.createWithToken({ name: "x" });
    const bodies = transport.seen.map((r) => JSON.parse(new TextDecoder().decode(r.body)));
    expect(bodies).toEqual([
      { name: "x", token: "token-1" },
      { name: "x", token: "token-1" },
    ]);
  });

  it("C1: does not retry a streamed body, which cannot be sent again", async () => {
    async function* chunks() {
      yield new Uint8Array([1]);
    }
    const { client, transport } = setup([err("Busy", 503), ok({ id: "u" })]);
    await failure(client.upload({ data: chunks() }));
    expect(transport.seen).toHaveLength(1);
  });

  it("takes a custom strategy", async () => {
    const { client, sleeps } = setup([err("NotFound", 404), ok({ id: "a" })], { retry: { maxAttempts: 2, retryDelay: () => 7 } });
    await client.createThing({ id: "a" });
    expect(sleeps).toEqual([7]);
  });
});

describe("abort and timeout", () => {
  /** An answer that never comes: waits for the signal, then fails as fetch does. */
  const hang: Answer = (request) =>
    new Promise((_resolve, reject) => request.signal!.addEventListener("abort", () => reject(request.signal!.reason), { once: true }));

  it("T5: does not send a call whose signal already fired", async () => {
    const { client, transport } = setup([ok({ id: "a" })]);
    const error = await failure(client.getThing({ id: "a" }, { signal: AbortSignal.abort() }));
    expect(TransportError.is(error)).toBe(true);
    expect(error.code).toBe("RequestAborted");
    expect(error.$metadata.attempts).toBe(0);
    expect(transport.seen).toHaveLength(0);
  });

  it("T5: aborts a call in flight and never retries it", async () => {
    const { client, transport } = setup([hang, ok({ id: "a" })]);
    const controller = new AbortController();
    const pending = failure(client.getThing({ id: "a" }, { signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error("user gave up"));
    const error = await pending;
    expect(error.code).toBe("RequestAborted");
    expect(error.cause.message).toBe("user gave up");
    expect(error.$metadata.attempts).toBe(1);
    expect(transport.seen).toHaveLength(1);
  });

  it("T5: AbortSignal.timeout(1) with maxAttempts 4: exactly one attempt, no backoff wait", async () => {
    const { client, transport, sleeps } = setup([hang, ok({ id: "a" }), ok({ id: "a" }), ok({ id: "a" })], { retry: { maxAttempts: 4 } });
    const error = await failure(client.getThing({ id: "a" }, { signal: AbortSignal.timeout(1) }));
    expect(TransportError.is(error)).toBe(true);
    expect(error.$metadata.attempts).toBe(1);
    expect([transport.seen.length, sleeps]).toEqual([1, []]);
  });

  it("T5: aborts during the backoff wait", async () => {
    const controller = new AbortController();
    const { client, transport } = setup([err("Busy", 503), ok({ id: "a" })], {
      sleep: (_ms, signal) => {
        controller.abort();
        return Promise.reject(signal!.reason);
      },
    });
    const error = await failure(client.getThing({ id: "a" }, { signal: controller.signal }));
    expect(error.code).toBe("RequestAborted");
    expect(transport.seen).toHaveLength(1);
  });

  it("lets go of the caller's signal when a call ends, or once its streamed output ends or is released", async () => {
    const controller = new AbortController();
    const signal = controller.signal;
    const streamed: Answer = () => Promise.resolve({ status: 200, headers: new Headers(), body: chunks([1], [2]) });
    const { client } = setup([ok({ id: "a" }), err("NotFound", 404), ok({ id: "a" }), { status: 200, body: "x" }, streamed, streamed], { timeoutMs: 10_000 });
    await client.getThing({ id: "a" }, { signal });
    await failure(client.getThing({ id: "a" }, { signal }));
    await client.putThing({ id: "a" }, { signal });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    await client.download({ id: "a" }, { signal }); // whole bytes: nothing left to cancel
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    const read = await client.download({ id: "a" }, { signal });
    expect(getEventListeners(signal, "abort")).toHaveLength(1);
    expect(await collectBytes(read.data)).toEqual(new Uint8Array([1, 2]));
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    const released = await client.download({ id: "a" }, { signal });
    expect(getEventListeners(signal, "abort")).toHaveLength(1);
    await released.data[Symbol.asyncIterator]().return!();
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("fails a streamed output cut by the call's abort with the abort's TransportError, as before the answer", async () => {
    const controller = new AbortController();
    const { client } = setup([
      (request) =>
        Promise.resolve({
          status: 200,
          headers: new Headers(),
          body: (async function* () {
            yield new Uint8Array([1]);
            // The transport cuts the body when the signal fires, with an error of its own.
            if (request.signal!.aborted) throw new Error("socket closed");
            await new Promise((_, reject) => request.signal!.addEventListener("abort", () => reject(new Error("socket closed"))));
          })(),
        }),
    ]);
    const out = await client.download({ id: "a" }, { signal: controller.signal });
    const chunks: Uint8Array[] = [];
    const error = await failure(
      (async () => {
        for await (const chunk of out.data) {
          chunks.push(chunk);
          controller.abort(new Error("user stopped"));
        }
      })(),
    );
    expect(chunks).toEqual([new Uint8Array([1])]);
    expect(TransportError.is(error)).toBe(true);
    expect(error.code).toBe("RequestAborted");
    expect(error.cause).toEqual(new Error("user stopped"));
  });

  it("passes no signal down when the call has none", async () => {
    const { client, transport } = setup([
      (request) => Promise.resolve({ status: 200, headers: new Headers(), body: new TextEncoder().encode(`{"id":"${request.signal === undefined}"}`) }),
    ]);
    expect((await client.getThing({ id: "a" })).id).toBe("true");
    expect(transport.seen).toHaveLength(1);
  });

  it("T5: times out a call (per call, or the client's default) and never retries it", async () => {
    for (const [config, options] of [
      [{}, { timeoutMs: 20 }],
      [{ timeoutMs: 20 }, {}],
    ] as const) {
      const { client, transport } = setup([hang, ok({ id: "a" })], config);
      const started = Date.now();
      const error = await failure(client.getThing({ id: "a" }, options));
      expect(TransportError.is(error)).toBe(true);
      expect(error.code).toBe("RequestTimeout");
      expect(error.message).toBe("GetThing: timed out after 20 ms");
      expect(Date.now() - started).toBeLessThan(1000);
      expect(transport.seen).toHaveLength(1);
    }
  });

  it("T3: a timeoutMs beyond setTimeout's 2^31 - 1 ms does not fire at once", async () => {
    const slow: Answer = () =>
      new Promise((resolve) => setTimeout(() => resolve({ status: 200, headers: new Headers(), body: new TextEncoder().encode('{"id":"a"}') }), 30));
    const { client } = setup([slow]);
    expect((await client.getThing({ id: "a" }, { timeoutMs: 2 ** 31 + 1 })).id).toBe("a");
  });
});

describe("interceptors", () => {
  it("run before and after every attempt, and may change the request", async () => {
    const log: string[] = [];
    const results: AttemptResult[] = [];
    const first: Interceptor = {
      beforeAttempt(request, context) {
        log.push(`first before ${context.attempt}`);
        expect([context.protocol, context.endpoint.href]).toEqual(["test#json", "https://things.example.com/base"]);
        const headers = new Headers(request.headers);
        headers.set("x-attempt", String(context.attempt));
        return { ...request, headers };
      },
      afterAttempt(result, context) {
        log.push(`first after ${context.attempt}`);
        results.push(result);
      },
    };
    const second: Interceptor = {
      beforeAttempt(request) {
        log.push(`second before sees x-attempt=${request.headers.get("x-attempt")}`);
      },
    };
    const { client, transport } = setup([err("Busy", 503), ok({ id: "a" })], { interceptors: [first, second] });
    await client.getThing({ id: "a" });
    expect(log).toEqual([
      "first before 1",
      "second before sees x-attempt=1",
      "first after 1",
      "first before 2",
      "second before sees x-attempt=2",
      "first after 2",
    ]);
    expect(transport.seen.map((r) => r.headers.get("x-attempt"))).toEqual(["1", "2"]);
    expect(Busy.is(results[0]!.error)).toBe(true);
    expect(results[0]!.response?.status).toBe(503);
    expect(results[1]!.output).toEqual({ id: "a" });
  });

  it("call interceptors wrap the whole call, retries included: see input and output, change the input, answer alone, replace errors", async () => {
    const log: string[] = [];
    const outer: ClientInterceptor = (next) => async (call) => {
      log.push(`outer> ${call.method} ${JSON.stringify(call.input)}`);
      try {
        const output = await next({ ...call, input: { id: `${(call.input as { id: string }).id}!` } });
        log.push(`outer< ${JSON.stringify(output)}`);
        return output;
      } catch (error) {
        log.push(`outer caught ${(error as Error).name}`);
        throw new TypeError("replaced");
      }
    };
    const cache: ClientInterceptor = (next) => (call) => ((call.input as { id: string }).id === "cached!" ? Promise.resolve({ id: "from cache" }) : next(call));
    const hooks: Interceptor = { beforeAttempt: (_request, context) => void log.push(`attempt ${context.attempt}`) };
    const { client, transport } = setup([err("Busy", 503), ok({ id: "a!" }), err("Busy", 503), err("Busy", 503), err("Busy", 503)], {
      interceptors: [outer, hooks, cache],
    });
    expect(await client.getThing({ id: "a" })).toEqual({ id: "a!" });
    expect(log).toEqual(['outer> getThing {"id":"a"}', "attempt 1", "attempt 2", `outer< {"id":"a!"}`]);
    expect(transport.seen).toHaveLength(2);
    log.length = 0;
    expect(await client.getThing({ id: "cached" })).toEqual({ id: "from cache" });
    expect(transport.seen).toHaveLength(2);
    await expect(client.getThing({ id: "b" })).rejects.toThrow("replaced");
    expect(log.at(-1)).toBe("outer caught Busy");
  });

  it("fail the attempt when they throw", async () => {
    const { client, transport } = setup([ok({ id: "a" })], {
      interceptors: [
        {
          beforeAttempt() {
            throw new TypeError("no");
          },
        },
      ],
    });
    await expect(client.getThing({ id: "a" })).rejects.toThrow("no");
    expect(transport.seen).toHaveLength(0);
  });
});

describe("request customizations", () => {
  const stamp: RequestCustomization = {
    id: "test#stamp",
    appliesTo: (service) => service.id === "test#Things",
    modifyInput: (input) => ({ ...(input as object), name: "stamped" }),
    modifyRequest: (request) => {
      const headers = new Headers(request.headers);
      headers.set("x-stamp", "yes");
      return { ...request, headers };
    },
  };

  it("apply to the services they choose", async () => {
    const { client, transport } = setup([ok({ id: "a" })], { customizations: [stamp] });
    await client.putThing({ id: "a" });
    expect(transport.seen[0]!.headers.get("x-stamp")).toBe("yes");
    expect(JSON.parse(new TextDecoder().decode(transport.seen[0]!.body))).toEqual({ id: "a", name: "stamped" });
  });

  it("leave other services alone", async () => {
    const { client, transport } = setup([ok({ id: "a" })], { customizations: [{ ...stamp, appliesTo: () => false }] });
    await client.putThing({ id: "a" });
    expect(transport.seen[0]!.headers.has("x-stamp")).toBe(false);
  });
});

describe("errors without a response", () => {
  it("keep their own type and get the attempt count", async () => {
    const { client } = setup([{ throws: new TransportError("ECONNREFUSED", "refused") }], { retry: { maxAttempts: 1 } });
    const error = await failure(client.createThing({ id: "a" }));
    expect(error.code).toBe("ECONNREFUSED");
    expect(error.$metadata).toEqual({ attempts: 1, totalRetryDelay: 0 });
  });

  it("describe the last attempt, not an earlier response", async () => {
    const { client } = setup(
      [{ ...err("Busy", 503), headers: { "x-error": "Busy", "x-amzn-requestid": "r1" } }, { throws: new TransportError("ECONNRESET", "reset") }],
      {
        retry: { maxAttempts: 2, random: () => 0.5 },
      },
    );
    const error = await failure(client.getThing({ id: "a" }));
    expect(error.code).toBe("ECONNRESET");
    expect(error.$metadata).toEqual({ attempts: 2, totalRetryDelay: 50 });
  });

  it("unmodeled errors carry status and metadata", async () => {
    const { client } = setup([{ status: 418 }]);
    const error = await failure(client.getThing({ id: "a" }));
    expect(UnmodeledError.is(error)).toBe(true);
    expect(ModeledError.isModeledError(error)).toBe(false);
    expect(error.$metadata).toMatchObject({ httpStatus: 418, attempts: 1 });
  });
});

describe("types", () => {
  it("are core's ClientOf, with metadata on outputs", () => {
    const { client } = setup([]);
    expectTypeOf(client).toMatchTypeOf<ClientOf<typeof Things>>();
    expectTypeOf<Client<typeof Things>>().toMatchTypeOf<ClientOf<typeof Things>>();
    expectTypeOf(client.getThing).parameter(0).toEqualTypeOf<{ id: string }>();
    expectTypeOf<Awaited<ReturnType<typeof client.getThing>>["$metadata"]["attempts"]>().toEqualTypeOf<number>();
    expectTypeOf<Awaited<ReturnType<typeof client.putThing>>["name"]>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error: not an operation of the service
    void client.deleteThing;
    expect(Object.keys(client).sort()).toEqual(["createThing", "createWithToken", "download", "getThing", "putThing", "upload"]);
  });
});
