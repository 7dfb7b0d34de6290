/**
 * The reliability checklist (RELIABILITY.md), probed the way a user or an
 * attacker would: against `anvil serve --fake` on the example's model, over
 * real sockets. Each test is named after its checklist ID.
 */
import { fileURLToPath } from "node:url";
import { type FakeServe, startFakeServe } from "@anvil/codegen";
import { loadModel } from "@anvil/model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const MODEL = fileURLToPath(new URL("../../../apps/example/model/", import.meta.url));

let serve: FakeServe;
/** Weather's port: restJson1, awsJson1_1 and rpcv2Cbor. */
let weather: string;

beforeAll(async () => {
  serve = await startFakeServe(loadModel({ paths: [MODEL] }).model, { port: 0, grpcPort: 0, docs: false });
  weather = serve.listening.find((l) => l.service === "example.weather#Weather")!.url;
});
afterAll(() => serve.close(100));

describe("protocol strictness", () => {
  it("S8: rpcv2Cbor refuses requests carrying X-Amz-Target or X-Amzn-Target", async () => {
    const call = (headers: Record<string, string>) =>
      fetch(`${weather}/service/Weather/operation/GetCity`, {
        method: "POST",
        headers: { "smithy-protocol": "rpc-v2-cbor", "content-type": "application/cbor", accept: "application/cbor", ...headers },
        // {"cityId": "seattle"}: a map of one pair, two text strings.
        body: new Uint8Array([0xa1, 0x66, ...Buffer.from("cityId"), 0x67, ...Buffer.from("seattle")]),
      });
    expect((await call({})).status).toBe(200);
    for (const name of ["X-Amz-Target", "X-Amzn-Target"]) {
      const refused = await call({ [name]: "Weather.GetCity" });
      expect(refused.status).toBe(400);
      expect(refused.headers.get("smithy-protocol")).toBe("rpc-v2-cbor");
    }
  });

  it("E2: awsJson1_1 refuses a body of another media type with a 415", async () => {
    const call = (contentType: string) =>
      fetch(weather, { method: "POST", headers: { "x-amz-target": "Weather.GetCity", "content-type": contentType }, body: '{"cityId":"seattle"}' });
    expect((await call("application/x-amz-json-1.1")).status).toBe(200);
    expect((await call("application/json; charset=utf-8")).status).toBe(200);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/cbor"]) {
      const refused = await call(type);
      expect([type, refused.status, ((await refused.json()) as { __type?: string }).__type]).toEqual([type, 415, "UnsupportedMediaTypeException"]);
    }
  });
});
