/**
 * The OpenAPI document of every restJson1 service in the conformance corpus
 * (and of Anvil's example) passes Redocly's OpenAPI 3.1 validator with no
 * errors. The corpus is read at run time from ../shared/conformance (or
 * $ANVIL_CORPUS); nothing of it is copied here.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadModel, type Model } from "@anvil/model";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { toOpenApi } from "./index.js";
import { userServices } from "./service.js";
import { documentedProtocols } from "./protocols.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const CORPUS = resolve(REPO, process.env.ANVIL_CORPUS || join("..", "shared", "conformance"));
const AWS_TESTS = join(CORPUS, "protocol-tests", "smithy-aws-protocol-tests", "model");

/** Redocly's findings at error severity, as readable lines. */
async function openApiErrors(document: unknown): Promise<string[]> {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: "/openapi.json", config });
  return problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`);
}

function restJsonServices(model: Model): string[] {
  return userServices(model)
    .filter((s) => s.traits.has("aws.protocols#restJson1"))
    .map((s) => s.id);
}

describe("OpenAPI validation", () => {
  it("the example's services validate (all but the gRPC-only one, which OpenAPI cannot describe)", async () => {
    const { model } = loadModel({ paths: [join(REPO, "apps", "example", "model")] });
    const services = userServices(model);
    const grpcOnly = services.filter((s) => documentedProtocols(s).every((p) => p.kind === "grpc"));
    expect(grpcOnly.map((s) => s.id)).toEqual(["example.weather#WeatherGrpc"]);
    expect(() => toOpenApi(model, { service: "example.weather#WeatherGrpc" })).toThrow(/declares no protocol OpenAPI can describe/);
    for (const service of services.filter((s) => !grpcOnly.includes(s))) {
      expect(await openApiErrors(toOpenApi(model, { service: service.id, servers: ["http://127.0.0.1:8080"] })), service.id).toEqual([]);
    }
  });

  it("every corpus restJson1 service validates", async () => {
    if (!existsSync(AWS_TESTS)) {
      throw new Error(`conformance corpus not found at ${CORPUS}: the restJson1 models are needed (set ANVIL_CORPUS=DIR to point at it)`);
    }
    const { model } = loadModel({
      paths: [join(AWS_TESTS, "restJson1"), join(AWS_TESTS, "shared-types.smithy"), join(AWS_TESTS, "aws-config.smithy")],
    });
    const services = restJsonServices(model);
    expect(services.length).toBeGreaterThanOrEqual(3);
    const failures: Record<string, string[]> = {};
    for (const id of services) {
      const errors = await openApiErrors(toOpenApi(model, { service: id }));
      if (errors.length > 0) failures[id] = errors.slice(0, 20);
    }
    console.log(`OpenAPI: ${services.length - Object.keys(failures).length} of ${services.length} corpus restJson1 services validate (${services.join(", ")})`);
    expect(failures).toEqual({});
  });
});

describe("OpenAPI validation beyond restJson1", () => {
  const SMITHY_TESTS = join(CORPUS, "protocol-tests", "smithy-protocol-tests", "model");
  const ALLOY_TESTS = join(CORPUS, "protocol-tests", "alloy");
  it.each([
    ["awsJson1_0", [join(AWS_TESTS, "awsJson1_0"), join(AWS_TESTS, "shared-types.smithy"), join(AWS_TESTS, "aws-config.smithy")]],
    ["awsJson1_1", [join(AWS_TESTS, "awsJson1_1"), join(AWS_TESTS, "shared-types.smithy"), join(AWS_TESTS, "aws-config.smithy")]],
    ["rpcv2Cbor", [join(SMITHY_TESTS, "rpcv2Cbor"), join(SMITHY_TESTS, "shared-types.smithy")]],
    ["rpcv2Json", [join(SMITHY_TESTS, "rpcv2Json"), join(SMITHY_TESTS, "shared-types.smithy")]],
    ["simpleRestJson", [ALLOY_TESTS]],
  ])("every corpus %s service validates", async (_, paths) => {
    if (!existsSync(CORPUS)) throw new Error(`conformance corpus not found at ${CORPUS} (set ANVIL_CORPUS=DIR to point at it)`);
    const { model } = loadModel({ paths });
    const services = userServices(model).filter((s) => [...s.traits.keys()].some((t) => /#(awsJson1_[01]|rpcv2Cbor|rpcv2Json|simpleRestJson)$/.test(t)));
    expect(services.length).toBeGreaterThan(0);
    const failures: Record<string, string[]> = {};
    for (const service of services) {
      // alloy's PizzaAdminService routes `GET /headers/`: the trailing slash is the model's, and kept (a style rule, not validity).
      const errors = (await openApiErrors(toOpenApi(model, { service: service.id }))).filter(
        (e) => !(e.startsWith("no-path-trailing-slash:") && e.includes("/headers/")),
      );
      if (errors.length > 0) failures[service.id] = errors.slice(0, 10);
    }
    expect(failures).toEqual({});
  });
});
