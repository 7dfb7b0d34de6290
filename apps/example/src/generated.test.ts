/**
 * The generated code is committed: regenerating it from the model
 * (`anvil generate`, settings in anvil.config.json) must change nothing.
 * When this fails, run `pnpm --filter @anvil/example generate` and commit.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, unlinkSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const app = join(import.meta.dirname, "..");
const cli = join(app, "node_modules", "@anvil", "codegen", "dist", "cli.js");

function anvil(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: app, encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe("generated code", () => {
  it("is what `anvil generate` makes of the model today", () => {
    const { status, output } = anvil("generate", "--check");
    expect(output).toContain("12 generated files are up to date");
    expect(status).toBe(0);
  });

  it("fails the check when a generated file is edited or missing", () => {
    const copy = mkdtempSync(join(tmpdir(), "anvil-example-generated-"));
    try {
      cpSync(join(app, "src", "generated"), copy, { recursive: true });
      appendFileSync(join(copy, "weather.ts"), "// edited by hand\n");
      unlinkSync(join(copy, "simple-weather.client.ts"));
      const { status, output } = anvil("generate", "--check", "--out", copy);
      expect(status).toBe(1);
      expect(output).toContain("weather.ts is out of date");
      expect(output).toContain("simple-weather.client.ts is out of date");
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
