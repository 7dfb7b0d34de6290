import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAnvil, USAGE } from "./index.js";

const root = mkdtempSync(join(tmpdir(), "create-anvil-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe("npm create anvil", () => {
  it("writes the project anvil init writes, and says what to do next with npm", () => {
    const { io, out } = capture();
    const dir = join(root, "order-desk");
    expect(createAnvil([dir], io)).toBe(0);
    expect(out.join("\n")).toContain("✓ created the OrderDesk service in");
    expect(out.join("\n")).toContain("Next steps:");
    expect(out.join("\n")).toContain("  npm install\n  npm start");
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; devDependencies: Record<string, string> };
    expect(pkg.name).toBe("order-desk");
    expect(pkg.devDependencies["@anvil/codegen"]).toMatch(/^\^\d+\.\d+\.\d+/);
    expect(existsSync(join(dir, "model", "service.smithy"))).toBe(true);
  });

  it("passes --name on", () => {
    const { io, out } = capture();
    expect(createAnvil([join(root, "x"), "--name", "Ledger"], io)).toBe(0);
    expect(out.join("\n")).toContain("✓ created the Ledger service in");
  });

  it.each([[[]], [["--name", "Ledger"]]])("asks for a folder when given %j", (argv) => {
    const { io, err } = capture();
    expect(createAnvil(argv, io)).toBe(2);
    expect(err).toEqual([`error: no folder given\n${USAGE}`]);
  });

  it("prints its usage for --help", () => {
    const { io, out } = capture();
    expect(createAnvil(["--help"], io)).toBe(0);
    expect(out).toEqual([USAGE]);
  });
});
