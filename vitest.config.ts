// Every package's tests as one Vitest run, for `npm run test:fast` (each
// package's own config still applies; `npm test` runs them per package).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts", "tooling/*/vitest.config.ts"] },
});
