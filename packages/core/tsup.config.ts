import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/codegenv1.ts", "src/codegen.ts", "src/protocol.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
