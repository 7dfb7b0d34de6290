import { defineConfig } from "tsup";

export default defineConfig({
  // The two default transports are entries of their own: package.json's `imports` picks one by condition.
  entry: ["src/index.ts", "src/node.ts", "src/waiters.ts", "src/default-transport.ts", "src/default-transport-node.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  // Resolved where the package is used, through package.json's `imports` (node:http on Node, fetch elsewhere).
  external: ["#default-transport"],
});
