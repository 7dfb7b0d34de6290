import { join } from "node:path";
import { runReadmeExample } from "@anvil/test-support";
import { expect, it } from "vitest";

it("the README's example runs and prints what it says", async () => {
  const { stdout, printed } = await runReadmeExample(join(import.meta.dirname, ".."));
  expect(stdout).toBe(printed);
});
