/**
 * Fakes as data: the runtime's handler and client over a service's fake
 * tables, with overrides, as users combine them with generated tables.
 */
import { ModeledError, type ServiceSchema } from "@anvil/core";
import { operationExamples, schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createFakeClient, createFakeHandler, type FakeCall, type FakeTables, fakeOperation } from "./index.js";

const { model } = loadModel({ paths: [fileURLToPath(new URL("./__fixtures__/zoo.smithy", import.meta.url))] });
const zoo = schemasFromModel(model).service("example.fakes#Zoo");
const tables = Object.fromEntries(
  Object.entries(zoo.operations).map(([key, op]) => [key, fakeOperation(op, operationExamples(model, model.getShape(op.id)!))]),
) as FakeTables<ServiceSchema>;

describe("createFakeClient", () => {
  const client = createFakeClient(zoo, tables);

  it("answers each operation from its table, matched examples and modeled errors included", async () => {
    await expect(client.getAnimal!({ name: "lion" })).resolves.toMatchObject({ animal: { name: "lion", legs: 4 } });
    const error = await client.getAnimal!({ name: "unicorn" }).catch((e: unknown) => e);
    expect(ModeledError.isModeledError(error) && error.$shapeId).toBe("example.fakes#NotFound");
  });

  it("validates input first, rejecting as the fake server would, and may be called without input when nothing is required", async () => {
    const invalid = await client.getAnimal!({} as never).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ $shapeId: "smithy.framework#ValidationException", $metadata: { httpStatus: 400 } });
    await expect(client.ping!()).resolves.toMatchObject({ message: "pong" });
  });

  it("takes overrides for single operations", async () => {
    const custom = createFakeClient(zoo, tables, { overrides: { ping: async () => ({ message: "custom" }) } });
    await expect(custom.ping!()).resolves.toEqual({ message: "custom" });
    await expect(custom.getAnimal!({ name: "lion" })).resolves.toMatchObject({ animal: { name: "lion" } });
  });
});

describe("createFakeHandler", () => {
  it("answers from the tables, reports each call, and lets overrides replace single operations", async () => {
    const calls: FakeCall[] = [];
    const handler = createFakeHandler(zoo, tables, { onCall: (call) => calls.push(call), overrides: { ping: () => ({ message: "mine" }) } });
    await expect(handler.getAnimal!({ name: "lion" }, { protocol: "aws.protocols#restJson1" })).resolves.toMatchObject({ animal: { name: "lion" } });
    expect(await handler.ping!({}, undefined)).toEqual({ message: "mine" });
    expect(calls).toEqual([{ operation: "getAnimal", protocol: "aws.protocols#restJson1", source: 'example "lion"', error: false }]);
  });
});
