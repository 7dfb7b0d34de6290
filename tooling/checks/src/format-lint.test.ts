import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..", "..");
const biome = join(root, "node_modules", ".bin", "biome");

const FIX = "fix it with `npx --yes pnpm@12.4.2 exec biome check --write .` (formatting and safe fixes), then by hand for what remains";

it("the repository is formatted and lint-clean (biome ci, configured in biome.jsonc)", () => {
  expect(existsSync(biome), `${biome} is missing; install the workspace first`).toBe(true);
  const result = spawnSync(biome, ["ci", ".", "--reporter=summary", "--colors=off"], { cwd: root, encoding: "utf8", timeout: 25_000 });
  expect(result.error).toBeUndefined();
  expect(result.status, `biome ci failed; ${FIX}:\n${result.stdout}${result.stderr}`).toBe(0);
});
