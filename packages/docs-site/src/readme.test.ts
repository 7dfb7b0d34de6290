/** The README's example runs as written and prints what the README says it prints. */
import { join } from "node:path";
import { runReadmeExample } from "@anvil/test-support";
import { expect, it } from "vitest";

it("runs the README's example", async () => {
  // Run inside the package, so that `@anvil/docs-site` (a self-reference) and its dependencies resolve.
  const { stdout, printed } = await runReadmeExample(join(import.meta.dirname, ".."), { lang: "ts" });
  expect(stdout).toBe(printed);
});
