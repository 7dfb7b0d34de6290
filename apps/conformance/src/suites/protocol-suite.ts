/**
 * Protocol compliance suites: the `smithy.test` cases of the protocol-test
 * models, one part per test kind and side. Each case is run against the
 * protocol's implementation from the registry in
 * `protocol-tests/under-test.ts`; until one exists, the cases are reported as
 * skipped with the reason, so that the counts show up.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientProtocol, ServerProtocol } from "@anvil/core";
import type { Model, NodeValue } from "@anvil/model";
import { BORROWED_TESTS_METADATA, isBorrowed, parseBorrowedTests, type BorrowRules } from "../protocol-tests/borrowed.js";
import { extractProtocolTests, sidesOf, type EventStreamCase, type ProtocolTestCase, type Side, type TestKind } from "../protocol-tests/cases.js";
import { repairCase } from "../protocol-tests/repairs.js";
import { runClientCase, runServerCase } from "../protocol-tests/run-case.js";
import { runClientEventStreamCase, runServerEventStreamCase } from "../protocol-tests/run-event-stream-case.js";
import { runMalformedCase } from "../protocol-tests/run-malformed.js";
import { implementationFor, PROTOCOLS_UNDER_TEST, type ProtocolsUnderTest } from "../protocol-tests/under-test.js";
import { isDirectory, isFile, listFiles } from "../files.js";
import { loadProblem, tryLoad } from "../load.js";
import { isModelFile, modelFilesOf } from "../manifest.js";
import { describeError } from "../runner.js";
import { failed, passed, skipped, withRepairs, type CaseResult, type Suite, type SuitePart } from "../suite.js";
import { awsModel, smithyModel, TRAITS, traitFiles } from "./models-suite.js";

/** A part: the cases of one kind run on one side. */
export interface PartSpec {
  readonly kind: TestKind;
  readonly side: Side;
  readonly description: string;
}

/** Every part a protocol suite can have, in report order. */
export const PART_SPECS: readonly PartSpec[] = [
  { kind: "request", side: "client", description: "the client serializes the case's params into the expected request" },
  { kind: "request", side: "server", description: "the server deserializes the request into the case's params" },
  { kind: "response", side: "client", description: "the client deserializes the response into the case's params (output or error)" },
  { kind: "response", side: "server", description: "the server serializes the case's params (output or error) into the expected response" },
  { kind: "malformed", side: "server", description: "the server rejects the malformed request with the expected response" },
  { kind: "eventstream", side: "client", description: "the client writes and reads the case's event stream" },
  { kind: "eventstream", side: "server", description: "the server reads and writes the case's event stream" },
];

/** The part name of a kind and side: `request/client`, `malformed/server`, ... */
export function partName(kind: TestKind, side: Side): string {
  return `${kind}/${side}`;
}

/** A protocol-test model: its files, and which of its cases a suite takes. */
export interface CaseSource {
  /** Names the model in messages, e.g. `smithy-aws-protocol-tests/restJson1`. */
  readonly label: string;
  /** The folder that must exist (its absence is reported). */
  folder(corpus: string): string;
  /** Every file to load: the folder's models, their companions and the upstream trait models. */
  files(corpus: string): string[];
  /** The protocol id of the cases to take (others in the model are ignored). */
  readonly protocol: string;
  /** Further selection of a case run on one side (borrowed cases); default every case. */
  accept?(corpus: string, c: ProtocolTestCase, side: Side): boolean;
  /** The case name in reports; default the case id. */
  caseName?(c: ProtocolTestCase): string;
}

/** What a protocol suite is made of. */
export interface ProtocolSuiteConfig {
  /** Suite name, for `--suite`. */
  readonly name: string;
  readonly description: string;
  /** The protocol under test (its trait id): the implementation looked up in the registry. */
  readonly protocol: string;
  /** The kinds of cases the suite has; one part per kind and side. */
  readonly kinds: readonly TestKind[];
  readonly sources: readonly CaseSource[];
}

/** One case run on one side, ready to run. */
export interface CollectedCase {
  readonly name: string;
  readonly side: Side;
  readonly testCase: ProtocolTestCase;
  /** The model the case comes from (for its schemas and params). */
  readonly model: Model;
  readonly source: string;
}

/** Every case of a suite, and the problems (load or extraction) found while collecting them. */
export interface Collected {
  readonly cases: readonly CollectedCase[];
  /** Failed results, reported in every part: a broken model makes every part's counts wrong. */
  readonly problems: readonly CaseResult[];
}

/** A loaded protocol-test model, cached across suites (restJson1 is also simpleRestJson's). */
type Loaded = { readonly ok: true; readonly model: Model } | { readonly ok: false; readonly problem: string };
const loadCache = new Map<string, Loaded>();

function loadSource(files: string[]): Loaded {
  const key = files.join("\n");
  const cached = loadCache.get(key);
  if (cached) return cached;
  const outcome = tryLoad({ paths: files, bundledTraits: false });
  const problem = loadProblem(outcome);
  const loaded: Loaded = outcome.ok && problem === undefined ? { ok: true, model: outcome.model } : { ok: false, problem: problem ?? "" };
  loadCache.set(key, loaded);
  return loaded;
}

/** Loads a suite's sources and lists its cases, each once per side it applies to. */
export function collectCases(config: ProtocolSuiteConfig, corpus: string): Collected {
  const cases: CollectedCase[] = [];
  const problems: CaseResult[] = [];
  for (const source of config.sources) {
    const folder = source.folder(corpus);
    if (!isDirectory(folder)) {
      problems.push(failed(`(load ${source.label})`, `missing folder ${folder}`));
      continue;
    }
    let loaded: Loaded;
    try {
      loaded = loadSource(source.files(corpus));
    } catch (error) {
      loaded = { ok: false, problem: describeError(error) };
    }
    if (!loaded.ok) {
      problems.push(failed(`(load ${source.label})`, loaded.problem));
      continue;
    }
    const model = loaded.model;
    try {
      const extracted = extractProtocolTests(model);
      for (const p of extracted.problems) problems.push(failed(`(extract ${source.label}) ${p.shape}`, p.message));
      for (const c of extracted.cases) {
        if (c.protocol !== source.protocol || !config.kinds.includes(c.kind)) continue;
        for (const side of sidesOf(c)) {
          if (source.accept && !source.accept(corpus, c, side)) continue;
          cases.push({ name: source.caseName?.(c) ?? c.id, side, testCase: c, model, source: source.label });
        }
      }
    } catch (error) {
      problems.push(failed(`(select ${source.label})`, describeError(error)));
    }
  }
  const seen = new Set<string>();
  for (const c of cases) {
    const key = `${partName(c.testCase.kind, c.side)}\n${c.name}`;
    if (seen.has(key)) problems.push(failed(c.name, `duplicate case name in ${partName(c.testCase.kind, c.side)} (${c.source})`));
    seen.add(key);
  }
  return { cases, problems };
}

/**
 * The result of one case: request and response cases run against the
 * registered side of the protocol (after the generic repairs of
 * `protocol-tests/repairs.ts`, noted in the result), malformed-request cases
 * through the server's dispatcher (`run-malformed.ts`), event-stream cases in
 * `run-event-stream-case.ts`; skipped with the reason while the side is missing.
 */
export async function runCase(c: CollectedCase, protocol: string, protocols: ProtocolsUnderTest): Promise<CaseResult> {
  const impl = implementationFor(protocols, protocol, c.side);
  if (!impl.ok) return skipped(c.name, impl.reason);
  const testCase = c.testCase;
  if (testCase.kind === "eventstream") return runEventStream(c, testCase, impl.protocol);
  if (testCase.kind === "malformed") {
    try {
      const problems = await runMalformedCase(impl.protocol as ServerProtocol, c.model, testCase);
      return problems.length === 0 ? passed(c.name) : failed(c.name, problems.join("; "));
    } catch (error) {
      return failed(c.name, describeError(error));
    }
  }
  const { testCase: repaired, repairs } = repairCase(c.model, testCase, c.side);
  try {
    const problems =
      c.side === "client"
        ? await runClientCase(impl.protocol as ClientProtocol, c.model, repaired)
        : await runServerCase(impl.protocol as ServerProtocol, c.model, repaired);
    return withRepairs(problems.length === 0 ? passed(c.name) : failed(c.name, problems.join("; ")), repairs);
  } catch (error) {
    return withRepairs(failed(c.name, describeError(error)), repairs);
  }
}

/** An event-stream case run on its side. */
async function runEventStream(c: CollectedCase, testCase: EventStreamCase, protocol: ClientProtocol | ServerProtocol): Promise<CaseResult> {
  try {
    const problems =
      c.side === "client"
        ? await runClientEventStreamCase(protocol as ClientProtocol, c.model, testCase)
        : await runServerEventStreamCase(protocol as ServerProtocol, c.model, testCase);
    return problems.length === 0 ? passed(c.name) : failed(c.name, problems.join("; "));
  } catch (error) {
    return failed(c.name, describeError(error));
  }
}

/**
 * A protocol suite: one part per kind (of `config.kinds`) and side, the
 * sources loaded once per corpus and shared by the parts.
 */
export function protocolSuite(config: ProtocolSuiteConfig, protocols: ProtocolsUnderTest = PROTOCOLS_UNDER_TEST): Suite {
  const collected = new Map<string, Collected>();
  const collect = (corpus: string): Collected => {
    let c = collected.get(corpus);
    if (!c) {
      c = collectCases(config, corpus);
      collected.set(corpus, c);
    }
    return c;
  };
  const parts: SuitePart[] = PART_SPECS.filter((p) => config.kinds.includes(p.kind)).map((spec) => ({
    name: partName(spec.kind, spec.side),
    description: spec.description,
    async run(corpus: string): Promise<CaseResult[]> {
      const { cases, problems } = collect(corpus);
      const mine = cases.filter((c) => c.testCase.kind === spec.kind && c.side === spec.side);
      const results: CaseResult[] = [...problems];
      for (const c of mine) results.push(await runCase(c, config.protocol, protocols));
      return results;
    },
  }));
  return { name: config.name, description: config.description, parts };
}

// The corpus folders, with the same companions and upstream trait models as the `models` suite.

/** A `smithy-aws-protocol-tests/model/<folder>` source. */
export function awsSource(folder: string, protocol: string): CaseSource {
  return {
    label: `smithy-aws-protocol-tests/${folder}`,
    protocol,
    folder: (corpus) => join(awsModel(corpus), folder),
    files: (corpus) => [
      ...listFiles(join(awsModel(corpus), folder), isModelFile),
      join(awsModel(corpus), "shared-types.smithy"),
      join(awsModel(corpus), "aws-config.smithy"),
      ...traitFiles(corpus, TRAITS.aws, TRAITS.test, TRAITS.protocols, TRAITS.validation),
    ],
  };
}

/** A `smithy-protocol-tests/model/<folder>` source. */
export function smithySource(folder: string, protocol: string): CaseSource {
  return {
    label: `smithy-protocol-tests/${folder}`,
    protocol,
    folder: (corpus) => join(smithyModel(corpus), folder),
    files: (corpus) => [
      ...listFiles(join(smithyModel(corpus), folder), isModelFile),
      join(smithyModel(corpus), "shared-types.smithy"),
      ...traitFiles(corpus, TRAITS.test, TRAITS.protocols, TRAITS.validation),
    ],
  };
}

const alloyDir = (corpus: string): string => join(corpus, "protocol-tests", "alloy");

/** The alloy protocol tests (`protocol-tests/alloy`, its manifest). */
export const alloySource: CaseSource = {
  label: "alloy",
  protocol: "alloy#simpleRestJson",
  folder: alloyDir,
  files: (corpus) => [...modelFilesOf(alloyDir(corpus)), ...traitFiles(corpus, TRAITS.alloy, TRAITS.test)],
};

/** The rules of alloy's `test-config.json`, read once per corpus. */
const borrowCache = new Map<string, Map<string, BorrowRules>>();
function borrowRules(corpus: string): Map<string, BorrowRules> {
  let rules = borrowCache.get(corpus);
  if (!rules) {
    const file = join(alloyDir(corpus), "test-config.json");
    if (!isFile(file)) throw new Error(`missing ${file}`);
    const ast = JSON.parse(readFileSync(file, "utf8")) as { metadata?: Record<string, NodeValue> };
    rules = parseBorrowedTests(ast.metadata?.[BORROWED_TESTS_METADATA], `${file}: ${BORROWED_TESTS_METADATA}`);
    borrowCache.set(corpus, rules);
  }
  return rules;
}

/**
 * The restJson1 cases simpleRestJson borrows: those alloy's test-config.json
 * allows and does not disallow (per side and kind), named `restJson1/<id>`.
 */
export const borrowedRestJson1Source: CaseSource = {
  ...awsSource("restJson1", "aws.protocols#restJson1"),
  label: "smithy-aws-protocol-tests/restJson1 (borrowed)",
  accept(corpus, c, side) {
    const rules = borrowRules(corpus).get("aws.protocols#restJson1");
    return rules !== undefined && isBorrowed(rules, { id: c.id, kind: c.kind, side });
  },
  caseName: (c) => `restJson1/${c.id}`,
};

const HTTP_KINDS: readonly TestKind[] = ["request", "response"];

export const restJson1Config: ProtocolSuiteConfig = {
  name: "restJson1",
  description: "aws.protocols#restJson1 protocol compliance cases",
  protocol: "aws.protocols#restJson1",
  kinds: ["request", "response", "malformed", "eventstream"],
  sources: [awsSource("restJson1", "aws.protocols#restJson1")],
};

export const simpleRestJsonConfig: ProtocolSuiteConfig = {
  name: "simpleRestJson",
  description: "alloy#simpleRestJson: alloy's cases, plus the restJson1 cases its test-config.json borrows",
  protocol: "alloy#simpleRestJson",
  kinds: HTTP_KINDS,
  sources: [alloySource, borrowedRestJson1Source],
};

export const awsJson1_0Config: ProtocolSuiteConfig = {
  name: "awsJson1_0",
  description: "aws.protocols#awsJson1_0 protocol compliance cases",
  protocol: "aws.protocols#awsJson1_0",
  kinds: HTTP_KINDS,
  sources: [awsSource("awsJson1_0", "aws.protocols#awsJson1_0")],
};

export const awsJson1_1Config: ProtocolSuiteConfig = {
  name: "awsJson1_1",
  description: "aws.protocols#awsJson1_1 protocol compliance cases",
  protocol: "aws.protocols#awsJson1_1",
  kinds: HTTP_KINDS,
  sources: [awsSource("awsJson1_1", "aws.protocols#awsJson1_1")],
};

export const rpcv2CborConfig: ProtocolSuiteConfig = {
  name: "rpcv2Cbor",
  description: "smithy.protocols#rpcv2Cbor protocol compliance cases (Smithy's and the AWS query-compatible ones)",
  protocol: "smithy.protocols#rpcv2Cbor",
  kinds: HTTP_KINDS,
  sources: [smithySource("rpcv2Cbor", "smithy.protocols#rpcv2Cbor"), awsSource("rpcv2Cbor", "smithy.protocols#rpcv2Cbor")],
};

export const rpcv2JsonConfig: ProtocolSuiteConfig = {
  name: "rpcv2Json",
  description: "smithy.protocols#rpcv2Json protocol compliance cases",
  protocol: "smithy.protocols#rpcv2Json",
  kinds: HTTP_KINDS,
  sources: [smithySource("rpcv2Json", "smithy.protocols#rpcv2Json")],
};

/** Every protocol suite config, in run order. */
export const PROTOCOL_SUITE_CONFIGS: readonly ProtocolSuiteConfig[] = [
  restJson1Config,
  simpleRestJsonConfig,
  awsJson1_0Config,
  awsJson1_1Config,
  rpcv2CborConfig,
  rpcv2JsonConfig,
];

/** The protocol suites, with the registered implementations. */
export const PROTOCOL_SUITES: readonly Suite[] = PROTOCOL_SUITE_CONFIGS.map((c) => protocolSuite(c));
