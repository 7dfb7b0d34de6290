/**
 * The `@anvil/server` README's example runs as written and prints what the
 * README says it prints.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const readme = readFileSync(fileURLToPath(new URL("../../../packages/server/README.md", import.meta.url)), "utf8");

it("runs the server README's example", () => {
  const code = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
  const printed = /prints\n\n```text\n([\s\S]*?)```/.exec(readme)![1]!;
  // Written next to this package so that its dependencies resolve.
  const file = fileURLToPath(new URL("../.readme-example.mjs", import.meta.url));
  writeFileSync(file, code);
  try {
    expect(execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 20_000 })).toBe(printed);
  } finally {
    rmSync(file, { force: true });
  }
});
