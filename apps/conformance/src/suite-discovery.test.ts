/**
 * Runs the `idl` and `models` suites against the corpus with a stand-in
 * loader, to check case discovery, pairing and the load options the suites
 * pass, independently of the real loader.
 */
import { basename } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { chooseCorpus, isCorpus } from "./corpus.js";

interface FakeEvent {
  severity: string;
  id: string;
  message: string;
  shapeId?: string;
}
const calls: { paths: string[]; bundledTraits?: boolean }[] = [];

vi.mock("@anvil/model", () => ({
  loadModel: (options: { paths: string[]; bundledTraits?: boolean }) => {
    calls.push(options);
    const events: FakeEvent[] = options.paths.some((p) => p.includes("/idl/invalid/"))
      ? [{ severity: "ERROR", id: "Model", message: "Syntax error at line 1, column 1: nope" }]
      : [];
    return { model: { paths: options.paths }, events };
  },
  modelToJsonAst: () => ({ smithy: "2.0", shapes: {} }),
  flattenMixins: (model: unknown) => model,
  formatEvent: (e: FakeEvent) => `${e.severity}: ${e.message} [${e.id}]`,
}));

const corpus = chooseCorpus(undefined, process.env, process.cwd());

describe.skipIf(!isCorpus(corpus.path))(`suite discovery (corpus ${corpus.path})`, () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it("idl: finds the README's case counts and loads the right files", async () => {
    const { idlSuite } = await import("./suites/idl-suite.js");
    const counts: Record<string, number> = {};
    const results: Record<string, { case: string; status: string }[]> = {};
    for (const part of idlSuite.parts) {
      results[part.name] = await part.run(corpus.path);
      counts[part.name] = results[part.name]!.length;
    }
    expect(counts).toEqual({
      valid: 62,
      flattened: 13,
      invalid: 181,
      "invalid-position": 181,
      "invalid-message": 181,
      errorfiles: 58,
    });
    // Every valid case loads its .smithy and its .json, each with __shared.json.
    const withShared = calls.filter((c) => c.paths.length === 2 && basename(c.paths[1]!) === "__shared.json");
    expect(withShared).toHaveLength(124);
    expect(withShared.filter((c) => c.paths[0]!.endsWith(".json"))).toHaveLength(62);
    // Like Smithy's own loader tests, the IDL cases load with the prelude only.
    expect(calls.every((c) => c.bundledTraits === false)).toBe(true);
    // The stand-in loader rejects every invalid file, so rejection passes everywhere.
    expect(results.invalid!.every((r) => r.status === "passed")).toBe(true);
    // Errorfiles that expect no events pass with a loader that reports none.
    expect(results.errorfiles!.filter((r) => r.status === "passed")).toHaveLength(4);
  });

  it("models: one case per protocol folder, with upstream traits and then with bundled ones", async () => {
    const { modelsSuite } = await import("./suites/models-suite.js");
    const names: string[] = [];
    for (const part of modelsSuite.parts) {
      for (const r of await part.run(corpus.path)) {
        names.push(`${part.name}/${r.case}`);
        expect(r.status).toBe("passed");
      }
    }
    const folders = (suffix: string) => [
      `smithy-aws-protocol-tests${suffix}/awsJson1_0`,
      `smithy-aws-protocol-tests${suffix}/awsJson1_1`,
      `smithy-aws-protocol-tests${suffix}/restJson1`,
      `smithy-aws-protocol-tests${suffix}/rpcv2Cbor`,
      `smithy-protocol-tests${suffix}/rpcv2Cbor`,
      `smithy-protocol-tests${suffix}/rpcv2Json`,
      `alloy${suffix}/alloy`,
    ];
    expect(names).toEqual([...folders(""), ...folders(" (bundled traits)")]);
    expect(calls.slice(0, 7).every((c) => c.bundledTraits === false)).toBe(true);
    expect(calls.slice(7).every((c) => c.bundledTraits === true)).toBe(true);
    expect(calls.slice(7).every((c) => c.paths.every((p) => !p.includes("/traits/")))).toBe(true);
    const restJson = calls[2]!.paths.map((p) => p.slice(corpus.path.length + 1));
    expect(restJson).toContain("protocol-tests/smithy-aws-protocol-tests/model/shared-types.smithy");
    expect(restJson).toContain("protocol-tests/smithy-aws-protocol-tests/model/aws-config.smithy");
    expect(restJson).toContain("traits/smithy-aws-traits/aws.protocols.smithy");
    expect(restJson).toContain("traits/smithy-validation-model/smithy.framework.validation.smithy");
    expect(restJson.some((p) => p.startsWith("protocol-tests/smithy-aws-protocol-tests/model/restJson1/"))).toBe(true);
    expect(restJson.some((p) => p.includes("/awsJson1_0/"))).toBe(false);
    const alloy = calls[6]!.paths.map((p) => p.slice(corpus.path.length + 1));
    expect(alloy).toContain("protocol-tests/alloy/test-config.json");
    expect(alloy).toContain("traits/alloy/restjson.smithy");
    expect(alloy).toContain("traits/smithy-protocol-test-traits/smithy.test.smithy");
    expect(alloy.some((p) => p.endsWith("manifest") || p.includes("smithy-aws-traits"))).toBe(false);
  });
});
