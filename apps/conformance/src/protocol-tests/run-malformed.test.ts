import { describe, expect, it } from "vitest";
import { restJson1 } from "@anvil/protocol-restjson";
import type { MalformedRequestCase, MalformedResponse } from "./cases.js";
import { loadFixture } from "./fixture-model.js";
import { malformedBodyProblems, malformedRequestOf, runMalformedCase } from "./run-malformed.js";

const model = loadFixture();
const server = restJson1().server;
const utf8 = new TextEncoder();

/** A malformed case on the fixture's `Put` (`POST /put/{label}`, JSON body members). */
const put = (
  body: string | undefined,
  response: MalformedResponse,
  headers: Record<string, string> = { "content-type": "application/json" },
): MalformedRequestCase => ({
  kind: "malformed",
  id: "Case",
  protocol: "aws.protocols#restJson1",
  appliesTo: "server",
  attachedTo: { type: "operation", id: "test.cases#Put" },
  tags: [],
  request: { method: "POST", uri: "/put/a?x=1", queryParams: ["y=2"], headers, ...(body !== undefined ? { body } : {}) },
  response,
});

describe("malformedRequestOf", () => {
  it("splits the uri, adds the query params, keeps headers and body", async () => {
    const request = malformedRequestOf(put("{}", { code: 400, headers: {} }));
    expect([request.method, request.path, request.query, request.headers.get("content-type")]).toEqual([
      "POST",
      "/put/a",
      [
        ["x", "1"],
        ["y", "2"],
      ],
      "application/json",
    ]);
    expect(request.body).toEqual(utf8.encode("{}"));
  });
});

describe("runMalformedCase", () => {
  const rejected: MalformedResponse = {
    code: 400,
    headers: { "X-Amzn-Errortype": "SerializationException" },
    body: { mediaType: "application/json", assertion: { messageRegex: "^decode" } },
  };

  it("passes when the server rejects the request as expected", async () => {
    expect(await runMalformedCase(server, model, put(`{"when":"soon"}`, rejected))).toEqual([]);
  });

  it("fails when the handler is reached, and says with what", async () => {
    const problems = await runMalformedCase(server, model, put(`{"items":["x"]}`, rejected));
    expect(problems[0]).toBe(`the handler was reached with {"items":["x"],"label":"a"}`);
    expect(problems).toContain("status: expected 400, got 500");
  });

  it("compares status and the expected headers", async () => {
    const problems = await runMalformedCase(server, model, put(`{"when":"soon"}`, { code: 415, headers: { "x-amzn-errortype": "Other" } }));
    expect(problems).toEqual(["status: expected 415, got 400", 'header x-amzn-errortype: expected "Other", got "SerializationException"']);
  });
});

describe("malformedBodyProblems", () => {
  const body = utf8.encode(`{"message":"1 validation error detected.","fieldList":[]}`);

  it.each<[string, Parameters<typeof malformedBodyProblems>[1], string[]]>([
    [
      "JSON contents, key order ignored",
      { mediaType: "application/json", assertion: { contents: `{"fieldList":[],"message":"1 validation error detected."}` } },
      [],
    ],
    [
      "different JSON contents",
      { mediaType: "application/json", assertion: { contents: `{"message":"x","fieldList":[]}` } },
      [`body /message: expected "x", got "1 validation error detected."`],
    ],
    ["a message regex that matches", { mediaType: "application/json", assertion: { messageRegex: "validation error" } }, []],
    [
      "a message regex that does not",
      { mediaType: "application/json", assertion: { messageRegex: "^2 " } },
      [`body message: expected /^2 /, got "1 validation error detected."`],
    ],
  ])("%s", (_label, expected, problems) => {
    expect(malformedBodyProblems(body, expected)).toEqual(problems);
  });

  it("a message regex needs a JSON body with a message", () => {
    expect(malformedBodyProblems(utf8.encode("oops"), { mediaType: "application/json", assertion: { messageRegex: "x" } })[0]).toMatch(/^body: expected JSON/);
  });
});
