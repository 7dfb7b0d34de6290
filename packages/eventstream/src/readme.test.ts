import { join } from "node:path";
import { runReadmeExample } from "@anvil/test-support";
import { expect, it } from "vitest";

it("the README's example runs and prints what it says", async () => {
  const { lines } = await runReadmeExample(join(import.meta.dirname, ".."));
  expect(lines).toEqual(["reading paris-1", "reading { station: 'paris-1', celsius: 21 }", "reading { station: 'paris-2', celsius: 19 }"]);
});
