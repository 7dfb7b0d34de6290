import { beforeAll, describe, expect, it } from "vitest";
import { SerializationError, type ClientProtocol, type HttpRequest, type ServerProtocol } from "@anvil/core";
import type { Model } from "@anvil/model";
import { extractProtocolTests, type HttpRequestCase } from "./cases.js";
import { loadFixture } from "./fixture-model.js";
import { NO_BODY, runClientCase, runServerCase, targetOf } from "./run-case.js";

/** A client that sends `body` with `headers`, whatever the input. */
const sending = (body: string, headers: Record<string, string>): ClientProtocol =>
  ({
    id: "aws.protocols#restJson1",
    serializeRequest: (): Promise<HttpRequest> =>
      Promise.resolve({ method: "POST", path: "/put/b", query: [], headers: new Headers(headers), body: new TextEncoder().encode(body) }),
  }) as unknown as ClientProtocol;

describe("runClientCase bodies", () => {
  let model: Model;
  let minimal: HttpRequestCase;

  beforeAll(() => {
    model = loadFixture();
    minimal = extractProtocolTests(model).cases.find((c) => c.id === "PutMinimal") as HttpRequestCase;
  });

  it("compares a body the case gives no media type for as JSON when the message says it is JSON", async () => {
    const c = { ...minimal, body: `{"a":1,"b":[true]}` };
    expect(await runClientCase(sending(`{"b":[true],"a":1}`, { "content-type": "application/json" }), model, c)).toEqual([]);
    expect(await runClientCase(sending(`{"b":[true],"a":2}`, { "content-type": "application/json" }), model, c)).toEqual(["body /a: expected 1, got 2"]);
  });

  it("compares such a body as text otherwise", async () => {
    const c = { ...minimal, body: `{"a":1,"b":[true]}` };
    expect(await runClientCase(sending(`{"b":[true],"a":1}`, { "content-type": "text/plain" }), model, c)).toHaveLength(1);
  });
});

/** A server protocol with `POST /put/{label}` for `Put` (a route of its own for every other operation), reading requests with `read`. */
const serverReading = (read: () => unknown): ServerProtocol => ({
  id: "aws.protocols#restJson1",
  routes: (service) =>
    Object.values(service.operations).map((operation) => ({
      operation,
      method: "POST",
      path: operation.id === "test.cases#Put" ? "/put/{label}" : `/${operation.id}`,
    })),
  deserializeRequest: async () => read(),
  serializeResponse: () => Promise.reject(new Error("unused")),
  serializeError: () => Promise.reject(new Error("unused")),
});

describe("runServerCase on a request case that gives no body", () => {
  let model: Model;
  let minimal: HttpRequestCase;

  beforeAll(() => {
    model = loadFixture();
    minimal = extractProtocolTests(model).cases.find((c) => c.id === "PutMinimal") as HttpRequestCase;
    expect(minimal.body).toBeUndefined();
    expect(targetOf(model, minimal).operation.id).toBe("test.cases#Put");
  });

  it("passes when the input matches", async () => {
    expect(
      await runServerCase(
        serverReading(() => ({ label: "b" })),
        model,
        minimal,
      ),
    ).toEqual([]);
  });

  it("says the server received no body when the input differs", async () => {
    expect(
      await runServerCase(
        serverReading(() => ({})),
        model,
        minimal,
      ),
    ).toEqual([`${NO_BODY}: input /label: expected "b", got nothing`]);
  });

  it("says so when the server rejects the request", async () => {
    const problems = await runServerCase(
      serverReading(() => {
        throw new SerializationError("decode: nope");
      }),
      model,
      minimal,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^the case gives no request body \(the server got none\): SerializationError: decode: nope/);
  });
});
