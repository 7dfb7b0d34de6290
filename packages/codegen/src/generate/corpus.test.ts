/**
 * Real-world models: the Smithy and alloy protocol test models of the shared
 * conformance corpus (when it is present). Every service generates without
 * errors, type-checks, and its schemas equal `@anvil/dynamic`'s.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ServiceSchema } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { servicePicture } from "./schema-picture.js";
import { generateInto, loadOrThrow, PACKAGE_ROOT, scratchDir, typeCheck } from "./test-support.js";

const corpus = process.env.ANVIL_CORPUS || join(PACKAGE_ROOT, "..", "..", "..", "shared", "conformance");
const aws = join(corpus, "protocol-tests", "smithy-aws-protocol-tests", "model");
const smithy = join(corpus, "protocol-tests", "smithy-protocol-tests", "model");

function smithyFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => (statSync(join(dir, f)).isDirectory() ? smithyFiles(join(dir, f)) : f.endsWith(".smithy") ? [join(dir, f)] : []));
}

const suites: [string, () => string[]][] = [
  ["aws restJson1", () => [join(aws, "restJson1"), join(aws, "shared-types.smithy"), join(aws, "aws-config.smithy")]],
  ["aws awsJson1_0", () => [join(aws, "awsJson1_0"), join(aws, "shared-types.smithy"), join(aws, "aws-config.smithy")]],
  ["aws awsJson1_1", () => [join(aws, "awsJson1_1"), join(aws, "shared-types.smithy"), join(aws, "aws-config.smithy")]],
  ["smithy rpcv2Cbor", () => [join(smithy, "rpcv2Cbor"), join(smithy, "shared-types.smithy")]],
  ["alloy simpleRestJson", () => smithyFiles(join(corpus, "protocol-tests", "alloy"))],
];

describe.skipIf(!existsSync(aws))(`protocol test models of the corpus (skipped when ${corpus} is absent)`, () => {
  it.each(suites)("%s: generates, type-checks and matches dynamic schemas", async (_name, paths) => {
    const model = loadOrThrow(paths());
    const dir = scratchDir("corpus");
    const { files, events } = generateInto(dir, model, { client: true });
    expect(events.filter((e) => e.severity === "ERROR")).toEqual([]);
    expect(files.length).toBeGreaterThan(0);
    expect(typeCheck(files.map((f) => join(dir, f.path)))).toEqual([]);
    const dynamic = schemasFromModel(model);
    for (const f of files.filter((x) => !x.path.endsWith(".server.ts") && !x.path.endsWith(".client.ts"))) {
      const generated = (await import(join(dir, f.path))) as Record<string, unknown>;
      const descriptor = Object.values(generated).find((v): v is ServiceSchema => (v as ServiceSchema | undefined)?.kind === "service")!;
      expect(servicePicture(descriptor)).toStrictEqual(servicePicture(dynamic.service(f.service)));
    }
  }, 180_000);
});
