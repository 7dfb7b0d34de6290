/**
 * The protocol suites against the corpus: the case counts of the corpus
 * README, the parts, the simpleRestJson borrowing, and the skip reasons per
 * registered implementation.
 */
import { describe, expect, it } from "vitest";
import type { ClientProtocol, ServerProtocol } from "@anvil/core";
import { chooseCorpus, isCorpus } from "../corpus.js";
import type { AppliesTo, TestKind } from "../protocol-tests/cases.js";
import { NOT_IMPLEMENTED, type ProtocolsUnderTest } from "../protocol-tests/under-test.js";
import { SUITES } from "../registry.js";
import { runSuites } from "../runner.js";
import {
  collectCases,
  partName,
  PROTOCOL_SUITE_CONFIGS,
  PROTOCOL_SUITES,
  protocolSuite,
  runCase,
  type CollectedCase,
  type ProtocolSuiteConfig,
} from "./protocol-suite.js";

const fakeClient = { id: "p#x" } as unknown as ClientProtocol;
const fakeServer = { id: "p#x" } as unknown as ServerProtocol;

describe("runCase", () => {
  const c = (side: "client" | "server", kind: TestKind = "request") => ({ name: "Case", side, testCase: { kind } }) as CollectedCase;
  it.each<[string, ProtocolsUnderTest, "client" | "server", TestKind, string]>([
    ["no implementation", new Map(), "client", "request", NOT_IMPLEMENTED],
    ["another protocol only", new Map([["q#y", { client: fakeClient }]]), "client", "request", NOT_IMPLEMENTED],
    ["server only, client case", new Map([["p#x", { server: fakeServer }]]), "client", "request", "no client implementation of p#x yet"],
    ["client only, server case", new Map([["p#x", { client: fakeClient }]]), "server", "request", "no server implementation of p#x yet"],
  ])("%s: skipped, %s", async (_label, protocols, side, kind, reason) => {
    expect(await runCase(c(side, kind), "p#x", protocols)).toEqual({ case: "Case", status: "skipped", reason });
  });

  it("runs a malformed case through the server's dispatcher (a protocol without routes fails it)", async () => {
    const result = await runCase(
      { ...c("server", "malformed"), model: undefined } as unknown as CollectedCase,
      "p#x",
      new Map([["p#x", { server: fakeServer }]]),
    );
    expect(result.status).toBe("failed");
  });

  it("reports a protocol that throws as a failed case, with the error", async () => {
    const protocols: ProtocolsUnderTest = new Map([["p#x", { client: fakeClient }]]);
    const result = await runCase({ ...c("client"), model: undefined } as unknown as CollectedCase, "p#x", protocols);
    expect(result.status).toBe("failed");
    expect(result.reason).toMatch(/Error/);
  });

  it.each<["client" | "server"]>([["client"], ["server"]])(
    "executes event-stream cases on the %s side (a protocol that throws fails the case)",
    async (side) => {
      const protocols: ProtocolsUnderTest = new Map([["p#x", { client: fakeClient, server: fakeServer }]]);
      const result = await runCase({ ...c(side, "eventstream"), model: undefined } as unknown as CollectedCase, "p#x", protocols);
      expect(result.status).toBe("failed");
      expect(result.reason).toMatch(/Error/);
    },
  );

  it("says which issue brings the protocols", () => {
    expect(NOT_IMPLEMENTED).toBe("protocol not implemented yet (issue 4)");
  });
});

describe("protocol suite registration", () => {
  it("registers every protocol suite after idl and models, with its parts", () => {
    expect(SUITES.map((s) => s.name)).toEqual(["idl", "models", "restJson1", "simpleRestJson", "awsJson1_0", "awsJson1_1", "rpcv2Cbor", "rpcv2Json", "grpc"]);
    const parts = Object.fromEntries(PROTOCOL_SUITES.map((s) => [s.name, s.parts.map((p) => p.name)]));
    const http = ["request/client", "request/server", "response/client", "response/server"];
    expect(parts).toEqual({
      restJson1: [...http, "malformed/server", "eventstream/client", "eventstream/server"],
      simpleRestJson: http,
      awsJson1_0: http,
      awsJson1_1: http,
      rpcv2Cbor: http,
      rpcv2Json: http,
    });
  });
});

const corpus = chooseCorpus(undefined, process.env, process.cwd());

/** Per suite and kind: the cases (each once) by appliesTo, both / client / server, from the corpus README. */
const README_SPLITS: Record<string, Partial<Record<TestKind, [number, number, number]>>> = {
  restJson1: { request: [120, 22, 17], response: [84, 24, 8], malformed: [0, 0, 655], eventstream: [64, 20, 16] },
  awsJson1_0: { request: [22, 7, 4], response: [21, 20, 2] },
  awsJson1_1: { request: [55, 2, 3], response: [44, 18, 1] },
  rpcv2Cbor: { request: [25, 6, 14], response: [27, 18, 2] },
  rpcv2Json: { request: [28, 6, 7], response: [31, 8, 2] },
};

/** Cases per part (a `both` case counts on each side). simpleRestJson: alloy's 23 / 20 plus the borrowed ones. */
const PART_COUNTS: Record<string, Record<string, number>> = {
  restJson1: {
    "request/client": 142,
    "request/server": 137,
    "response/client": 108,
    "response/server": 92,
    "malformed/server": 655,
    "eventstream/client": 84,
    "eventstream/server": 80,
  },
  simpleRestJson: { "request/client": 23 + 73, "request/server": 23 + 71, "response/client": 20 + 60, "response/server": 20 + 55 },
  awsJson1_0: { "request/client": 29, "request/server": 26, "response/client": 41, "response/server": 23 },
  awsJson1_1: { "request/client": 57, "request/server": 58, "response/client": 62, "response/server": 45 },
  rpcv2Cbor: { "request/client": 31, "request/server": 39, "response/client": 45, "response/server": 29 },
  rpcv2Json: { "request/client": 34, "request/server": 35, "response/client": 39, "response/server": 33 },
};

const configNamed = (name: string): ProtocolSuiteConfig => PROTOCOL_SUITE_CONFIGS.find((c) => c.name === name)!;

describe.skipIf(!isCorpus(corpus.path))(`protocol suites against ${corpus.path}`, () => {
  it("every part has the corpus's case count; every protocol is implemented, so none is skipped", async () => {
    const report = await runSuites(PROTOCOL_SUITES, corpus.path);
    const counts: Record<string, Record<string, number>> = {};
    for (const p of report.parts) {
      (counts[p.suite] ??= {})[p.part] = p.results.length;
      expect(p.counts.skipped, `${p.suite}/${p.part}`).toBe(0);
      expect(new Set(p.results.map((r) => r.case)).size, `${p.suite}/${p.part} case names are unique`).toBe(p.results.length);
    }
    expect(counts).toEqual(PART_COUNTS);
  });

  it.each(Object.entries(README_SPLITS))("%s: cases by appliesTo (both / client / server) as in the corpus README", (name, splits) => {
    const { cases, problems } = collectCases(configNamed(name), corpus.path);
    expect(problems).toEqual([]);
    const actual: Partial<Record<TestKind, [number, number, number]>> = {};
    const order: AppliesTo[] = ["both", "client", "server"];
    for (const c of new Set(cases.map((x) => x.testCase))) {
      const split = (actual[c.kind] ??= [0, 0, 0]);
      split[order.indexOf(c.appliesTo)]!++;
    }
    expect(actual).toEqual(splits);
  });

  it("restJson1: 191 malformed-request cases before testParameters expansion", () => {
    const { cases } = collectCases(configNamed("restJson1"), corpus.path);
    const bases = new Set(cases.flatMap((c) => (c.testCase.kind === "malformed" ? [c.testCase.expansion?.baseId ?? c.testCase.id] : [])));
    expect(bases.size).toBe(191);
    const expanded = cases.filter((c) => c.testCase.kind === "malformed" && c.testCase.expansion !== undefined);
    expect(expanded.every((c) => /_case\d+$/.test(c.name))).toBe(true);
    // No placeholder is left, and every `$$` became `$`.
    const leftovers = expanded.filter((c) => /\$[a-z{]|\$\$/.test(JSON.stringify({ ...c.testCase, testParameters: {} })));
    expect(leftovers.map((c) => c.name)).toEqual([]);
    const anchored = expanded.find((c) => c.name === "RestJsonMalformedPatternString_case0")!.testCase;
    expect(JSON.stringify(anchored)).toContain("pattern: ^[a-m]+$");
  });

  it("rpcv2Cbor takes its cases from both folders", () => {
    const { cases } = collectCases(configNamed("rpcv2Cbor"), corpus.path);
    const bySource: Record<string, number> = {};
    for (const c of new Set(cases.map((x) => `${x.source}\n${x.testCase.kind}\n${x.testCase.id}`))) {
      const key = c.split("\n").slice(0, 2).join(" ");
      bySource[key] = (bySource[key] ?? 0) + 1;
    }
    expect(bySource).toEqual({
      "smithy-protocol-tests/rpcv2Cbor request": 43,
      "smithy-protocol-tests/rpcv2Cbor response": 45,
      "smithy-aws-protocol-tests/rpcv2Cbor request": 2,
      "smithy-aws-protocol-tests/rpcv2Cbor response": 2,
    });
  });

  it("simpleRestJson: alloy's cases plus the borrowed restJson1 ones, per side and kind", () => {
    const { cases } = collectCases(configNamed("simpleRestJson"), corpus.path);
    const names = (kind: TestKind, side: string) => new Set(cases.filter((c) => c.testCase.kind === kind && c.side === side).map((c) => c.name));
    const alloy = cases.filter((c) => c.source === "alloy");
    expect(alloy.every((c) => c.testCase.protocol === "alloy#simpleRestJson" && !c.name.includes("/"))).toBe(true);
    const borrowed = cases.filter((c) => c.source !== "alloy");
    expect(borrowed.every((c) => c.testCase.protocol === "aws.protocols#restJson1" && c.name === `restJson1/${c.testCase.id}`)).toBe(true);
    // Allowed.
    expect(names("request", "client").has("restJson1/RestJsonAllQueryStringTypes")).toBe(true);
    // Allowed, but disallowed for server requests only.
    expect(names("request", "client").has("restJson1/RestJsonOmitsEmptyListQueryValues")).toBe(true);
    expect(names("request", "server").has("restJson1/RestJsonOmitsEmptyListQueryValues")).toBe(false);
    // Allowed by a glob that is also disallowed.
    expect([...names("request", "client")].some((n) => /^restJson1\/RestJsonInputAndOutputWith.*Headers$/.test(n))).toBe(false);
    // Disallowed (not in the allow list either).
    expect(names("request", "client").has("restJson1/RestJsonHttpPayloadTraitsWithBlob")).toBe(false);
    // Not listed.
    expect(names("request", "client").has("restJson1/MediaTypeHeaderInputBase64")).toBe(false);
  });

  it("skip reasons follow the registered implementations", async () => {
    const protocols: ProtocolsUnderTest = new Map([["aws.protocols#awsJson1_0", { client: fakeClient }]]);
    const suite = protocolSuite(configNamed("awsJson1_0"), protocols);
    const reasons: Record<string, string[]> = {};
    for (const part of suite.parts) reasons[part.name] = [...new Set((await part.run(corpus.path)).map((r) => r.reason!))];
    // The fake client has no methods: its cases run, and fail.
    expect(reasons["request/client"]!.every((r) => /not a function/.test(r))).toBe(true);
    expect(reasons["response/client"]!.every((r) => /not a function/.test(r))).toBe(true);
    expect(reasons).toMatchObject({
      "request/server": ["no server implementation of aws.protocols#awsJson1_0 yet"],
      "response/server": ["no server implementation of aws.protocols#awsJson1_0 yet"],
    });
  });

  it("reports a missing folder as a failed case in every part", async () => {
    const suite = protocolSuite({ ...configNamed("awsJson1_0"), name: "x" });
    const results = await suite.parts[0]!.run("/nonexistent-corpus");
    expect(results).toEqual([{ case: "(load smithy-aws-protocol-tests/awsJson1_0)", status: "failed", reason: expect.stringContaining("missing folder") }]);
    expect(partName("malformed", "server")).toBe("malformed/server");
  });
});
