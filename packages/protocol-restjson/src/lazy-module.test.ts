import { describe, expect, it } from "vitest";
import { lazyModule } from "./lazy-module.js";

describe("lazyModule", () => {
  it("imports once, however many callers wait, and is at hand once loaded", async () => {
    let imports = 0;
    const lazy = lazyModule(async () => ({ n: ++imports }));
    expect(lazy.current).toBeUndefined();
    const [a, b] = await Promise.all([lazy.load(), lazy.load()]);
    expect(a).toBe(b);
    expect(lazy.current).toBe(a);
    expect(await lazy.load()).toBe(a);
    expect(imports).toBe(1);
  });

  it("tries a failed import again on the next call (a chunk the network dropped)", async () => {
    let attempts = 0;
    const lazy = lazyModule(async () => {
      if (++attempts === 1) throw new TypeError("Failed to fetch dynamically imported module");
      return { ok: true };
    });
    await expect(lazy.load()).rejects.toThrow(/dynamically imported/);
    expect(lazy.current).toBeUndefined();
    expect(await lazy.load()).toEqual({ ok: true });
    expect(attempts).toBe(2);
  });
});
