import { describe, expect, it } from "vitest";
import { BigDecimal, type HttpRequest, type OperationSchema, type Route, type ServerProtocol, type ServiceSchema } from "@anvil/core";
import { bodyProblems, caseBodyBytes, headerProblems, isCborMediaType, isJsonMediaType, queryProblems } from "./http-compare.js";
import { caseMediaType } from "./run-case.js";
import type { HttpRequestCase } from "./cases.js";
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

describe("CBOR bodies", () => {
  const b64 = (bytes: number[]): string => Buffer.from(bytes).toString("base64");
  const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);
  // {"a": 1.5, "b": h'0102'} definite, with a double
  const definite = [0xa2, 0x61, 0x61, 0xfb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0x61, 0x62, 0x42, 1, 2];
  // the same value: indefinite map, keys swapped, a half float, an indefinite byte string
  const indefinite = [0xbf, 0x61, 0x62, 0x5f, 0x41, 1, 0x41, 2, 0xff, 0x61, 0x61, 0xf9, 0x3e, 0x00, 0xff];

  it("compare decoded values: key order, lengths and float widths ignored", () => {
    expect(bodyProblems(bytes(...indefinite), b64(definite), "application/cbor")).toEqual([]);
    expect(bodyProblems(bytes(0xa0), b64([0xbf, 0xff]), "application/cbor")).toEqual([]);
    expect(bodyProblems(bytes(), "", "application/cbor")).toEqual([]);
  });

  it("report different values, byte strings and missing bodies", () => {
    const otherFloat = [...definite];
    otherFloat[5] = 0xf0; // 1.0 instead of 1.5
    expect(bodyProblems(bytes(...otherFloat), b64(definite), "application/cbor")).toEqual(["body /a: expected 1.5, got 1"]);
    const otherBytes = [...definite];
    otherBytes[16] = 3;
    expect(bodyProblems(bytes(...otherBytes), b64(definite), "application/cbor")[0]).toMatch(/^body \/b: expected bytes/);
    expect(bodyProblems(bytes(), b64(definite), "application/cbor")).toEqual([`body: expected 0x${Buffer.from(definite).toString("hex")}, got none`]);
    expect(bodyProblems(bytes(0xa0), "", "application/cbor")).toEqual(["body: expected none, got 0xa0"]);
    expect(bodyProblems(bytes(0xa1, 0x61), b64(definite), "application/cbor")[0]).toMatch(/^body: expected CBOR, got 0xa161/);
  });

  it("case bodies are base64 for CBOR, text otherwise; the media type falls back to Content-Type", () => {
    expect(caseBodyBytes("v/8=", "application/cbor")).toEqual(bytes(0xbf, 0xff));
    expect(caseBodyBytes("v/8=", "application/json")).toEqual(new TextEncoder().encode("v/8="));
    expect(isCborMediaType("application/cbor; charset=binary")).toBe(true);
    const c = (extra: Partial<HttpRequestCase>) => ({ headers: { "Content-Type": "application/cbor" }, ...extra }) as HttpRequestCase;
    expect(caseMediaType(c({}))).toBe("application/cbor");
    expect(caseMediaType(c({ bodyMediaType: "application/json" }))).toBe("application/json");
    expect(caseMediaType(c({ headers: {} }))).toBeUndefined();
  });
});

describe("matchRoute", () => {
  const op = (id: string) => ({ id, errors: [] }) as unknown as OperationSchema;
  const routes: Route[] = [
    { operation: op("a"), method: "POST", path: "/", headers: { "x-amz-target": "S.A" } },
    { operation: op("b"), method: "GET", path: "/cities/{id}/files/{key+}" },
  ];
  const service = { id: "s#S", operations: {} } as unknown as ServiceSchema;
  const server = { id: "p#x", routes: () => routes } as unknown as ServerProtocol;
  const req = (method: string, path: string, headers: Record<string, string> = {}): HttpRequest => ({
    method,
    path,
    query: [],
    headers: new Headers(headers),
    body: undefined,
  });

  it("routes through the server's router: method, path pattern and headers, decoding labels", () => {
    expect(matchRoute(service, server, req("POST", "/", { "X-Amz-Target": "S.A" }))?.route.operation.id).toBe("a");
    expect(matchRoute(service, server, req("GET", "/cities/new%20york/files/a/b"))?.labels).toEqual({ id: "new york", key: "a/b" });
  });

  it("does not match a missing header or a wrong method", () => {
    expect(matchRoute(service, server, req("POST", "/"))).toBeUndefined();
    expect(matchRoute(service, server, req("PUT", "/cities/x/files/y"))).toBeUndefined();
  });
});
