/**
 * alloy's `test-config.json`: which restJson1 cases simpleRestJson
 * implementations also run. Its metadata
 * `alloySimpleRestJsonBorrowedTests` maps a protocol id to an `allowList`
 * and a `disallowList` of rules `{ id, appliesTo?, testType?, why? }`, where
 * `id` is a glob (`*` matches any run of characters, `**` too). As alloy's
 * own runner reads them: a disallowed case never runs, otherwise an allowed
 * one does, and any other case is not borrowed.
 */
import type { NodeValue } from "@anvil/model";
import type { Side, TestKind } from "./cases.js";
import { asObject, optionalString, requiredString } from "./node-read.js";

/** One allow or disallow rule. */
export interface BorrowRule {
  /** Glob over case ids. */
  readonly id: string;
  /** Only cases run on this side. */
  readonly appliesTo?: Side;
  /** Only request or response cases. */
  readonly testType?: "request" | "response";
  /** Why (disallow rules). */
  readonly why?: string;
}

/** The rules for one borrowed protocol. */
export interface BorrowRules {
  readonly allowList: readonly BorrowRule[];
  readonly disallowList: readonly BorrowRule[];
}

/** The metadata key alloy's test-config.json uses. */
export const BORROWED_TESTS_METADATA = "alloySimpleRestJsonBorrowedTests";

/** The rules per borrowed protocol id, from the `alloySimpleRestJsonBorrowedTests` metadata value. */
export function parseBorrowedTests(metadata: NodeValue | undefined, where = BORROWED_TESTS_METADATA): Map<string, BorrowRules> {
  const out = new Map<string, BorrowRules>();
  if (metadata === undefined) return out;
  const byProtocol = asObject(metadata, where);
  for (const protocol of Object.keys(byProtocol)) {
    const rules = asObject(byProtocol[protocol], `${where}.${protocol}`);
    out.set(protocol, {
      allowList: readRules(rules["allowList"], `${where}.${protocol}.allowList`),
      disallowList: readRules(rules["disallowList"], `${where}.${protocol}.disallowList`),
    });
  }
  return out;
}

function readRules(value: NodeValue | undefined, where: string): BorrowRule[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`${where}: expected a list of rules`);
  return value.map((item, i) => {
    const w = `${where}[${i}]`;
    const obj = asObject(item, w);
    const appliesTo = optionalString(obj, "appliesTo", w);
    const testType = optionalString(obj, "testType", w);
    const why = optionalString(obj, "why", w);
    if (appliesTo !== undefined && appliesTo !== "client" && appliesTo !== "server") throw new Error(`${w}.appliesTo: "${appliesTo}"`);
    if (testType !== undefined && testType !== "request" && testType !== "response") throw new Error(`${w}.testType: "${testType}"`);
    return {
      id: requiredString(obj, "id", w),
      ...(appliesTo !== undefined ? { appliesTo } : {}),
      ...(testType !== undefined ? { testType } : {}),
      ...(why !== undefined ? { why } : {}),
    };
  });
}

/** A glob as a whole-string regular expression: `*` is any run of characters, the rest literal. */
export function globToRegExp(glob: string): RegExp {
  const parts = glob.split("*").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`, "s");
}

/** One case as the rules see it: its id, its kind and the side it runs on. */
export interface BorrowCandidate {
  readonly id: string;
  readonly kind: TestKind;
  readonly side: Side;
}

/** Whether a rule matches a case run on one side. */
export function ruleMatches(rule: BorrowRule, c: BorrowCandidate): boolean {
  return (
    globToRegExp(rule.id).test(c.id) && (rule.appliesTo === undefined || rule.appliesTo === c.side) && (rule.testType === undefined || rule.testType === c.kind)
  );
}

/** Whether a case run on one side is borrowed: allowed and not disallowed. */
export function isBorrowed(rules: BorrowRules, c: BorrowCandidate): boolean {
  if (rules.disallowList.some((r) => ruleMatches(r, c))) return false;
  return rules.allowList.some((r) => ruleMatches(r, c));
}
