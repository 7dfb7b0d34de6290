import { createHash } from "node:crypto";
import type { HttpRequest, OperationSchema, ServiceSchema } from "@anvil/core";
import { describe, expect, it } from "vitest";
import { createClient } from "../client.js";
import { scriptedTransport, testJson, Things } from "../test-fixtures.js";
import { type AuthScheme, selectAuthScheme, type SigningContext } from "./auth-scheme.js";
import { httpApiKeyAuth, httpBearerAuth } from "./http-auth.js";
import { sigv4 } from "./sigv4.js";

const EXAMPLE_CREDENTIALS = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const AUGUST_30 = () => new Date("2015-08-30T12:36:00Z");

function contextFor(service: ServiceSchema, endpoint = "https://example.amazonaws.com"): SigningContext {
  return { service, operation: Things.operations.getThing, endpoint: new URL(endpoint), signal: new AbortController().signal };
}

function request(init: Partial<HttpRequest> = {}): HttpRequest {
  return { method: "GET", path: "/", query: [], headers: new Headers(), body: undefined, ...init };
}

const signed = { ...Things, auth: ["aws.auth#sigv4"], traits: { "aws.auth#sigv4": { name: "service" } } };

describe("sigv4", () => {
  it("signs AWS's get-vanilla example exactly", async () => {
    const scheme = sigv4({ region: "us-east-1", credentials: EXAMPLE_CREDENTIALS, applyChecksum: false, now: AUGUST_30 });
    const out = await scheme.sign(request(), contextFor(signed));
    expect(out.headers.get("x-amz-date")).toBe("20150830T123600Z");
    expect(out.headers.get("authorization")).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, " +
        "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    );
    expect(out.headers.has("host")).toBe(false); // the transport sends Host from the URL
  });

  it("hashes whole bodies and marks streamed ones unsigned", async () => {
    const scheme = sigv4({ region: "eu-west-1", credentials: EXAMPLE_CREDENTIALS, now: AUGUST_30 });
    const body = new TextEncoder().encode('{"id":"a"}');
    const whole = await scheme.sign(request({ method: "POST", body }), contextFor(signed));
    expect(whole.headers.get("x-amz-content-sha256")).toBe(createHash("sha256").update(body).digest("hex"));
    expect(whole.headers.get("authorization")).toMatch(/SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
    async function* stream() {
      yield body;
    }
    const streamed = await scheme.sign(request({ method: "POST", body: stream() }), contextFor(signed));
    expect(streamed.headers.get("x-amz-content-sha256")).toBe("UNSIGNED-PAYLOAD");
  });

  it("sends the session token and reads credentials from a provider", async () => {
    let calls = 0;
    const scheme = sigv4({ region: "us-east-1", credentials: async () => (calls++, { ...EXAMPLE_CREDENTIALS, sessionToken: "tok" }), now: AUGUST_30 });
    const out = await scheme.sign(request(), contextFor(signed));
    expect(out.headers.get("x-amz-security-token")).toBe("tok");
    expect(calls).toBe(1);
  });

  it("falls back to the standard AWS credential chain (here: the environment)", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: "AKIDFROMENV", AWS_SECRET_ACCESS_KEY: "secret", AWS_SESSION_TOKEN: "envtoken" });
    try {
      const out = await sigv4({ region: "us-east-1", now: AUGUST_30 }).sign(request(), contextFor(signed));
      expect(out.headers.get("authorization")).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDFROMENV\/20150830\//);
      expect(out.headers.get("x-amz-security-token")).toBe("envtoken");
    } finally {
      for (const key of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"]) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });

  it("needs a signing name", async () => {
    const scheme = sigv4({ region: "us-east-1", credentials: EXAMPLE_CREDENTIALS });
    await expect(scheme.sign(request(), contextFor({ ...Things, auth: ["aws.auth#sigv4"] }))).rejects.toThrow(/has no @aws.auth#sigv4 name; pass signingName/);
  });
});

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

describe("signing in the client", () => {
  const service = { ...Things, auth: ["aws.auth#sigv4"], traits: { "aws.auth#sigv4": { name: "things" } } };

  it("signs with SigV4 once a region is known, afresh on every attempt", async () => {
    const transport = scriptedTransport([{ status: 503, headers: { "x-error": "Busy" } }, { status: 200, body: { id: "a" } }]);
    let second = 0;
    const client = createClient(service, {
      endpoint: "https://things.example.com",
      protocols: [testJson()],
      transport,
      region: "us-west-2",
      credentials: async () => (second++, EXAMPLE_CREDENTIALS),
      sleep: async () => {},
    });
    await client.getThing({ id: "a" });
    expect(transport.seen).toHaveLength(2);
    for (const seen of transport.seen) {
      expect(seen.headers.get("authorization")).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-west-2\/things\/aws4_request, /);
    }
    expect(second).toBe(2);
  });

  it("signs after the interceptors, so their headers are signed", async () => {
    const transport = scriptedTransport([{ status: 200, body: { id: "a" } }]);
    const client = createClient(service, {
      endpoint: "https://things.example.com",
      protocols: [testJson()],
      transport,
      auth: [sigv4({ region: "us-east-1", credentials: EXAMPLE_CREDENTIALS })],
      interceptors: [
        {
          beforeAttempt(r) {
            r.headers.set("x-amz-meta", "1");
          },
        },
      ],
    });
    await client.getThing({ id: "a" });
    expect(transport.seen[0]!.headers.get("authorization")).toContain("x-amz-meta");
  });

  it("sends unsigned requests when no scheme is configured", async () => {
    const transport = scriptedTransport([{ status: 200, body: { id: "a" } }]);
    const previous = [process.env.AWS_REGION, process.env.AWS_DEFAULT_REGION];
    delete process.env.AWS_REGION;
    delete process.env.AWS_DEFAULT_REGION;
    try {
      const client = createClient(service, { endpoint: "https://things.example.com", protocols: [testJson()], transport });
      await client.getThing({ id: "a" });
    } finally {
      if (previous[0] !== undefined) process.env.AWS_REGION = previous[0];
      if (previous[1] !== undefined) process.env.AWS_DEFAULT_REGION = previous[1];
    }
    expect(transport.seen[0]!.headers.has("authorization")).toBe(false);
  });
});
