import { describe, expect, it } from "vitest";
import { resolveSettings } from "./settings.js";

describe("resolveSettings", () => {
  it("gives equal settings the same resolved object, and a settings object the same answer again", () => {
    const a = Object.freeze({ useJsonName: true, strict: true });
    const first = resolveSettings(a);
    expect(resolveSettings(a)).toBe(first);
    expect(resolveSettings({ strict: true, useJsonName: true })).toBe(first);
    expect(first).toMatchObject({ useJsonName: true, strict: true, maxDepth: 128 });
    expect(resolveSettings(undefined)).not.toBe(first);
  });
});
