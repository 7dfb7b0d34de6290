import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALLOWED, anvilImports, checkLayering, workspacePackages } from "./layering.js";

const root = join(import.meta.dirname, "..", "..", "..");

describe("layering", () => {
  it("finds the workspace packages", () => {
    const names = workspacePackages(root).map((p) => p.name);
    expect(names).toContain("@anvil/model");
    expect(names).toContain("@anvil/codegen");
  });

  it("no package imports one it may not", () => {
    const violations = checkLayering(root).map((v) => `${v.where}: ${v.pkg} imports ${v.imported}`);
    expect(violations).toEqual([]);
  });

  it("puts service customizations on core alone, like client-core", () => {
    expect(ALLOWED["@anvil/aws-customizations"]).toEqual(["@anvil/core"]);
    const pkg = workspacePackages(root).find((p) => p.name === "@anvil/aws-customizations");
    expect(pkg?.dependencies).toEqual(["@anvil/core"]);
  });

  it("gives event streams and SigV4 packages of their own on core, so core and client-core stay free of them", () => {
    expect(ALLOWED["@anvil/eventstream"]).toEqual(["@anvil/core"]);
    // SigV4 signs and checks event streams message by message, on eventstream's frames.
    expect(ALLOWED["@anvil/auth-sigv4"]).toEqual(["@anvil/core", "@anvil/eventstream"]);
    expect(ALLOWED["@anvil/protocol-restjson"]).toEqual(["@anvil/core", "@anvil/codec-json", "@anvil/eventstream"]);
    const deps = (name: string) => workspacePackages(root).find((p) => p.name === name)?.dependencies;
    expect(deps("@anvil/core")).toEqual([]);
    // JMESPath is for waiters alone, loaded only by the `@anvil/client-core/waiters` entry point
    // (tooling/release/src/waiter-bundle.test.ts: a program that does not wait does not bundle it).
    expect(deps("@anvil/client-core")).toEqual(["@anvil/core", "@jmespath-community/jmespath"]);
    // Frames are written and read by eventstream itself, so that it bundles for Workers and browsers without Node built-ins.
    expect(deps("@anvil/eventstream")).toEqual(["@anvil/core"]);
    expect(deps("@anvil/auth-sigv4")).toEqual(["@anvil/core", "@anvil/eventstream", "@aws-sdk/credential-provider-node", "@smithy/signature-v4"]);
  });

  it("keeps OpenTelemetry in a package of its own, on core and the OpenTelemetry API (a peer), which server and client-core never load", () => {
    expect(ALLOWED["@anvil/opentelemetry"]).toEqual(["@anvil/core"]);
    const deps = (name: string) => workspacePackages(root).find((p) => p.name === name)?.dependencies;
    expect(deps("@anvil/opentelemetry")).toEqual(["@anvil/core", "@opentelemetry/api"]);
    for (const name of ["@anvil/server", "@anvil/client-core", "@anvil/core"]) expect(deps(name)?.some((d) => d.startsWith("@opentelemetry/"))).toBe(false);
  });

  it.each([
    [`import { a } from "@anvil/core";`, ["@anvil/core"]],
    [`import type { A } from "@anvil/core/codegen";`, ["@anvil/core"]],
    [`export { x } from '@anvil/model';`, ["@anvil/model"]],
    [`const m = await import("@anvil/server");`, ["@anvil/server"]],
    [`import "@anvil/fakes";`, ["@anvil/fakes"]],
    [`import { readFileSync } from "node:fs";`, []],
  ])("reads imports from %s", (text, expected) => {
    expect(anvilImports(text)).toEqual(expected);
  });
});

describe("layering check", () => {
  it("reports a package importing one it may not, and a package missing from the table", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const fake = mkdtempSync(join(tmpdir(), "anvil-layering-"));
    const pkg = (dir: string, name: string, deps: Record<string, string>, source: string) => {
      mkdirSync(join(fake, dir, "src"), { recursive: true });
      writeFileSync(join(fake, dir, "package.json"), JSON.stringify({ name, dependencies: deps }));
      writeFileSync(join(fake, dir, "src", "index.ts"), source);
    };
    pkg("packages/core", "@anvil/core", {}, `import { loadModel } from "@anvil/model";`);
    pkg("packages/server", "@anvil/server", { "@anvil/protocol-restjson": "workspace:*" }, `export {};`);
    pkg("packages/mystery", "@anvil/mystery", {}, `export {};`);
    const found = checkLayering(fake).map((v) => `${v.pkg} -> ${v.imported}`);
    expect(found).toEqual([
      "@anvil/core -> @anvil/model",
      "@anvil/mystery -> (package missing from the layering table)",
      "@anvil/server -> @anvil/protocol-restjson",
    ]);
  });
});
