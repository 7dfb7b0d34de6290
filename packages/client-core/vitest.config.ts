import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The tests run the sources: `#default-transport` is Node's, as package.json's `imports` resolves it on Node.
  resolve: { alias: { "#default-transport": fileURLToPath(new URL("./src/default-transport-node.ts", import.meta.url)) } },
  test: { include: ["src/**/*.test.ts"], testTimeout: 30_000 },
});
