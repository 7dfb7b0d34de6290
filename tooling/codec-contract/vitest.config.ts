import { defineConfig } from "vitest/config";

// The timeout is a hang guard: property tests share 2 CI cores with other packages.
export default defineConfig({ test: { include: ["src/**/*.test.ts"], testTimeout: 120_000 } });
