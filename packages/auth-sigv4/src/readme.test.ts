import { join } from "node:path";
import { runReadmeExample } from "@anvil/test-support";
import { expect, it } from "vitest";

it("the README's example runs and prints what it says", async () => {
  const { lines } = await runReadmeExample(join(import.meta.dirname, ".."));
  expect(lines[0]).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/notes\/aws4_request$/);
  expect(lines.slice(1)).toEqual([
    "hello",
    "createClient: example.notes#Notes signs getNote with aws.auth#sigv4, and no scheme for it is configured; pass auth: [sigv4({ region })] from @anvil/auth-sigv4",
  ]);
});
