/**
 * An operation without output (`smithy.api#Unit`) succeeds whatever a real
 * service answers it with: no body, `{}`, or `""` (AWS SDKs take all three),
 * on every HTTP protocol's client. The answers come from a bare `node:http`
 * server, as another stack's would.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@anvil/client-core";
import type { ServiceSchema } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { rpcv2Json } from "@anvil/protocol-rpcv2json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const MODEL = `
$version: "2.0"
namespace test.unit
use aws.protocols#restJson1
use aws.protocols#awsJson1_0
use aws.protocols#awsJson1_1
use alloy#simpleRestJson
use smithy.protocols#rpcv2Cbor
use smithy.protocols#rpcv2Json

@restJson1 @simpleRestJson @awsJson1_0 @awsJson1_1 @rpcv2Cbor @rpcv2Json
service Switch { version: "1", operations: [TurnOff] }

@idempotent
@http(method: "POST", uri: "/off", code: 200)
operation TurnOff { input := { reason: String } }
`;
const Switch = schemasFromModel(loadModel({ sources: [{ file: "switch.smithy", text: MODEL }] }).model).service("test.unit#Switch") as ServiceSchema;

const PROTOCOLS = [
  ["aws.protocols#restJson1", restJson1(), "application/json"],
  ["alloy#simpleRestJson", simpleRestJson(), "application/json"],
  ["aws.protocols#awsJson1_0", awsJson1_0(), "application/x-amz-json-1.0"],
  ["aws.protocols#awsJson1_1", awsJson1_1(), "application/x-amz-json-1.1"],
  ["smithy.protocols#rpcv2Cbor", rpcv2Cbor(), "application/cbor"],
  ["smithy.protocols#rpcv2Json", rpcv2Json(), "application/json"],
] as const;

/** What the server answers with next. */
let answer: { body: string | Uint8Array; type?: string } = { body: "" };
let server: Server;
let endpoint: string;

beforeAll(async () => {
  server = createHttpServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const headers: Record<string, string> = {};
      if (answer.type !== undefined) headers["content-type"] = answer.type;
      if (request.headers["smithy-protocol"] !== undefined) headers["smithy-protocol"] = String(request.headers["smithy-protocol"]);
      response.writeHead(200, headers).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe.each(PROTOCOLS)("%s", (id, protocol, type) => {
  const client = () =>
    createClient(Switch, { endpoint, protocols: [protocol], protocol: id, retry: { maxAttempts: 1 } }) as unknown as Record<
      string,
      (input: object) => Promise<object>
    >;

  it.each([
    ["no body", ""],
    ["{}", "{}"],
    ['""', '""'],
    ["null", "null"],
  ])("succeeds on a 200 with %s", async (_name, body) => {
    answer = { body, type };
    expect(await client().turnOff!({ reason: "night" })).toEqual({});
  });

  if (type === "application/cbor") {
    it.each([
      ["an empty map", new Uint8Array([0xa0])],
      ["an empty text string", new Uint8Array([0x60])],
    ])("succeeds on a 200 with %s", async (_name, body) => {
      answer = { body, type };
      expect(await client().turnOff!({ reason: "night" })).toEqual({});
    });
  }
});
