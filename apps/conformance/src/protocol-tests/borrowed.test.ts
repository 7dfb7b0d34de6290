import { describe, expect, it } from "vitest";
import type { NodeValue } from "@anvil/model";
import { globToRegExp, isBorrowed, parseBorrowedTests, ruleMatches, type BorrowCandidate, type BorrowRule } from "./borrowed.js";

describe("globToRegExp", () => {
  it.each([
    ["Exact", "Exact", true],
    ["Exact", "ExactAndMore", false],
    ["Exact", "NotExact", false],
    ["Prefix*", "PrefixSuffix", true],
    ["Prefix*", "Prefix", true],
    ["Prefix**", "PrefixSuffix", true],
    ["A*Headers", "AWithDateHeaders", true],
    ["A*Headers", "AWithDateHeadersToo", false],
    ["Dots.are.literal", "DotsXareXliteral", false],
    ["(a)+", "(a)+", true],
  ])("%s matches %s: %s", (glob, id, expected) => {
    expect(globToRegExp(glob).test(id)).toBe(expected);
  });
});

describe("borrow rules", () => {
  const request = (id: string, side: "client" | "server"): BorrowCandidate => ({ id, kind: "request", side });
  it.each<[string, BorrowRule, BorrowCandidate, boolean]>([
    ["id only", { id: "X*" }, request("Xy", "server"), true],
    ["side matches", { id: "X", appliesTo: "server" }, request("X", "server"), true],
    ["side differs", { id: "X", appliesTo: "client" }, request("X", "server"), false],
    ["test type matches", { id: "X", testType: "request" }, request("X", "client"), true],
    ["test type differs", { id: "X", testType: "response" }, request("X", "client"), false],
    ["id differs", { id: "Y" }, request("X", "client"), false],
  ])("%s", (_label, rule, c, expected) => {
    expect(ruleMatches(rule, c)).toBe(expected);
  });

  const rules = parseBorrowedTests({
    "aws.protocols#restJson1": {
      allowList: [{ id: "Allowed*" }, { id: "Both" }],
      disallowList: [{ id: "Both", appliesTo: "server", testType: "request", why: "because" }, { id: "AllowedButNot" }],
    },
  } satisfies NodeValue).get("aws.protocols#restJson1")!;

  it.each<[string, BorrowCandidate, boolean]>([
    ["allowed", request("AllowedOne", "client"), true],
    ["allowed and disallowed", request("AllowedButNot", "client"), false],
    ["disallowed on the server only (server)", request("Both", "server"), false],
    ["disallowed on the server only (client)", request("Both", "client"), true],
    ["disallowed for requests only (response)", { id: "Both", kind: "response", side: "server" }, true],
    ["not listed", request("Other", "client"), false],
  ])("%s", (_label, c, expected) => {
    expect(isBorrowed(rules, c)).toBe(expected);
  });

  it("parses rules with their optional fields", () => {
    expect(rules.disallowList[0]).toEqual({ id: "Both", appliesTo: "server", testType: "request", why: "because" });
    expect(parseBorrowedTests(undefined).size).toBe(0);
  });

  it.each<[string, NodeValue, RegExp]>([
    ["a non-object", [], /expected an object/],
    ["a rule without id", { p: { allowList: [{}], disallowList: [] } }, /allowList\[0\]\.id: expected a string/],
    ["a bad appliesTo", { p: { allowList: [{ id: "x", appliesTo: "both" }] } }, /appliesTo: "both"/],
    ["a bad testType", { p: { allowList: [{ id: "x", testType: "malformed" }] } }, /testType: "malformed"/],
  ])("rejects %s", (_label, value, message) => {
    expect(() => parseBorrowedTests(value)).toThrow(message);
  });
});
