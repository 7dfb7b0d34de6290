import { beforeAll, describe, expect, it } from "vitest";
import type { ClientProtocol, HttpRequest } from "@anvil/core";
import type { Model } from "@anvil/model";
import { extractProtocolTests, type HttpRequestCase } from "./cases.js";
import { loadFixture } from "./fixture-model.js";
import { runClientCase } from "./run-case.js";

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
