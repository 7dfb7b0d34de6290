import { defineConfig } from "vitest/config";

// Each file starts the runtimes it needs on loopback and stops them; starting Deno and workerd takes a moment.
export default defineConfig({ test: { include: ["src/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000 } });
