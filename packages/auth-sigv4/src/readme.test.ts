import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

it("the README's example runs and prints what it says", async () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  // Inside the package, so that its dependencies resolve as they would in a user's project.
  const dir = join(root, ".vitest");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "readme-example.mjs");
  writeFileSync(file, example!);
  const { stdout } = await promisify(execFile)(process.execPath, [file], { timeout: 20_000 });
  const lines = stdout.split("\n").filter(Boolean);
  expect(lines[0]).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/notes\/aws4_request$/);
  expect(lines.slice(1)).toEqual([
    "hello",
    "createClient: example.notes#Notes signs getNote with aws.auth#sigv4, and no scheme for it is configured; pass auth: [sigv4({ region })] from @anvil/auth-sigv4",
  ]);
});
