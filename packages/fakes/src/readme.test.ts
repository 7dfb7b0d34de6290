/** The README's example, against the fakes test model: it must run. */
import { operationExamples, schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { createFakeHandler, fakeOperation, type FakeCall } from "./index.js";

it("serves a model's fakes as the README shows", async () => {
  const { model } = loadModel({ paths: [fileURLToPath(new URL("./__fixtures__/zoo.smithy", import.meta.url))] });
  const service = schemasFromModel(model).service("example.fakes#Zoo");
  const tables = Object.fromEntries(
    Object.entries(service.operations).map(([key, op]) => [key, fakeOperation(op, operationExamples(model, model.getShape(op.id)!))]),
  );
  const calls: FakeCall[] = [];
  const handler = createFakeHandler(service, tables, { onCall: (call) => calls.push(call) });
  const server = createServer(service, { protocols: [restJson1()] })
    .register(handler)
    .mapService("aws.protocols#restJson1");
  const listener = await listen(server, { port: 0 });
  try {
    const response = await fetch(`${listener.url}/shape`);
    expect(await response.json()).toEqual({ shape: { square: { side: 2 } } });
    expect(calls).toEqual([{ operation: "getShape", protocol: "aws.protocols#restJson1", source: 'example "a square"', error: false }]);
  } finally {
    await listener.close({ graceMs: 0 });
  }
});
