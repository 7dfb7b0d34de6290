import { defineConfig } from "vitest/config";

// The release tests pack, publish and install real packages: slow by nature, and
// each file owns the temp folders and servers it starts.
export default defineConfig({ test: { include: ["src/**/*.test.ts"], testTimeout: 600_000, hookTimeout: 600_000 } });
