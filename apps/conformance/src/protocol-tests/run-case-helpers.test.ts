import { describe, expect, it } from "vitest";
import { BigDecimal, type HttpRequest, type OperationSchema, type Route } from "@anvil/core";
import { bodyProblems, headerProblems, isJsonMediaType, queryProblems } from "./http-compare.js";
import { matchRoute } from "./route-match.js";
import { valueDiff } from "./value-diff.js";

describe("valueDiff", () => {
  it.each<[string, unknown, unknown]>([
    ["dates by time", new Date(1000), new Date(1000)],
    ["bytes by content", new Uint8Array([1, 2]), new Uint8Array([1, 2])],
    ["NaN equals NaN", Number.NaN, Number.NaN],
    ["numbers and bigints numerically", 5, 5n],
    ["BigDecimal numerically", BigDecimal.from("1.0"), BigDecimal.from("1")],
    ["undefined members as absent", { a: 1, b: undefined }, { a: 1 }],
    ["key order ignored", { a: 1, b: 2 }, { b: 2, a: 1 }],
  ])("equal: %s", (_label, a, b) => {
    expect(valueDiff(a, b)).toBeUndefined();
  });

  it.each<[string, unknown, unknown, string]>([
    ["a different date", new Date(0), new Date(1), "/: expected Date(1970-01-01T00:00:00.000Z), got Date(1970-01-01T00:00:00.001Z)"],
    ["a missing member", { a: { b: 1 } }, { a: {} }, "/a/b: expected 1, got nothing"],
    ["an extra member", {}, { x: "y" }, '/x: unexpected "y"'],
    ["a list length", [1], [1, 2], "/: expected 1 items, got 2"],
  ])("different: %s", (_label, a, b, message) => {
    expect(valueDiff(a, b)).toBe(message);
  });
});

describe("message checks", () => {
  it("headers: expected values, forbidden and required names", () => {
    const h = new Headers({ "content-type": "application/json", "x-a": "1, 2" });
    expect(headerProblems(h, { "Content-Type": "application/json", "X-A": "1,2" }, ["x-b"], ["x-a"])).toEqual([]);
    expect(headerProblems(h, { "X-C": "z" }, ["x-a"], ["x-d"])).toEqual([
      'header X-C: expected "z", got nothing',
      'header x-a: forbidden, got "1, 2"',
      "header x-d: required, missing",
    ]);
  });

  it("query: pairs decoded, forbidden and required names", () => {
    expect(queryProblems([["a b", "c"]], ["a%20b=c"], ["x"], ["a b"])).toEqual([]);
    expect(queryProblems([], ["q=1"], [], ["r"])).toEqual(["query q=1: missing (got none)", "query r: required, missing"]);
  });

  it("bodies: JSON structurally, other media types exactly, no assertion without a body", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(bodyProblems(enc(`{"b":1,"a":[true]}`), `{"a": [true], "b": 1}`, "application/json")).toEqual([]);
    expect(bodyProblems(enc(`{"a":2}`), `{"a":1}`, "application/json")).toEqual(["body /a: expected 1, got 2"]);
    expect(bodyProblems(enc("x"), "x ", "text/plain")).toHaveLength(1);
    expect(bodyProblems(enc("anything"), undefined, undefined)).toEqual([]);
    expect(bodyProblems(enc(""), "", "application/json")).toEqual([]);
    expect(isJsonMediaType("application/x-amz-json-1.1")).toBe(true);
    expect(isJsonMediaType("text/html")).toBe(false);
  });
});

describe("matchRoute", () => {
  const op = (id: string) => ({ id }) as OperationSchema;
  const routes: Route[] = [
    { operation: op("a"), method: "POST", path: "/", headers: { "x-amz-target": "S.A" } },
    { operation: op("b"), method: "GET", path: "/cities/{id}/files/{key+}" },
  ];
  const req = (method: string, path: string, headers: Record<string, string> = {}): HttpRequest => ({ method, path, query: [], headers: new Headers(headers), body: undefined });

  it("matches by method, path pattern and headers, decoding labels", () => {
    expect(matchRoute(routes, req("POST", "/", { "X-Amz-Target": "S.A" }))?.route.operation.id).toBe("a");
    expect(matchRoute(routes, req("GET", "/cities/new%20york/files/a/b"))?.labels).toEqual({ id: "new york", key: "a/b" });
  });

  it("does not match a missing header or a wrong method", () => {
    expect(matchRoute(routes, req("POST", "/"))).toBeUndefined();
    expect(matchRoute(routes, req("PUT", "/cities/x/files/y"))).toBeUndefined();
  });
});
