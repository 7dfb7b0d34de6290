import { defineConfig } from "vitest/config";

// The scale-out test starts three instances of the example and nginx on loopback, and stops them, in about 15 s (up to a minute when other packages' tests share the cores).
export default defineConfig({ test: { include: ["src/**/*.test.ts"], testTimeout: 90_000, hookTimeout: 30_000 } });
