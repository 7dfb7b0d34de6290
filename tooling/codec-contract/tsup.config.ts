import { defineConfig } from "tsup";

// Built for the nightly fuzz bench (tooling/bench, plain JavaScript); the suite's tests import the sources.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: false,
  clean: true,
  sourcemap: true,
  target: "node20",
});
