/**
 * `@anvil/server/lambda` against event fixtures written from AWS's
 * documented formats: API Gateway HTTP API (payload 2.0 and 1.0), REST API
 * (proxy integration), function URLs, Application Load Balancer targets
 * with and without multi-value headers. What the handler sees (path,
 * query, headers, cookies, body, caller, request id, deadline), the result
 * in each format, malformed and foreign events, and response streaming
 * through an injected `awslambda` runtime.
 */
import { ProtocolError } from "@anvil/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createServer, type HandlerContext } from "./index.js";
import { isText } from "./lambda-response.js";
import {
  type AlbEvent,
  type ApiGatewayV1Event,
  type ApiGatewayV2Event,
  type AwsLambdaRuntime,
  type HttpResponsePrelude,
  type LambdaContext,
  type LambdaHttpEvent,
  type LambdaResponseStream,
  lambdaHandler,
  streamingLambdaHandler,
} from "./lambda-entry.js";
import { testProtocol } from "./test-protocol.js";
import { CHUNK, TestService, testServer } from "./test-service.js";

/** Handlers of the test service that answer nothing: a test overrides those it calls. */
const IDLE = { echo: () => ({}), fail: () => ({}), download: () => ({}), upload: () => ({}), wait: () => ({}) };

type Mutable<T> = { -readonly [K in keyof T]?: T[K] };

/** An HTTP API (payload 2.0) event on the API's `execute-api` domain and `$default` stage, as AWS documents it. */
function httpApiEvent(overrides: Mutable<ApiGatewayV2Event> = {}, context: Record<string, unknown> = {}): ApiGatewayV2Event {
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: "/echo/ann",
    rawQueryString: "x=1",
    cookies: ["session=abc", "theme=dark"],
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      host: "a1b2c3d4e5.execute-api.us-east-1.amazonaws.com",
      "user-agent": "curl/8.5.0",
      "x-amzn-trace-id": "Root=1-65f0c0de-1234567890abcdef12345678",
      "x-forwarded-for": "198.51.100.7",
      "x-forwarded-port": "443",
      "x-forwarded-proto": "https",
      "x-trace": "t",
    },
    queryStringParameters: { x: "1" },
    requestContext: {
      accountId: "123456789012",
      apiId: "a1b2c3d4e5",
      domainName: "a1b2c3d4e5.execute-api.us-east-1.amazonaws.com",
      domainPrefix: "a1b2c3d4e5",
      http: { method: "POST", path: "/echo/ann", protocol: "HTTP/1.1", sourceIp: "198.51.100.7", userAgent: "curl/8.5.0" },
      requestId: "JKJaXmPLvHcESHA=",
      routeKey: "$default",
      stage: "$default",
      time: "10/Mar/2026:12:00:00 +0000",
      timeEpoch: 1773144000000,
      ...context,
    } as ApiGatewayV2Event["requestContext"],
    body: `{"text":"hey"}`,
    isBase64Encoded: false,
    ...overrides,
  };
}

/** A function URL event: payload 2.0 on the URL's own domain. */
function functionUrlEvent(overrides: Mutable<ApiGatewayV2Event> = {}): ApiGatewayV2Event {
  const domainName = "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws";
  const base = httpApiEvent(overrides, { apiId: "abcdefghijklmnopqrstuvwxyz012345", domainName, domainPrefix: "abcdefghijklmnopqrstuvwxyz012345" });
  return { ...base, headers: { ...base.headers, host: domainName }, ...overrides };
}

/** A REST API (Lambda proxy integration) event on stage `prod`: `path` without the stage, `requestContext.path` with it. */
function restApiEvent(overrides: Mutable<ApiGatewayV1Event> = {}, context: Record<string, unknown> = {}): ApiGatewayV1Event {
  const headers: Record<string, string[]> = {
    Accept: ["application/json"],
    "Content-Type": ["application/json"],
    Cookie: ["session=abc; theme=dark"],
    Host: ["a1b2c3d4e5.execute-api.us-east-1.amazonaws.com"],
    "X-Forwarded-For": ["198.51.100.7, 130.176.0.1"],
    "X-Forwarded-Proto": ["https"],
    "X-Trace": ["t"],
  };
  return {
    resource: "/{proxy+}",
    path: "/echo/ann",
    httpMethod: "POST",
    headers: Object.fromEntries(Object.entries(headers).map(([name, values]) => [name, values.at(-1)!])),
    multiValueHeaders: headers,
    queryStringParameters: { x: "1" },
    multiValueQueryStringParameters: { x: ["1"] },
    pathParameters: { proxy: "echo/ann" },
    stageVariables: null,
    requestContext: {
      accountId: "123456789012",
      apiId: "a1b2c3d4e5",
      domainName: "a1b2c3d4e5.execute-api.us-east-1.amazonaws.com",
      domainPrefix: "a1b2c3d4e5",
      httpMethod: "POST",
      path: "/prod/echo/ann",
      protocol: "HTTP/1.1",
      requestId: "c6af9ac6-7b61-11e6-9a41-93e8deadbeef",
      resourcePath: "/{proxy+}",
      stage: "prod",
      requestTimeEpoch: 1773144000000,
      identity: { sourceIp: "198.51.100.7", userAgent: "curl/8.5.0" },
      ...context,
    },
    body: `{"text":"hey"}`,
    isBase64Encoded: false,
    ...overrides,
  };
}

/** An ALB target event, with the target group's multi-value headers off or on. */
function albEvent(multiValue: boolean, overrides: Mutable<AlbEvent> = {}): AlbEvent {
  const headers: Record<string, string[]> = {
    accept: ["application/json"],
    "content-type": ["application/json"],
    cookie: ["session=abc", "theme=dark"],
    host: ["my-alb-123456789.us-east-1.elb.amazonaws.com"],
    "x-amzn-trace-id": ["Root=1-65f0c0de-1234567890abcdef12345678"],
    "x-forwarded-for": ["203.0.113.9, 198.51.100.7"],
    "x-forwarded-port": ["443"],
    "x-forwarded-proto": ["https"],
    "x-trace": ["t"],
  };
  return {
    requestContext: { elb: { targetGroupArn: "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/anvil/6d0ecf831eec9f09" } },
    httpMethod: "POST",
    path: "/echo/ann",
    ...(multiValue
      ? { multiValueQueryStringParameters: { x: ["1"] }, multiValueHeaders: headers }
      : {
          queryStringParameters: { x: "1" },
          headers: Object.fromEntries(Object.entries(headers).map(([name, values]) => [name, name === "cookie" ? values.join("; ") : values.at(-1)!])),
        }),
    body: `{"text":"hey"}`,
    isBase64Encoded: false,
    ...overrides,
  };
}

/** A Lambda context with the given time left. */
function lambdaContext(remainingMs = 30_000, awsRequestId = "8f5b2c1e-0d3a-4b6f-9e7d-1a2b3c4d5e6f"): LambdaContext {
  const end = Date.now() + remainingMs;
  return { awsRequestId, getRemainingTimeInMillis: () => end - Date.now() };
}

/** Every format, as a table of cases: the event maker, the result's kind. */
const FORMATS = [
  { name: "an HTTP API event (payload 2.0)", event: (o: Record<string, unknown> = {}) => httpApiEvent(o) as LambdaHttpEvent, id: "JKJaXmPLvHcESHA=" },
  { name: "a function URL event", event: (o: Record<string, unknown> = {}) => functionUrlEvent(o) as LambdaHttpEvent, id: "JKJaXmPLvHcESHA=" },
  {
    name: "a REST API event (payload 1.0)",
    event: (o: Record<string, unknown> = {}) => restApiEvent(o) as LambdaHttpEvent,
    id: "c6af9ac6-7b61-11e6-9a41-93e8deadbeef",
  },
  { name: "an ALB event", event: (o: Record<string, unknown> = {}) => albEvent(false, o) as LambdaHttpEvent, id: "8f5b2c1e-0d3a-4b6f-9e7d-1a2b3c4d5e6f" },
  {
    name: "an ALB event with multi-value headers",
    event: (o: Record<string, unknown> = {}) => albEvent(true, o) as LambdaHttpEvent,
    id: "8f5b2c1e-0d3a-4b6f-9e7d-1a2b3c4d5e6f",
  },
] as const;

/** The result's headers as one `Headers`, whatever the format put them in. */
function resultHeaders(result: Record<string, unknown>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries((result.headers as Record<string, string> | undefined) ?? {})) headers.append(name, value);
  for (const [name, values] of Object.entries((result.multiValueHeaders as Record<string, string[]> | undefined) ?? {}))
    for (const value of values) headers.append(name, value);
  for (const cookie of (result.cookies as string[] | undefined) ?? []) headers.append("set-cookie", cookie);
  return headers;
}

/** The result's body bytes. */
function resultBytes(result: { body: string; isBase64Encoded: boolean }): Uint8Array {
  return result.isBase64Encoded ? new Uint8Array(Buffer.from(result.body, "base64")) : new TextEncoder().encode(result.body);
}

describe("lambdaHandler", () => {
  it.each(FORMATS)("answers $name, with the handler context filled in", async ({ event, id }) => {
    const { server, observed } = testServer();
    const handler = lambdaHandler(server);
    const result = await handler(event(), lambdaContext());
    expect([result.statusCode, JSON.parse(result.body), result.isBase64Encoded]).toEqual([200, { message: "ann:3" }, false]);
    expect(resultHeaders(result as never).get("content-type")).toBe("application/json");
    const context = observed.contexts[0]!;
    expect({
      remoteAddress: context.remoteAddress,
      trace: context.headers.get("x-trace"),
      cookie: context.headers.get("cookie"),
      path: context.request.path,
      query: context.request.query,
      requestId: context.requestId,
    }).toEqual({
      remoteAddress: "198.51.100.7",
      trace: "t",
      cookie: "session=abc; theme=dark",
      path: "/echo/ann",
      query: [["x", "1"]],
      requestId: id,
    });
    expect(context.request.host).toMatch(/amazonaws\.com$|on\.aws$/);
    expect(server.inFlight).toBe(0);
  });

  it("writes the result in the event's format: cookies apart for 2.0, Set-Cookie multi-value for 1.0, the ALB's kind of headers", async () => {
    const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
      .register({
        ...IDLE,
        echo: (_input, context) => {
          context.responseHeaders.append("set-cookie", "session=new; Path=/; HttpOnly");
          context.responseHeaders.append("set-cookie", "theme=light; Expires=Wed, 21 Oct 2026 07:28:00 GMT");
          context.responseHeaders.set("x-served-by", "anvil");
          return { message: "ok" };
        },
      })
      .mapService();
    const handler = lambdaHandler(server);
    const cookies = ["session=new; Path=/; HttpOnly", "theme=light; Expires=Wed, 21 Oct 2026 07:28:00 GMT"];
    const v2 = await handler(httpApiEvent());
    expect(v2).toEqual({
      statusCode: 200,
      headers: { "content-type": "application/json", "x-served-by": "anvil" },
      cookies,
      body: `{"message":"ok"}`,
      isBase64Encoded: false,
    });
    const v1 = await handler(restApiEvent());
    expect(v1).toEqual({
      statusCode: 200,
      headers: { "content-type": "application/json", "x-served-by": "anvil" },
      multiValueHeaders: { "set-cookie": cookies },
      body: `{"message":"ok"}`,
      isBase64Encoded: false,
    });
    const alb = await handler(albEvent(false));
    // Without multi-value headers there is room for one Set-Cookie only.
    expect(alb).toEqual({
      statusCode: 200,
      statusDescription: "200 OK",
      headers: { "content-type": "application/json", "set-cookie": cookies[0], "x-served-by": "anvil" },
      body: `{"message":"ok"}`,
      isBase64Encoded: false,
    });
    const albMulti = await handler(albEvent(true));
    expect(albMulti).toEqual({
      statusCode: 200,
      statusDescription: "200 OK",
      multiValueHeaders: { "content-type": ["application/json"], "set-cookie": cookies, "x-served-by": ["anvil"] },
      body: `{"message":"ok"}`,
      isBase64Encoded: false,
    });
  });

  it.each(FORMATS)("takes repeated and encoded query parameters from $name", async ({ name, event }) => {
    const { server, observed } = testServer();
    const query =
      name.includes("ALB") && name.includes("multi")
        ? { multiValueQueryStringParameters: { a: ["1", "2"], "b c": ["x%20y%26z"] } }
        : name.includes("ALB")
          ? { queryStringParameters: { a: "2", "b c": "x%20y%26z" } }
          : name.includes("REST")
            ? { multiValueQueryStringParameters: { a: ["1", "2"], "b c": ["x y&z"] }, queryStringParameters: { a: "2", "b c": "x y&z" } }
            : { rawQueryString: "a=1&a=2&b%20c=x%20y%26z" };
    await lambdaHandler(server)(event(query));
    // An ALB passes parameters as sent (not decoded); without multi-value headers it keeps the last of each.
    const repeated =
      name.includes("ALB") && !name.includes("multi")
        ? [["a", "2"]]
        : [
            ["a", "1"],
            ["a", "2"],
          ];
    expect(observed.contexts[0]!.request.query).toEqual([...repeated, ["b c", "x y&z"]]);
  });

  it("routes a REST API event by its path (without the stage), not requestContext.path, and takes a custom domain's base path off with basePath", async () => {
    const { server, observed } = testServer();
    expect((await lambdaHandler(server)(restApiEvent())).statusCode).toBe(200);
    // Through a custom domain mapped at /v1, API Gateway leaves the base path in `path`.
    const mapped = restApiEvent({ path: "/v1/echo/bo" }, { path: "/v1/echo/bo", domainName: "api.example.com" });
    expect((await lambdaHandler(server)(mapped)).statusCode).toBe(404);
    expect((await lambdaHandler(server, { basePath: "/v1" })(mapped)).statusCode).toBe(200);
    expect(observed.contexts.map((c) => c.request.path)).toEqual(["/echo/ann", "/echo/bo"]);
  });

  it("takes a named stage off an HTTP API's path on its execute-api domain, not on a custom domain or the $default stage", async () => {
    const { server, observed } = testServer();
    const handler = lambdaHandler(server);
    expect((await handler(httpApiEvent({ rawPath: "/prod/echo/ann" }, { stage: "prod" }))).statusCode).toBe(200);
    const custom = httpApiEvent({ rawPath: "/prod/echo/ann" }, { stage: "prod", domainName: "api.example.com", domainPrefix: "api" });
    expect((await handler(custom)).statusCode).toBe(404);
    expect((await handler(httpApiEvent({ rawPath: "/prod/echo/ann" }))).statusCode).toBe(404);
    const payload1 = restApiEvent({ version: "1.0", path: "/prod/echo/bo" }, { stage: "prod" });
    expect((await handler(payload1)).statusCode).toBe(200);
    expect(observed.contexts.map((c) => c.request.path)).toEqual(["/echo/ann", "/echo/bo"]);
  });

  it("re-encodes an HTTP API's decoded path, and keeps the encoded paths of function URLs, REST APIs and ALBs", async () => {
    const { server, observed } = testServer();
    const handler = lambdaHandler(server);
    // An HTTP API hands the path over decoded: "%" and "?" are the label's own.
    await handler(httpApiEvent({ rawPath: "/echo/50% off?ü" }));
    await handler(functionUrlEvent({ rawPath: "/echo/a%2Fb%20c" }));
    await handler(restApiEvent({ path: "/echo/a%2Fb%20c" }));
    await handler(albEvent(false, { path: "/echo/a%2Fb c" }));
    const labels = observed.contexts.map((c) => c.request.path);
    expect(labels).toEqual(["/echo/50%25%20off%3F%C3%BC", "/echo/a%2Fb%20c", "/echo/a%2Fb%20c", "/echo/a%2Fb%20c"]);
    expect(JSON.parse((await handler(httpApiEvent({ rawPath: "/echo/50% off?ü" }))).body)).toEqual({ message: "50% off?ü:3" });
    // A 2.0 event that names no domain (hand-made, an emulator's) is not taken for an HTTP API's: its escapes stand.
    const { domainName: _domain, ...anonymous } = httpApiEvent().requestContext;
    await handler({ ...httpApiEvent({ rawPath: "/echo/a%20b" }), requestContext: anonymous });
    expect(observed.contexts.at(-1)!.request.path).toBe("/echo/a%20b");
  });

  it.each(FORMATS)("takes a base64 body from $name and answers bytes as base64, text as text", async ({ event }) => {
    const { server } = testServer();
    const handler = lambdaHandler(server);
    const bytes = new Uint8Array(700).map((_, i) => (i * 7) % 256);
    const upload = await handler(event({ path: "/upload", rawPath: "/upload", body: Buffer.from(bytes).toString("base64"), isBase64Encoded: true }));
    expect([upload.statusCode, JSON.parse(upload.body)]).toEqual([200, { size: 700 }]);
    const download = await handler(event({ path: "/download/3", rawPath: "/download/3", body: "" }));
    expect([download.statusCode, download.isBase64Encoded, resultHeaders(download as never).get("content-type")]).toEqual([
      200,
      true,
      "application/octet-stream",
    ]);
    const got = resultBytes(download);
    expect(got.byteLength).toBe(3 * CHUNK);
    expect([got[0], got[CHUNK], got[2 * CHUNK]]).toEqual([0, 1, 2]);
  });

  it("gives the handler API Gateway's request id, else the invocation's, unless the caller sent one, and returns it with requestIds", async () => {
    const seen: string[] = [];
    const server = createServer(TestService, { protocols: [testProtocol("test#json")], requestIds: true })
      .register({
        ...IDLE,
        echo: (_input, context) => {
          seen.push(context.requestId);
          return { message: "" };
        },
      })
      .mapService();
    const handler = lambdaHandler(server);
    const v2 = await handler(httpApiEvent(), lambdaContext());
    const alb = await handler(albEvent(false), lambdaContext(30_000, "invocation-7"));
    const own = await handler(restApiEvent({ headers: { "X-Request-Id": "trace-42" }, multiValueHeaders: null }), lambdaContext());
    expect(seen).toEqual(["JKJaXmPLvHcESHA=", "invocation-7", "trace-42"]);
    expect([v2, alb, own].map((r) => resultHeaders(r as never).get("x-request-id"))).toEqual(seen);
  });

  it("gives the call the Lambda's time left, less the margin, as its deadline, and aborts the handler before the Lambda times out", async () => {
    const deadlines: number[] = [];
    const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
      .register({
        ...IDLE,
        echo: (_input, context: HandlerContext) => {
          deadlines.push(context.deadline! - Date.now());
          return { message: "" };
        },
        wait: (_input, { signal }) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
      })
      .mapService();
    await lambdaHandler(server)(httpApiEvent(), lambdaContext(10_000));
    expect(deadlines[0]).toBeGreaterThan(9_000);
    expect(deadlines[0]).toBeLessThanOrEqual(9_500);
    await lambdaHandler(server, { timeoutMarginMs: 2_000 })(httpApiEvent(), lambdaContext(10_000));
    expect(deadlines[1]).toBeLessThanOrEqual(8_000);
    // 80 ms left after the margin: the waiting handler is aborted and the call answered while the Lambda still runs.
    const started = Date.now();
    const result = await lambdaHandler(server)(httpApiEvent({ rawPath: "/wait", body: "{}" }), lambdaContext(580));
    expect(result.statusCode).toBe(500);
    expect(Date.now() - started).toBeLessThan(500);
    // Without a context (a direct call), no deadline.
    await lambdaHandler(server)(httpApiEvent());
    expect(deadlines).toHaveLength(3);
    expect(Number.isNaN(deadlines[2])).toBe(true);
  });

  it("answers a body the protocol cannot read, an unknown route and an internal failure in the protocol's format, through every event format", async () => {
    const { server } = testServer();
    const handler = lambdaHandler(server);
    for (const { event } of FORMATS) {
      const malformedJson = await handler(event({ body: "{not json" }));
      expect([malformedJson.statusCode, JSON.parse(malformedJson.body).type]).toEqual([400, "SerializationException"]);
      const unknown = await handler(event({ path: "/nowhere", rawPath: "/nowhere" }));
      expect([unknown.statusCode, JSON.parse(unknown.body).type]).toEqual([404, "UnknownOperationException"]);
      const failed = await handler(event({ path: "/fail", rawPath: "/fail" }));
      expect([failed.statusCode, JSON.parse(failed.body).type]).toEqual([500, "InternalFailure"]);
      expect(failed.body).not.toContain("secret");
    }
  });

  it("serves mounted routes (health) as the fetch handler does", async () => {
    const server = createServer(TestService, { protocols: [testProtocol("test#json")], health: true })
      .register(IDLE)
      .mapService();
    const result = await lambdaHandler(server)(httpApiEvent({ rawPath: "/readyz", body: null }, { http: { method: "GET", path: "/readyz" } }));
    expect([result.statusCode, JSON.parse(result.body)]).toEqual([200, { status: "ready" }]);
  });

  describe("malformed and foreign events", () => {
    const malformed: [string, LambdaHttpEvent][] = [
      ["a 2.0 event without requestContext", { ...httpApiEvent(), requestContext: undefined } as never],
      ["a 2.0 event without rawPath", { ...httpApiEvent(), rawPath: undefined } as never],
      ["a REST event without httpMethod", { ...restApiEvent(), httpMethod: undefined } as never],
      ["a path without its leading /", restApiEvent({ path: "echo/ann" })],
      ["a body marked base64 that is not", httpApiEvent({ body: "not base64!", isBase64Encoded: true })],
      ["a body that is no string", { ...restApiEvent(), body: { text: "hey" } } as never],
      ["a header value with a line break", httpApiEvent({ headers: { "x-evil": "a\r\nx-injected: 1" } })],
      ["a header name that is no token", restApiEvent({ multiValueHeaders: { "bad name": ["x"] } })],
      ["a method that is no token", httpApiEvent({}, { http: { method: "GE T" } })],
      ["a forbidden method", albEvent(true, { httpMethod: "CONNECT" })],
      ["a lone surrogate in the path", functionUrlEvent({ rawPath: "/echo/\ud800" })],
    ];
    it.each(malformed)("answers %s with a 400 in its format, naming what is wrong", async (_name, event) => {
      const { server } = testServer();
      const result = await lambdaHandler(server)(event);
      expect(result.statusCode).toBe(400);
      expect(result.body).toMatch(/^lambda: malformed event: /);
      expect(resultHeaders(result as never).get("x-amzn-errortype")).toBe("MalformedLambdaEvent");
      if ("statusDescription" in result) expect(Object.keys(result)).toContain("multiValueHeaders" in event ? "multiValueHeaders" : "headers");
    });

    const foreign: [string, unknown][] = [
      ["nothing", undefined],
      ["null", null],
      ["an empty object", {}],
      ["a string", "GET /"],
      ["an SQS event", { Records: [{ messageId: "1", eventSource: "aws:sqs", body: "hi" }] }],
      ["a WebSocket API event", { requestContext: { connectionId: "abc=", eventType: "MESSAGE", routeKey: "$default" }, body: "hi", isBase64Encoded: false }],
    ];
    it.each(foreign)("refuses %s with a typed error (UnsupportedLambdaEvent)", async (_name, event) => {
      const { server } = testServer();
      const error = await lambdaHandler(server)(event as LambdaHttpEvent).then(
        () => expect.fail("expected a refusal"),
        (e: unknown) => e,
      );
      expect([ProtocolError.is(error), (error as ProtocolError).code]).toEqual([true, "UnsupportedLambdaEvent"]);
      expect((error as Error).message).toMatch(/^lambda: /);
    });

    it("never crashes on events of random fields: an answer with a status, or the typed refusal", async () => {
      const { server } = testServer();
      const handler = lambdaHandler(server);
      const value = fc.oneof(
        fc.string(),
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string()))),
      );
      const event = fc.record(
        {
          version: fc.constantFrom("2.0", "1.0", "3"),
          httpMethod: fc.oneof(fc.constantFrom("GET", "POST", "PUT"), fc.string()),
          rawPath: fc.oneof(fc.constant("/echo/a"), fc.string()),
          path: fc.oneof(fc.constant("/echo/a"), fc.string()),
          rawQueryString: fc.string(),
          headers: value,
          multiValueHeaders: value,
          queryStringParameters: value,
          multiValueQueryStringParameters: value,
          cookies: fc.oneof(fc.array(fc.string()), value),
          requestContext: fc.oneof(
            value,
            fc.record({ http: fc.record({ method: fc.oneof(fc.constant("POST"), fc.string()), sourceIp: value }, { requiredKeys: [] }) }),
            fc.record({ elb: fc.constant({ targetGroupArn: "arn" }) }),
            fc.record({ stage: fc.string(), domainName: fc.string(), apiId: fc.string(), requestId: fc.string() }, { requiredKeys: [] }),
          ),
          body: value,
          isBase64Encoded: fc.oneof(fc.boolean(), value),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(event, async (e) => {
          try {
            const result = await handler(e as unknown as LambdaHttpEvent);
            expect(typeof result.statusCode).toBe("number");
            expect(typeof result.body).toBe("string");
          } catch (error) {
            expect([ProtocolError.is(error), (error as ProtocolError).code]).toEqual([true, "UnsupportedLambdaEvent"]);
          }
        }),
        { numRuns: 300 },
      );
      expect(server.inFlight).toBe(0);
    });
  });
});

describe("which answers go as text", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["application/x-amz-json-1.1", true],
    ["application/problem+json", true],
    ["application/xml", true],
    ["application/atom+xml", true],
    ["text/plain", true],
    ["text/event-stream", true],
    ["text/plain; charset=iso-8859-1", false],
    ["application/cbor", false],
    ["application/grpc", false],
    ["application/grpc+proto", false],
    ["application/octet-stream", false],
    ["application/vnd.amazon.eventstream", false],
    ["application/x-protobuf", false],
    ["image/png", false],
    [null, false],
  ] as const)("%s: %s", (contentType, text) => {
    expect(isText(contentType)).toBe(text);
  });

  it("sends text that is not UTF-8 as base64, and keeps a byte-order mark", async () => {
    const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
      .register(IDLE)
      .mapService()
      .mount("/text", async (request) => {
        const bytes = new URL(request.url).pathname.endsWith("bom") ? [0xef, 0xbb, 0xbf, 0x68, 0x69] : [0x68, 0xff, 0x69];
        return new Response(new Uint8Array(bytes), { headers: { "content-type": "text/plain" } });
      });
    const handler = lambdaHandler(server);
    const bad = await handler(httpApiEvent({ rawPath: "/text/bad", body: null }, { http: { method: "GET" } }));
    expect([bad.isBase64Encoded, [...resultBytes(bad)]]).toEqual([true, [0x68, 0xff, 0x69]]);
    const bom = await handler(httpApiEvent({ rawPath: "/text/bom", body: null }, { http: { method: "GET" } }));
    expect([bom.isBase64Encoded, [...resultBytes(bom)]]).toEqual([false, [0xef, 0xbb, 0xbf, 0x68, 0x69]]);
  });
});

/** A response stream as the Lambda runtime hands one over, taking `highWaterMark` bytes before it asks for a `drain`. */
function responseStream(highWaterMark = Number.POSITIVE_INFINITY) {
  const chunks: Uint8Array[] = [];
  const listeners: Record<string, Set<() => void>> = { drain: new Set(), close: new Set(), error: new Set() };
  const waits: (() => void)[] = [];
  let buffered = 0;
  let ended = false;
  const stream: LambdaResponseStream & {
    chunks: Uint8Array[];
    readonly ended: boolean;
    limit: number;
    drain(): void;
    close(): void;
    waiting(): Promise<void>;
  } = {
    chunks,
    limit: highWaterMark,
    get ended() {
      return ended;
    },
    write(chunk) {
      chunks.push(chunk.slice());
      buffered += chunk.byteLength;
      return buffered < stream.limit;
    },
    end(callback) {
      ended = true;
      callback?.();
    },
    once(event, listener) {
      listeners[event]!.add(listener);
      if (event === "drain") waits.splice(0).forEach((resolve) => resolve());
    },
    off(event, listener) {
      listeners[event]!.delete(listener);
    },
    drain() {
      buffered = 0;
      for (const listener of [...listeners.drain!]) listener();
    },
    close() {
      for (const listener of [...listeners.close!]) listener();
    },
    /** Resolves when the writer waits for a drain. */
    waiting: () => new Promise<void>((resolve) => waits.push(resolve)),
  };
  return stream;
}

/** An `awslambda` runtime as the Node.js runtime provides it, recording the preludes. */
function runtime() {
  const preludes: HttpResponsePrelude[] = [];
  const awslambda: AwsLambdaRuntime = {
    streamifyResponse: (handler) => handler,
    HttpResponseStream: {
      from(stream, prelude) {
        preludes.push(prelude);
        return stream;
      },
    },
  };
  return { awslambda, preludes };
}

describe("streamingLambdaHandler", () => {
  it("writes the prelude (status, headers, cookies), then the body as the server makes it", async () => {
    const { server } = testServer();
    const { awslambda, preludes } = runtime();
    const stream = responseStream();
    const handler = streamingLambdaHandler(server, { awslambda });
    await handler(functionUrlEvent({ rawPath: "/download/4", body: "" }), stream, lambdaContext());
    expect(preludes).toEqual([{ statusCode: 200, headers: { "content-type": "application/octet-stream" } }]);
    expect(stream.chunks.map((c) => c.byteLength)).toEqual([CHUNK, CHUNK, CHUNK, CHUNK]);
    expect(stream.ended).toBe(true);
    expect(server.inFlight).toBe(0);
  });

  it("pulls the body only as fast as the stream drains", async () => {
    const { server, observed } = testServer();
    const { awslambda } = runtime();
    const stream = responseStream(CHUNK);
    const done = streamingLambdaHandler(server, { awslambda })(functionUrlEvent({ rawPath: "/download/50", body: "" }), stream, lambdaContext());
    for (let i = 1; i <= 3; i++) {
      await stream.waiting();
      expect(stream.chunks).toHaveLength(i);
      expect(observed.produced).toBeLessThanOrEqual(i + 2);
      stream.drain();
    }
    stream.limit = Number.POSITIVE_INFINITY;
    await done;
    expect([stream.chunks.length, observed.produced, server.inFlight]).toEqual([50, 50, 0]);
  });

  it("stops the source and aborts the call when the stream closes early (the caller went away)", async () => {
    const { server, observed } = testServer();
    const { awslambda } = runtime();
    const stream = responseStream(CHUNK);
    const done = streamingLambdaHandler(server, { awslambda })(functionUrlEvent({ rawPath: "/download/50", body: "" }), stream, lambdaContext());
    await stream.waiting();
    stream.close();
    await done;
    expect(observed.produced).toBeLessThanOrEqual(3);
    expect(server.inFlight).toBe(0);
  });

  it("writes a chunk even for an empty body, so that the runtime sends the prelude; answers malformed events 400", async () => {
    const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
      .register(IDLE)
      .mapService()
      .mount(
        "/empty",
        async () =>
          new Response(null, {
            status: 204,
            headers: [
              ["set-cookie", "a=1"],
              ["set-cookie", "b=2"],
            ],
          }),
      );
    const { awslambda, preludes } = runtime();
    const handler = streamingLambdaHandler(server, { awslambda });
    const empty = responseStream();
    await handler(functionUrlEvent({ rawPath: "/empty", body: null }), empty);
    expect(preludes[0]).toEqual({ statusCode: 204, headers: {}, cookies: ["a=1", "b=2"] });
    expect([empty.chunks.length, empty.ended]).toEqual([1, true]);
    const bad = responseStream();
    await handler(functionUrlEvent({ body: "%%%", isBase64Encoded: true }), bad);
    expect(preludes[1]?.statusCode).toBe(400);
    expect(new TextDecoder().decode(bad.chunks[0])).toMatch(/^lambda: malformed event: /);
  });

  it("rejects the invocation when the body fails half-way (the runtime then ends the stream with the error)", async () => {
    const { server } = testServer();
    const { awslambda } = runtime();
    const stream = responseStream();
    await expect(streamingLambdaHandler(server, { awslambda })(functionUrlEvent({ rawPath: "/download/-5", body: "" }), stream)).rejects.toThrow(
      "the disk went away",
    );
    expect(server.inFlight).toBe(0);
  });

  it("finds the runtime's awslambda global when called, and says what is missing without one", () => {
    const { server } = testServer();
    expect(() => streamingLambdaHandler(server)).toThrow(/no awslambda runtime global/);
    const { awslambda } = runtime();
    (globalThis as { awslambda?: AwsLambdaRuntime }).awslambda = awslambda;
    try {
      expect(typeof streamingLambdaHandler(server)).toBe("function");
    } finally {
      delete (globalThis as { awslambda?: AwsLambdaRuntime }).awslambda;
    }
  });
});
