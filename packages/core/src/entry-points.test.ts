/**
 * The package's three audiences get three entry points: applications the
 * root, generated code `codegenv1` (and its deprecated alias `codegen`),
 * protocol authors `protocol`. Each name has one home; the few that
 * generated code names are re-exported from `codegenv1` as the same objects.
 */
import { describe, expect, it } from "vitest";
import * as legacy from "./codegen.js";
import * as v1 from "./codegenv1.js";
import * as root from "./index.js";
import * as protocol from "./protocol.js";

describe("entry points", () => {
  it("`codegen` is `codegenv1` under its old name", () => {
    expect(Object.keys(legacy).sort()).toEqual(Object.keys(v1).sort());
    for (const key of Object.keys(v1)) expect((legacy as Record<string, unknown>)[key]).toBe((v1 as Record<string, unknown>)[key]);
  });

  it("the root and `protocol` share no name: the building blocks stay off the root", () => {
    expect(Object.keys(root).filter((key) => key in protocol)).toEqual([]);
  });

  it("`codegenv1` re-exports the root's values it names as the same objects (one BigDecimal, one errorClass)", () => {
    expect(v1.BigDecimal).toBe(root.BigDecimal);
    expect(v1.errorClass).toBe(root.errorClass);
    expect(Object.keys(v1).filter((key) => key in protocol)).toEqual([]);
  });
});
