/**
 * The `@anvil/server` README's example runs as written and prints what the
 * README says it prints.
 */
import { join } from "node:path";
import { runReadmeExample } from "@anvil/test-support";
import { expect, it } from "vitest";

it("runs the server README's example", async () => {
  // Run from this package, whose dependencies include everything the example imports.
  const here = join(import.meta.dirname, "..");
  const { stdout, printed } = await runReadmeExample(here, { lang: "ts", readme: join(here, "..", "..", "packages", "server", "README.md") });
  expect(stdout).toBe(printed);
});
