/**
 * Authentication from the model, and interceptors, on every protocol and
 * over HTTP/1.1 and HTTP/2 (gRPC over h2c): the `Vault` model takes bearer,
 * API key, basic and SigV4 auth in that order of preference, has an anonymous
 * operation, an `@optionalAuth` one, and one that takes basic auth only,
 * behind an interceptor that lets only the admin through. Calls go from the
 * generated-client runtime (`createClient` with its auth schemes), as a
 * user's would.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sigv4, sigv4Verifier } from "@anvil/auth-sigv4";
import { createClient, httpApiKeyAuth, httpBasicAuth, httpBearerAuth } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import type { AuthScheme, ServiceSchema } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { awsJson1_1 } from "@anvil/protocol-awsjson";
import { grpc } from "@anvil/protocol-grpc";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { ACCESS_DENIED, accessDenied, createServer, type HandlerContext, type ServerCall, type ServerInterceptor, UNAUTHENTICATED } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const { model } = loadModel({ sources: [{ file: "vault.smithy", text: readFileSync(join(import.meta.dirname, "..", "models", "vault.smithy"), "utf8") }] });
const Vault = schemasFromModel(model).service("test.auth#Vault") as ServiceSchema;

interface Caller {
  readonly id: string;
  readonly via: string;
}

const USERS: Readonly<Record<string, string>> = { admin: "s3cret", bob: "hunter2" };
const AWS = { accessKeyId: "AKIDVAULT", secretAccessKey: "vault-secret" };

/** What each interceptor and handler saw, in order. */
const trail: string[] = [];
const recorder =
  (name: string): ServerInterceptor<Caller> =>
  (next) =>
  async (call: ServerCall<Caller>) => {
    trail.push(`${name}>${call.method}`);
    try {
      return await next(call);
    } finally {
      trail.push(`${name}<${call.method}`);
    }
  };

const named = (_input: unknown, context: HandlerContext<Caller>) => ({
  caller: context.identity === undefined ? "anonymous" : `${context.identity.id} by ${context.identity.via}`,
});

/** The vault on one protocol (restJson1 and simpleRestJson have the same routes: one server cannot serve both). */
function vaultServer(protocol: ProtocolValue, id: string) {
  return createServer(Vault, {
    protocols: [protocol],
    auth: {
      bearer: (token) => (token === "good-token" ? { id: "tok", via: "bearer" } : undefined),
      apiKey: async (key) => (key === "good-key" ? { id: "key", via: "api key" } : undefined),
      basic: ({ user, password }) => (Object.hasOwn(USERS, user) && USERS[user] === password ? { id: user, via: "basic" } : undefined),
      schemes: [
        sigv4Verifier<Caller>({
          secretOf: (accessKeyId) => (accessKeyId === AWS.accessKeyId ? AWS.secretAccessKey : undefined),
          identify: (accessKeyId) => ({ id: accessKeyId, via: "sigv4" }),
        }),
      ],
    },
    interceptors: [recorder("outer")],
    requestIds: true,
    onInternalError: () => {},
  })
    .use(recorder("inner"))
    .use("rotate", (next) => (call) => (call.context.identity?.id === "admin" ? next(call) : Promise.reject(accessDenied())))
    .register({ getSecret: named, ping: named, peek: named, rotate: named })
    .mapService(id);
}

type ProtocolValue = Parameters<typeof createServer>[1]["protocols"][number];

const PROTOCOLS = [
  { id: "aws.protocols#restJson1", value: restJson1(), h2: false },
  { id: "alloy#simpleRestJson", value: simpleRestJson(), h2: false },
  { id: "aws.protocols#awsJson1_1", value: awsJson1_1(), h2: false },
  { id: "smithy.protocols#rpcv2Cbor", value: rpcv2Cbor(), h2: false },
  { id: "aws.protocols#restJson1", value: restJson1(), h2: true },
  { id: "smithy.protocols#rpcv2Cbor", value: rpcv2Cbor(), h2: true },
  { id: "alloy.proto#grpc", value: grpc(), h2: true },
] as const;

/** The vault on restJson1 over HTTP/1.1, for the checks made with bare fetch. */
let h1: NodeListener;
const h2Transport = http2Transport();

beforeAll(async () => {
  h1 = await listen(vaultServer(restJson1(), "aws.protocols#restJson1"));
});
afterAll(async () => {
  await h2Transport.close();
  await h1.close({ graceMs: 100 });
});

async function rejection(promise: Promise<unknown>): Promise<{ code?: string; $metadata?: { httpStatus?: number } }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string };
  }
  throw new Error("expected the call to fail");
}

describe.each(PROTOCOLS.map((p) => ({ ...p, http: p.h2 ? "HTTP/2" : "HTTP/1.1" })))("$id over $http", (p) => {
  const grpcCall = p.id === "alloy.proto#grpc";
  let listener: NodeListener;
  beforeAll(async () => {
    listener = await listen(vaultServer(p.value, p.id), { http2: p.h2 });
  });
  afterAll(() => listener.close({ graceMs: 100 }));
  const client = (auth: readonly AuthScheme[] = [], headers: Record<string, string> = {}) =>
    createClient(Vault, {
      endpoint: listener.url,
      protocols: [p.value],
      protocol: p.id,
      auth,
      headers,
      retry: { maxAttempts: 1 },
      ...(p.h2 ? { transport: h2Transport } : {}),
    }) as unknown as Record<string, (input?: object) => Promise<{ caller: string }>>;
  const bearer = (token: string) => httpBearerAuth({ token });
  const apiKey = (key: string) => httpApiKeyAuth({ apiKey: key });
  const basic = (user: string, password: string) => httpBasicAuth({ credentials: { user, password } });
  const signed = (secretAccessKey = AWS.secretAccessKey) => sigv4({ region: "eu-west-1", credentials: { ...AWS, secretAccessKey } });

  /** A refusal as the caller sees it: the documented error type and the status (gRPC: its status code). */
  async function refused(promise: Promise<unknown>, code: string, status: number, grpcStatus: string) {
    const error = await rejection(promise);
    if (grpcCall) expect(error.code).toBe(grpcStatus);
    else expect([error.code, error.$metadata?.httpStatus]).toEqual([code, status]);
  }

  it("refuses a call without credentials (401, UNAUTHENTICATED)", async () => {
    await refused(client().getSecret!({ name: "x" }), UNAUTHENTICATED, 401, "UNAUTHENTICATED");
  });

  it("gives every answer a request id, which the client puts on $metadata of results and errors", async () => {
    const ok = (await client().ping!({})) as unknown as { $metadata: { requestId?: string } };
    const error = (await rejection(client().getSecret!({ name: "x" }))) as { $metadata?: { requestId?: string } };
    expect(ok.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.$metadata?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.$metadata?.requestId).not.toBe(ok.$metadata.requestId);
  });

  it("refuses wrong credentials of every scheme, saying nothing of why", async () => {
    for (const scheme of [bearer("bad-token"), apiKey("bad-key"), basic("bob", "wrong"), basic("nobody", "x"), signed("wrong-secret")]) {
      await refused(client([scheme]).getSecret!({ name: "x" }), UNAUTHENTICATED, 401, "UNAUTHENTICATED");
    }
  });

  it("serves valid credentials of every scheme, with the identity in the handler's context", async () => {
    expect(await client([bearer("good-token")]).getSecret!({ name: "x" })).toMatchObject({ caller: "tok by bearer" });
    expect(await client([apiKey("good-key")]).getSecret!({ name: "x" })).toMatchObject({ caller: "key by api key" });
    expect(await client([basic("bob", "hunter2")]).getSecret!({ name: "x" })).toMatchObject({ caller: "bob by basic" });
    expect(await client([signed()]).getSecret!({ name: "x" })).toMatchObject({ caller: "AKIDVAULT by sigv4" });
  });

  it("checks the credentials of the most preferred scheme the request carries", async () => {
    // Bearer comes first in the model's @auth list: a good token wins over a bad key, a bad token loses to a good key.
    expect(await client([bearer("good-token")], { "x-api-key": "bad-key" }).getSecret!({ name: "x" })).toMatchObject({ caller: "tok by bearer" });
    await refused(client([bearer("bad-token")], { "x-api-key": "good-key" }).getSecret!({ name: "x" }), UNAUTHENTICATED, 401, "UNAUTHENTICATED");
  });

  it("authenticates before reading and validating the input", async () => {
    // An input the model refuses (name is @length(min: 1)): without credentials the answer is still 401.
    await refused(client().getSecret!({ name: "" }), UNAUTHENTICATED, 401, "UNAUTHENTICATED");
  });

  it("serves an anonymous operation (@auth([])) without credentials", async () => {
    expect(await client().ping!({})).toMatchObject({ caller: "anonymous" });
    // Credentials are not even looked at.
    expect(await client([bearer("bad-token")]).ping!({})).toMatchObject({ caller: "anonymous" });
  });

  it("serves an @optionalAuth operation without credentials, and checks those it is given", async () => {
    expect(await client().peek!({})).toMatchObject({ caller: "anonymous" });
    expect(await client([basic("admin", "s3cret")]).peek!({})).toMatchObject({ caller: "admin by basic" });
    await refused(client([bearer("bad-token")]).peek!({}), UNAUTHENTICATED, 401, "UNAUTHENTICATED");
  });

  it("takes only the operation's own schemes, and lets an interceptor refuse a known caller (403, PERMISSION_DENIED)", async () => {
    // Rotate takes basic auth only: a good bearer token is not a credential for it.
    await refused(client([bearer("good-token")]).rotate!({}), UNAUTHENTICATED, 401, "UNAUTHENTICATED");
    await refused(client([basic("bob", "hunter2")]).rotate!({}), ACCESS_DENIED, 403, "PERMISSION_DENIED");
    expect(await client([basic("admin", "s3cret")]).rotate!({})).toMatchObject({ caller: "admin by basic" });
  });

  it("runs the interceptors around the handler, server-wide ones outside the operation's", async () => {
    trail.length = 0;
    await client([basic("admin", "s3cret")]).rotate!({});
    expect(trail).toEqual(["outer>rotate", "inner>rotate", "inner<rotate", "outer<rotate"]);
    trail.length = 0;
    // A refused call never reaches them.
    await rejection(client().rotate!({}));
    expect(trail).toEqual([]);
  });
});

describe("the HTTP answer to a refused call", () => {
  it("carries the schemes' challenges in WWW-Authenticate, in the model's order", async () => {
    const response = await fetch(`${h1.url}/secret`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="Vault", Basic realm="Vault", charset="UTF-8", AWS4-HMAC-SHA256');
    expect(response.headers.get("x-amzn-errortype")).toBe(UNAUTHENTICATED);
    expect(await response.json()).toEqual({ message: "the request is not authenticated" });
  });

  it("refuses a malformed Authorization header as it refuses a wrong one", async () => {
    for (const authorization of ["Bearer", "Bearer a b", "Basic !!!", `Basic ${btoa("no-colon")}`]) {
      const response = await fetch(`${h1.url}/secret`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: '{"name":"x"}',
      });
      expect([authorization, response.status]).toEqual([authorization, 401]);
      await response.arrayBuffer();
    }
  });

  it("reads the API key from the header the trait names", async () => {
    const response = await fetch(`${h1.url}/secret`, {
      method: "POST",
      headers: { "x-api-key": "good-key", "content-type": "application/json" },
      body: '{"name":"x"}',
    });
    expect([response.status, await response.json()]).toEqual([200, { caller: "key by api key" }]);
  });
});

describe("configuration", () => {
  it("refuses to start when an operation's schemes have no verifier", () => {
    expect(() =>
      createServer(Vault, { protocols: [restJson1()], auth: { bearer: () => ({ id: "t", via: "bearer" }) } })
        .register({ getSecret: named, ping: named, peek: named, rotate: named })
        .mapService("aws.protocols#restJson1")
        .start(),
    ).toThrow(/no verifier is configured for the auth schemes of rotate \(smithy\.api#httpBasicAuth\)/);
  });

  it("serves such operations without authentication when told to", async () => {
    const server = createServer(Vault, { protocols: [restJson1()], auth: { bearer: () => ({ id: "t", via: "bearer" }), allowUnverified: true } })
      .register({ getSecret: named, ping: named, peek: named, rotate: named })
      .mapService("aws.protocols#restJson1");
    const listener = await listen(server);
    try {
      const rotate = await fetch(`${listener.url}/rotate`, { method: "POST" });
      expect([rotate.status, await rotate.json()]).toEqual([200, { caller: "anonymous" }]);
      const secret = await fetch(`${listener.url}/secret`, { method: "POST", body: '{"name":"x"}', headers: { "content-type": "application/json" } });
      expect(secret.status).toBe(401);
      await secret.arrayBuffer();
    } finally {
      await listener.close({ graceMs: 100 });
    }
  });

  it("enforces nothing without the auth option (as before)", async () => {
    const server = createServer<ServiceSchema, Caller>(Vault, { protocols: [restJson1()] })
      .register({ getSecret: named, ping: named, peek: named, rotate: named })
      .mapService("aws.protocols#restJson1");
    const listener = await listen(server);
    try {
      const response = await fetch(`${listener.url}/secret`, { method: "POST", body: '{"name":"x"}', headers: { "content-type": "application/json" } });
      expect([response.status, await response.json()]).toEqual([200, { caller: "anonymous" }]);
    } finally {
      await listener.close({ graceMs: 100 });
    }
  });
});
