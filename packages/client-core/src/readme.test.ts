import { join } from "node:path";
import { runReadmeExample } from "@anvil/test-support";
import { expect, it } from "vitest";

it("the README's example runs and prints what it says", async () => {
  const { stdout } = await runReadmeExample(join(import.meta.dirname, ".."));
  expect(stdout).toContain("Paris {");
  expect(stdout).toContain("requestId: 'req-1'");
  expect(stdout).toContain("NoSuchCity: no city /cities/atlantis 404");
});
