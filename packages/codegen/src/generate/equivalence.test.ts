/**
 * Generated schema constants must be the schemas `@anvil/dynamic` builds from
 * the same model, so codecs and protocols treat generated and dynamic
 * services alike. This imports the generated modules and compares every
 * schema reachable from each service, field by field.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ServiceSchema } from "@anvil/core";
import * as builders from "@anvil/core/codegen";
import { schemasFromModel } from "@anvil/dynamic";
import { servicePicture } from "./schema-picture.js";
import { EXAMPLE_MODEL, generateInto, loadOrThrow, RICH_MODEL, scratchDir } from "./test-support.js";

describe("generated schemas equal @anvil/dynamic's", () => {
  it.each([
    ["the example model", EXAMPLE_MODEL, { "example.weather#Weather": "weather.ts" }],
    ["the rich fixture", RICH_MODEL, { "test.store#Store": "store.ts", "test.other#Gadgets": "gadgets.ts" }],
  ])("for %s", async (_name, path, services: Record<string, string>) => {
    const model = loadOrThrow([path]);
    const dir = scratchDir("equivalence");
    generateInto(dir, model, { server: false });
    const dynamic = schemasFromModel(model);
    for (const [id, file] of Object.entries(services)) {
      const generated = (await import(join(dir, file))) as Record<string, unknown>;
      const descriptor = Object.values(generated).find((v): v is ServiceSchema => (v as ServiceSchema | undefined)?.kind === "service");
      expect(descriptor?.id).toBe(id);
      expect(servicePicture(descriptor!)).toStrictEqual(servicePicture(dynamic.service(id)));
    }
  });

  it("shares the core's prelude schemas and builds each declared schema once", async () => {
    const dir = scratchDir("identity");
    generateInto(dir, loadOrThrow([RICH_MODEL]), { server: false });
    const store = (await import(join(dir, "store.ts"))) as Record<string, any>;
    expect(store.PingOutputSchema.members[0].target).toBe(builders.boolean);
    expect(store.TreeSchema.members[1].target).toBe(store.ForestSchema);
    expect(store.ForestSchema.member.target).toBe(store.TreeSchema);
    expect(store.Store.operations.getItem.errors).toContain(store.NotFoundSchema);
    expect(new store.NotFound({ message: "gone" })).toBeInstanceOf(builders.errorClass(store.NotFoundSchema));
  });
});
