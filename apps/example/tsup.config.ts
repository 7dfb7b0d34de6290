import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/main.ts", "src/demo.ts"],
  format: ["esm"],
  dts: false,
  clean: true,
  sourcemap: true,
  target: "node20",
});
