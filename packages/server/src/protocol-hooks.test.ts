/**
 * The two hooks a protocol may give the dispatcher: `deadline` (gRPC's
 * `grpc-timeout`) and `readsOwnBody` (gRPC's length-prefixed messages); and
 * the response headers a handler adds (gRPC's custom response metadata).
 */
import { type HttpRequest, type ServerProtocol, TransportError } from "@anvil/core";
import { DEADLINE_EXCEEDED, readBody } from "@anvil/core/protocol";
import { blob, member, operation, service, struct } from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { createDispatcher } from "./index.js";
import { testProtocol } from "./test-protocol.js";

const Wait = operation("example.test#Wait", {
  input: struct("example.test#WaitInput", [member("data", blob)]),
  output: struct("example.test#WaitOutput", []),
  traits: { http: { method: "POST", uri: "/wait", code: 200 } },
});
const Svc = service("example.test#Svc", { operations: { wait: Wait }, protocols: ["test#json"] });

/** The test protocol, with a deadline from `x-deadline-ms` and, when asked, bodies left to it. */
function protocolWithHooks(readsOwnBody: boolean): ServerProtocol & { readonly seenBodies: number[] } {
  const base = testProtocol("test#json");
  const seenBodies: number[] = [];
  return {
    ...base,
    seenBodies,
    readsOwnBody,
    deadline: (request: HttpRequest) => {
      const value = request.headers.get("x-deadline-ms");
      return value === null ? undefined : Number(value);
    },
    async deserializeRequest(_op, request) {
      seenBodies.push((await readBody(request.body)).byteLength);
      return {};
    },
    async serializeError(op, error, context) {
      if (TransportError.is(error) && error.code === DEADLINE_EXCEEDED) return { status: 504, headers: new Headers(), body: undefined };
      return base.serializeError(op, error, context);
    },
  };
}

const post = (headers: Record<string, string>, body?: Uint8Array): HttpRequest => ({
  method: "POST",
  path: "/wait",
  query: [],
  headers: new Headers(headers),
  body,
});

describe("protocol hooks of the dispatcher", () => {
  it("aborts the handler's signal when the request's deadline passes and answers the protocol's deadline error", async () => {
    const reasons: unknown[] = [];
    const dispatch = createDispatcher({
      service: Svc,
      protocols: [protocolWithHooks(false)],
      handlers: {
        wait: (_input, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener("abort", () => {
              reasons.push(signal.reason);
              reject(signal.reason);
            });
          }),
      },
    });
    const started = Date.now();
    const response = await dispatch(post({ "x-deadline-ms": "50" }));
    expect(response.status).toBe(504);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(TransportError.is(reasons[0]) && (reasons[0] as TransportError).code).toBe(DEADLINE_EXCEEDED);
  });

  it("answers as usual within the deadline", async () => {
    const dispatch = createDispatcher({ service: Svc, protocols: [protocolWithHooks(false)], handlers: { wait: () => ({}) } });
    expect((await dispatch(post({ "x-deadline-ms": "5000" }))).status).toBe(200);
  });

  it("hands a protocol that reads its own body the body past the buffered limit", async () => {
    const big = new Uint8Array(2048);
    const own = protocolWithHooks(true);
    const dispatchOwn = createDispatcher({ service: Svc, protocols: [own], handlers: { wait: () => ({}) }, bodyLimit: 1024 });
    expect((await dispatchOwn(post({}, big))).status).toBe(200);
    expect(own.seenBodies).toEqual([2048]);
    const buffered = createDispatcher({ service: Svc, protocols: [protocolWithHooks(false)], handlers: { wait: () => ({}) }, bodyLimit: 1024 });
    expect((await buffered(post({}, big))).status).toBe(413);
  });
});

describe("response headers a handler adds", () => {
  it("are added to the answer, success or error, the protocol's own headers keeping their values", async () => {
    const dispatch = createDispatcher({
      service: Svc,
      protocols: [testProtocol("test#json")],
      handlers: {
        wait: (_input, context) => {
          context.responseHeaders.set("x-served-by", "anvil");
          context.responseHeaders.set("content-type", "text/evil");
          if (context.headers.get("x-fail") !== null) throw new Error("boom");
          return {};
        },
      },
    });
    const ok = await dispatch(post({}));
    expect([ok.status, ok.headers.get("x-served-by"), ok.headers.get("content-type")]).toEqual([200, "anvil", "application/json"]);
    const failed = await dispatch(post({ "x-fail": "1" }));
    expect([failed.status, failed.headers.get("x-served-by")]).toEqual([500, "anvil"]);
  });

  it("keep every Set-Cookie the handler appends (each a field of its own)", async () => {
    const dispatch = createDispatcher({
      service: Svc,
      protocols: [testProtocol("test#json")],
      handlers: {
        wait: (_input, context) => {
          context.responseHeaders.append("set-cookie", "session=abc; Path=/; HttpOnly");
          context.responseHeaders.append("set-cookie", "theme=dark; Expires=Wed, 21 Oct 2026 07:28:00 GMT");
          return {};
        },
      },
    });
    const response = await dispatch(post({}));
    expect(response.headers.getSetCookie()).toEqual(["session=abc; Path=/; HttpOnly", "theme=dark; Expires=Wed, 21 Oct 2026 07:28:00 GMT"]);
  });
});
