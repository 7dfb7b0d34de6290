import type { AuthScheme, HttpRequest, OperationSchema, ServiceSchema, SigningContext } from "@anvil/core";
import { describe, expect, it } from "vitest";
import { createClient } from "../client.js";
import { noRetry } from "../retry.js";
import { scriptedTransport, testJson, Things } from "../test-fixtures.js";
import { selectAuthScheme } from "./auth-scheme.js";
import { httpApiKeyAuth, httpBearerAuth } from "./http-auth.js";

function contextFor(service: ServiceSchema, endpoint = "https://example.amazonaws.com"): SigningContext {
  return { service, operation: Things.operations.getThing, endpoint: new URL(endpoint), signal: new AbortController().signal };
}

function request(init: Partial<HttpRequest> = {}): HttpRequest {
  return { method: "GET", path: "/", query: [], headers: new Headers(), body: undefined, ...init };
}

describe("http auth", () => {
  it("bearer sets Authorization", async () => {
    const out = await httpBearerAuth({ token: async () => "abc" }).sign(request(), contextFor(Things));
    expect(out.headers.get("authorization")).toBe("Bearer abc");
  });

  it("api key goes where the trait says", async () => {
    const header = { ...Things, traits: { "smithy.api#httpApiKeyAuth": { name: "Authorization", in: "header", scheme: "ApiKey" } } };
    const query = { ...Things, traits: { "smithy.api#httpApiKeyAuth": { name: "key", in: "query" } } };
    const scheme = httpApiKeyAuth({ apiKey: "k1" });
    expect((await scheme.sign(request(), contextFor(header))).headers.get("authorization")).toBe("ApiKey k1");
    expect((await scheme.sign(request(), contextFor(query))).query).toEqual([["key", "k1"]]);
  });
});

describe("scheme selection", () => {
  const a: AuthScheme = { id: "test#a", sign: async (r) => r };
  const b: AuthScheme = { id: "test#b", sign: async (r) => r };
  const service = { ...Things, auth: ["test#a", "test#b"] };
  const op = (auth?: string[]): OperationSchema => ({ ...Things.operations.getThing, traits: auth === undefined ? {} : { auth } });

  it.each([
    ["the service's first configured scheme", undefined, [a, b], "test#a"],
    ["skipping schemes not configured", undefined, [b], "test#b"],
    ["the operation's @auth list first", ["test#b", "test#a"], [a, b], "test#b"],
    ["nothing for noAuth", ["smithy.api#noAuth", "test#a"], [a, b], undefined],
    ["nothing when none is configured", undefined, [], undefined],
  ] as const)("picks %s", (_name, auth, schemes, expected) => {
    expect(selectAuthScheme(service, op(auth as string[] | undefined), schemes)?.id).toBe(expected);
  });
});

/** A scheme that signs with a counter and records the headers it saw. */
function countingScheme(id: string): AuthScheme & { readonly saw: Headers[] } {
  const saw: Headers[] = [];
  return {
    id,
    saw,
    async sign(request: HttpRequest): Promise<HttpRequest> {
      saw.push(new Headers(request.headers));
      const headers = new Headers(request.headers);
      headers.set("authorization", `Test ${saw.length}`);
      return { ...request, headers };
    },
  };
}

describe("signing in the client", () => {
  const service = { ...Things, auth: ["aws.auth#sigv4"], traits: { "aws.auth#sigv4": { name: "things" } } };

  it("signs afresh on every attempt", async () => {
    const transport = scriptedTransport([
      { status: 503, headers: { "x-error": "Busy" } },
      { status: 200, body: { id: "a" } },
    ]);
    const scheme = countingScheme("aws.auth#sigv4");
    const client = createClient(service, { endpoint: "https://things.example.com", protocols: [testJson()], transport, auth: [scheme], sleep: async () => {} });
    await client.getThing({ id: "a" });
    expect(transport.seen.map((r) => r.headers.get("authorization"))).toEqual(["Test 1", "Test 2"]);
  });

  it("signs after the interceptors, so their headers are signed", async () => {
    const transport = scriptedTransport([{ status: 200, body: { id: "a" } }]);
    const scheme = countingScheme("aws.auth#sigv4");
    const client = createClient(service, {
      endpoint: "https://things.example.com",
      protocols: [testJson()],
      transport,
      auth: [scheme],
      interceptors: [
        {
          beforeAttempt(r) {
            r.headers.set("x-amz-meta", "1");
          },
        },
      ],
    });
    await client.getThing({ id: "a" });
    expect(scheme.saw[0]!.get("x-amz-meta")).toBe("1");
  });

  it("refuses to make a client that would send unsigned requests to a SigV4 service", () => {
    for (const auth of [[], [httpBearerAuth({ token: "t" })]]) {
      expect(() => createClient(service, { endpoint: "https://things.example.com", protocols: [testJson()], auth })).toThrow(
        "createClient: test#Things signs getThing with aws.auth#sigv4, and no scheme for it is configured; pass auth: [sigv4({ region })] from @anvil/auth-sigv4",
      );
    }
  });

  it.each([
    ["another configured scheme the service lists", { ...service, auth: ["aws.auth#sigv4", "smithy.api#httpBearerAuth"] }],
    ["noAuth before SigV4", { ...service, auth: ["smithy.api#noAuth", "aws.auth#sigv4"] }],
    ["a service without SigV4", Things],
  ] as const)("makes the client without SigV4 given %s", async (_name, svc) => {
    const transport = scriptedTransport([{ status: 200, body: { id: "a" } }]);
    const client = createClient(svc, { endpoint: "https://things.example.com", protocols: [testJson()], transport, auth: [httpBearerAuth({ token: "t" })] });
    await client.getThing({ id: "a" });
  });

  it("lets @optionalAuth and noAuth operations of a SigV4 service go unsigned", async () => {
    const ops = Things.operations;
    const partly = {
      ...service,
      operations: {
        getThing: { ...ops.getThing, traits: { ...ops.getThing.traits, optionalAuth: true } },
        putThing: { ...ops.putThing, traits: { ...ops.putThing.traits, auth: [] } },
      },
    };
    const transport = scriptedTransport([
      { status: 200, body: { id: "a" } },
      { status: 200, body: { id: "a" } },
    ]);
    const client = createClient(partly, { endpoint: "https://things.example.com", protocols: [testJson()], transport });
    await client.getThing({ id: "a" });
    await client.putThing({ id: "a" });
    expect(transport.seen.map((r) => r.headers.has("authorization"))).toEqual([false, false]);
  });
});

describe("a scheme that corrects itself (recoverFrom)", () => {
  const service = { ...Things, auth: ["aws.auth#sigv4"], traits: { "aws.auth#sigv4": { name: "things" } } };
  const refused = { status: 400, headers: { "x-error": "RequestTimeTooSkewed" } };

  /** Signs with a counter and says it corrected itself after every failure it is shown. */
  function recovering(): AuthScheme & { readonly shown: unknown[] } {
    const shown: unknown[] = [];
    return { ...countingScheme("aws.auth#sigv4"), shown, recoverFrom: (error) => (shown.push(error), true) };
  }

  it("C2: gets one more attempt at once, once per call, even with retries off", async () => {
    const transport = scriptedTransport([refused, refused, refused, { status: 200, body: { id: "a" } }]);
    const scheme = recovering();
    const sleeps: number[] = [];
    const client = createClient(service, {
      endpoint: "https://things.example.com",
      protocols: [testJson()],
      transport,
      auth: [scheme],
      retry: noRetry,
      sleep: async (ms) => void sleeps.push(ms),
    });
    // A non-idempotent operation: the refused request was not acted on.
    const error = await client.putThing({ id: "a" }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe("RequestTimeTooSkewed");
    expect((error as { $metadata: { attempts?: number } }).$metadata.attempts).toBe(2);
    expect(scheme.shown).toHaveLength(1);
    expect((await client.putThing({ id: "a" })).$metadata.attempts).toBe(2);
    expect(transport.seen.map((r) => r.headers.get("authorization"))).toEqual(["Test 1", "Test 2", "Test 3", "Test 4"]);
    expect(sleeps).toEqual([]);
  });

  it("C2: is shown the failure but not retried when the body cannot be sent again", async () => {
    const transport = scriptedTransport([refused]);
    const scheme = recovering();
    const client = createClient(service, { endpoint: "https://things.example.com", protocols: [testJson()], transport, auth: [scheme] });
    async function* data() {
      yield new Uint8Array([1]);
    }
    await expect(client.upload({ data: data() })).rejects.toMatchObject({ code: "RequestTimeTooSkewed" });
    expect(scheme.shown).toHaveLength(1);
    expect(transport.seen).toHaveLength(1);
  });
});
