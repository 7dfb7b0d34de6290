/** The README's example runs as written and prints what the README says it prints. */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");

it("runs the README's example", () => {
  const code = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
  const printed = /prints\n\n```text\n([\s\S]*?)```/.exec(readme)![1]!;
  // Written inside the package so that `@anvil/docs-site` (a self-reference) and its dependencies resolve.
  const file = fileURLToPath(new URL("../.readme-example.mjs", import.meta.url));
  writeFileSync(file, code);
  try {
    expect(execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 20_000 })).toBe(printed);
  } finally {
    rmSync(file, { force: true });
  }
});
