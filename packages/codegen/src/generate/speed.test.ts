import { describe, expect, it } from "vitest";
import { loadModel } from "@anvil/model";
import { generate } from "./generate.js";
import { syntheticModel } from "./large-model.js";

describe("generation speed", () => {
  // Figures live in `pnpm bench codegen`; this only guards against hangs and blow-ups.
  it("generates a 400 KB model without hanging", () => {
    const text = syntheticModel(400_000);
    const started = performance.now();
    const { model, events } = loadModel({ sources: [{ file: "large.smithy", text }] });
    expect(events.filter((e) => e.severity === "ERROR")).toEqual([]);
    const { files } = generate(model, { client: true });
    const ms = performance.now() - started;
    expect(files.map((f) => f.path)).toEqual(["bench.codegen.shapes.ts", "large.ts", "large.server.ts", "large.client.ts"]);
    expect(files[1]!.text).toContain("export const Large: ServiceSchema<LargeOperations> = ");
    expect(ms).toBeLessThan(20_000);
  }, 60_000);
});
