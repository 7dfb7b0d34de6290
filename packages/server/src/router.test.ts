import { describe, expect, it } from "vitest";
import { type HttpRequest, type HttpResponse, ProtocolError, type Route, type ServerProtocol } from "@anvil/core";
import { operation, service, unit } from "@anvil/core/codegenv1";
import { compileRouter, createDispatcher, RouteConflictError } from "./index.js";

const op = (name: string) => operation(`example#${name}`, { input: unit, output: unit });
const Ops = {
  literal: op("Literal"),
  label: op("Label"),
  greedy: op("Greedy"),
  greedyMiddle: op("GreedyMiddle"),
  withQuery: op("WithQuery"),
  withHeader: op("WithHeader"),
  root: op("Root"),
};
const Svc = service("example#Svc", { operations: Ops, protocols: [] });

/** A protocol contributing fixed routes. */
const routesProtocol = (id: string, routes: readonly Route[]): ServerProtocol => ({
  id,
  routes: () => routes,
  deserializeRequest: () => Promise.reject(new Error("unused")),
  serializeResponse: () => Promise.reject(new Error("unused")),
  serializeError: () => Promise.reject(new Error("unused")),
});

const rest = routesProtocol("rest", [
  { operation: Ops.label, method: "GET", path: "/cities/{cityId}" },
  { operation: Ops.greedy, method: "GET", path: "/files/{path+}" },
  { operation: Ops.greedyMiddle, method: "GET", path: "/blobs/{key+}/meta" },
  { operation: Ops.literal, method: "GET", path: "/cities/special" },
  { operation: Ops.withQuery, method: "GET", path: "/cities/{cityId}", query: [["mode", "full"]] },
]);
const rpc = routesProtocol("rpc", [{ operation: Ops.withHeader, method: "POST", path: "/", headers: { "X-Amz-Target": "Svc.WithHeader" } }]);
const rootRest = routesProtocol("root", [{ operation: Ops.root, method: "POST", path: "/" }]);

const router = compileRouter(Svc, [rootRest, rest, rpc]);
const req = (method: string, path: string, query: [string, string][] = [], headers: Record<string, string> = {}): HttpRequest => ({
  method,
  path,
  query,
  headers: new Headers(headers),
  body: undefined,
});

describe("compileRouter", () => {
  it.each([
    ["a literal segment before a label", req("GET", "/cities/special"), "Literal", "rest", {}],
    ["a label, percent-decoded", req("GET", "/cities/new%20york"), "Label", "rest", { cityId: "new york" }],
    ["more literal query parameters first", req("GET", "/cities/x", [["mode", "full"]]), "WithQuery", "rest", { cityId: "x" }],
    ["a greedy label over several segments", req("GET", "/files/a/b%2Fc/d"), "Greedy", "rest", { path: "a/b/c/d" }],
    ["a greedy label followed by a literal", req("GET", "/blobs/a/b/meta"), "GreedyMiddle", "rest", { key: "a/b" }],
    ["a route requiring a header, across protocols", req("POST", "/", [], { "x-amz-target": "Svc.WithHeader" }), "WithHeader", "rpc", {}],
    ["the plain route when the header is absent", req("POST", "/"), "Root", "root", {}],
    ["the method case-insensitively", req("get", "/cities/x"), "Label", "rest", { cityId: "x" }],
  ])("matches %s", (_label, request, name, protocol, labels) => {
    const match = router.match(request);
    expect([match?.operation.name, match?.protocol.id, match?.labels]).toEqual([name, protocol, labels]);
  });

  it.each([
    ["another method", req("DELETE", "/cities/x")],
    ["an empty label", req("GET", "/cities/")],
    ["an empty greedy label", req("GET", "/files/")],
    ["a greedy label without its segment", req("GET", "/blobs/meta")],
    ["extra segments", req("GET", "/cities/x/y")],
  ])("matches nothing for %s", (_label, request) => {
    expect(router.match(request)).toBeUndefined();
  });

  it("finds RPC routes on one path by their header, and keeps specificity between header and plain routes", () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`op${i}`, op(`Op${i}`)]));
    const ManySvc = service("example#Many", { operations: { ...many, root: Ops.root, withQuery: Ops.withQuery }, protocols: [] });
    const rpcMany = routesProtocol(
      "rpc",
      Object.keys(many).map((key) => ({ operation: many[key]!, method: "POST", path: "/", headers: { "X-Amz-Target": `Many.${many[key]!.name}` } })),
    );
    // A plain route on the same path with a literal query parameter is more specific than one with a header only.
    const plain = routesProtocol("plain", [
      { operation: Ops.root, method: "POST", path: "/" },
      { operation: Ops.withQuery, method: "POST", path: "/", query: [["mode", "full"]] },
    ]);
    const r = compileRouter(ManySvc, [rpcMany, plain]);
    const name = (request: HttpRequest) => r.match(request)?.operation.name;
    expect(name(req("POST", "/", [], { "x-amz-target": "Many.Op37" }))).toBe("Op37");
    expect(name(req("POST", "/", [], { "x-amz-target": "Many.Nope" }))).toBe("Root");
    expect(name(req("POST", "/"))).toBe("Root");
    expect(name(req("POST", "/", [["mode", "full"]], { "x-amz-target": "Many.Op3" }))).toBe("WithQuery");
  });

  describe("conflicts", () => {
    it("refuses two protocols serving the same route, naming both", () => {
      const a = routesProtocol("aws.protocols#awsJson1_0", [{ operation: Ops.root, method: "POST", path: "/", headers: { "X-Amz-Target": "Svc.Root" } }]);
      const b = routesProtocol("aws.protocols#awsJson1_1", [{ operation: Ops.root, method: "post", path: "/", headers: { "x-amz-target": "Svc.Root" } }]);
      expect(() => compileRouter(Svc, [a, b])).toThrow(RouteConflictError);
      expect(() => compileRouter(Svc, [a, b])).toThrow(
        "route conflict: POST / [x-amz-target: Svc.Root] is served by both example#Root (aws.protocols#awsJson1_0) and example#Root (aws.protocols#awsJson1_1)",
      );
    });

    it("refuses two operations whose routes differ only in label names", () => {
      const p = routesProtocol("rest", [
        { operation: Ops.label, method: "GET", path: "/cities/{cityId}" },
        { operation: Ops.literal, method: "GET", path: "/cities/{name}" },
      ]);
      expect(() => compileRouter(Svc, [p])).toThrow(/example#Label \(rest\) and example#Literal \(rest\)/);
    });

    it("accepts routes told apart by a literal, a query parameter, a header or the method", () => {
      const p = routesProtocol("rest", [
        { operation: Ops.label, method: "GET", path: "/cities/{cityId}" },
        { operation: Ops.literal, method: "GET", path: "/cities/special" },
        { operation: Ops.withQuery, method: "GET", path: "/cities/{cityId}", query: [["mode", "full"]] },
        { operation: Ops.withHeader, method: "GET", path: "/cities/{cityId}", headers: { "x-mode": "full" } },
        { operation: Ops.root, method: "PUT", path: "/cities/{cityId}" },
      ]);
      expect(() => compileRouter(Svc, [p])).not.toThrow();
    });
  });

  describe("a path known under other methods", () => {
    /** `rest`'s routes plus a PUT, from a protocol answering 405s with the methods it is given. */
    const refusing: ServerProtocol = {
      ...routesProtocol("refusing", [
        { operation: Ops.label, method: "GET", path: "/cities/{cityId}" },
        { operation: Ops.withQuery, method: "GET", path: "/cities/{cityId}", query: [["mode", "full"]] },
        { operation: Ops.root, method: "PUT", path: "/cities/{cityId}" },
        { operation: Ops.greedy, method: "GET", path: "/files/{path+}" },
        { operation: Ops.withHeader, method: "POST", path: "/files/{path+}", headers: { "x-mode": "upload" } },
      ]),
      methodNotAllowed: (request, allowed): HttpResponse => ({
        status: 405,
        headers: new Headers({ allow: allowed.join(", ") }),
        body: new TextEncoder().encode(`${request.method} ${request.path}`),
      }),
    };
    const refusingRouter = compileRouter(Svc, [refusing]);

    it("matches the most specific route of the path, with the methods the path takes", () => {
      const match = refusingRouter.match(req("DELETE", "/cities/x", [["mode", "full"]]));
      expect([match?.operation.name, match?.protocol === refusing, match?.labels, match?.allowed]).toEqual([
        "WithQuery",
        true,
        { cityId: "x" },
        ["GET", "PUT"],
      ]);
      expect(refusingRouter.match(req("GET", "/cities/x"))?.allowed).toBeUndefined();
    });

    it.each([
      ["the methods of every route the path fits", req("DELETE", "/cities/x"), "GET, PUT"],
      ["a method in another case", req("delete", "/cities/x"), "GET, PUT"],
      ["only routes whose required headers the request has", req("PUT", "/files/a/b"), "GET"],
      ["routes told apart by a header", req("PUT", "/files/a/b", [], { "x-mode": "upload" }), "GET, POST"],
    ])("answers 405 with Allow listing %s", async (_label, request, allow) => {
      const dispatch = createDispatcher({ service: Svc, protocols: [refusing], handlers: unreachableHandlers() });
      const response = await dispatch(request);
      expect([response.status, response.headers.get("allow"), new TextDecoder().decode(response.body as Uint8Array)]).toEqual([
        405,
        allow,
        `${request.method} ${request.path}`,
      ]);
    });

    it("reports the refusal as rejected, without reading the body or calling a handler", async () => {
      const rejected: unknown[] = [];
      let read = false;
      const body: AsyncIterable<Uint8Array> = {
        [Symbol.asyncIterator]: () => {
          read = true;
          return [new Uint8Array(8)].values() as unknown as AsyncIterator<Uint8Array>;
        },
      };
      const dispatch = createDispatcher({ service: Svc, protocols: [refusing], handlers: unreachableHandlers(), onRejected: (error) => rejected.push(error) });
      const response = await dispatch({ ...req("PATCH", "/cities/x"), body });
      expect([response.status, read]).toEqual([405, false]);
      expect(rejected).toHaveLength(1);
      expect(ProtocolError.is(rejected[0]) && [rejected[0].status, rejected[0].code, rejected[0].message]).toEqual([
        405,
        "MethodNotAllowedException",
        "route: PATCH is not allowed on /cities/x (allowed: GET, PUT)",
      ]);
    });

    it.each([
      ["a path no route has", refusingRouter, req("GET", "/towns/x")],
      ["a path whose routes need a header the request lacks", compileRouter(Svc, [refusing]), req("GET", "/cities")],
      ["a protocol without methodNotAllowed", router, req("DELETE", "/cities/x")],
    ])("matches nothing for %s", (_label, r, request) => {
      expect(r.match(request)).toBeUndefined();
    });
  });
});

/** Handlers for every operation of the router's service that fail the test when called. */
function unreachableHandlers(): Record<keyof typeof Ops, () => never> {
  const fail = (): never => {
    throw new Error("a handler was called");
  };
  return { literal: fail, label: fail, greedy: fail, greedyMiddle: fail, withQuery: fail, withHeader: fail, root: fail };
}
