/**
 * The synthesizer on models no one wrote for it: every operation of every
 * service in the corpus protocol-test models gets a fake table whose
 * outputs (and error example contents) pass the model's validation and
 * serialize on every protocol the service declares.
 */
import { validateValue, type HttpResponse, type ServerProtocol, type StructSchema } from "@anvil/core";
import { fakeAnswer, isAsyncIterable } from "@anvil/core/protocol";
import { operationExamples, schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { rpcv2Json } from "@anvil/protocol-rpcv2json";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fakeOperation } from "./index.js";

const corpus = fileURLToPath(new URL("../../../../shared/conformance/protocol-tests/", import.meta.url));
const hasCorpus = existsSync(corpus);

const PROTOCOLS: ReadonlyMap<string, ServerProtocol> = new Map(
  [restJson1(), simpleRestJson(), awsJson1_0(), awsJson1_1(), rpcv2Cbor(), rpcv2Json()].map((p) => [p.server.id, p.server]),
);

function modelFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return modelFiles(path);
      return name.endsWith(".smithy") ? [path] : [];
    });
}

const aws = (sub: string) => join(corpus, "smithy-aws-protocol-tests/model", sub);
const SOURCES: Record<string, () => string[]> = {
  "aws restJson1": () => [...modelFiles(join(aws(""), "restJson1")), join(aws(""), "shared-types.smithy"), join(aws(""), "aws-config.smithy")],
  "aws awsJson1_0": () => [...modelFiles(join(aws(""), "awsJson1_0")), join(aws(""), "shared-types.smithy"), join(aws(""), "aws-config.smithy")],
  "aws awsJson1_1": () => [...modelFiles(join(aws(""), "awsJson1_1")), join(aws(""), "shared-types.smithy"), join(aws(""), "aws-config.smithy")],
  "aws rpcv2Cbor": () => [...modelFiles(join(aws(""), "rpcv2Cbor")), join(aws(""), "shared-types.smithy"), join(aws(""), "aws-config.smithy")],
  "smithy rpcv2Cbor": () => [
    ...modelFiles(join(corpus, "smithy-protocol-tests/model/rpcv2Cbor")),
    join(corpus, "smithy-protocol-tests/model/shared-types.smithy"),
  ],
  "smithy rpcv2Json": () => [
    ...modelFiles(join(corpus, "smithy-protocol-tests/model/rpcv2Json")),
    join(corpus, "smithy-protocol-tests/model/shared-types.smithy"),
  ],
  alloy: () => modelFiles(join(corpus, "alloy")),
};

async function drain(response: HttpResponse): Promise<void> {
  const body = response.body as unknown;
  if (isAsyncIterable(body)) for await (const _ of body) void _;
}

describe.skipIf(!hasCorpus)("fakes over the corpus protocol-test models", () => {
  it.each(Object.keys(SOURCES))("%s: every synthesized answer validates and serializes on each declared protocol", async (source) => {
    const { model } = loadModel({ paths: SOURCES[source]!() });
    const schemas = schemasFromModel(model);
    const problems: string[] = [];
    let answered = 0;
    for (const service of schemas.services()) {
      const protocols = service.protocols.map((id) => PROTOCOLS.get(id)).filter((p): p is ServerProtocol => p !== undefined);
      for (const [key, operation] of Object.entries(service.operations)) {
        const where = `${service.id} ${key}`;
        let table;
        try {
          table = fakeOperation(operation, operationExamples(model, model.getShape(operation.id)!));
        } catch (e) {
          problems.push(`${where}: ${(e as Error).message}`);
          continue;
        }
        const outputs = [table.output, ...table.examples.filter((e) => e.error === undefined).map((e) => e.output)];
        for (const output of outputs) {
          const answer = fakeAnswer(operation, { examples: [], output }, {}) as { output: unknown };
          const violations = validateValue(operation.output, answer.output as never);
          if (violations.length) problems.push(`${where}: output fails validation: ${JSON.stringify(violations)}`);
          for (const protocol of protocols) {
            try {
              const answer = fakeAnswer(operation, { examples: [], output }, {});
              await drain(await protocol.serializeResponse(operation, (answer as { output: unknown }).output, { service, labels: {} }));
              answered++;
            } catch (e) {
              problems.push(`${where} on ${protocol.id}: ${(e as Error).message}`);
            }
          }
        }
        for (const example of table.examples) {
          if (!example.error) continue;
          const schema = operation.errors.find((s) => s.id === example.error!.shapeId) as StructSchema | undefined;
          if (!schema) {
            problems.push(`${where}: error example names ${example.error.shapeId}, not an error of the operation`);
            continue;
          }
          const violations = validateValue(schema, example.error.content as never);
          if (violations.length) problems.push(`${where}: error content fails validation: ${JSON.stringify(violations)}`);
          for (const protocol of protocols) {
            const answer = fakeAnswer(operation, { examples: [example], output: {} }, example.input);
            const response = await protocol.serializeError(operation, (answer as { error: unknown }).error, { service, labels: {} });
            if (response.status < 400) problems.push(`${where} on ${protocol.id}: error example answered ${response.status}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(answered).toBeGreaterThan(0);
  });
});
