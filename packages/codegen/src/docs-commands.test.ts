import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { docsCommand, openapiCommand } from "./commands.js";

const weatherModel = join(import.meta.dirname, "__fixtures__", "weather");

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

function modelFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "anvil-docs-cli-"));
  const file = join(dir, "model.smithy");
  writeFileSync(file, text);
  return file;
}

const NO_PROTOCOL = `$version: "2.0"
namespace ex

service Quiet {
    version: "1"
}
`;

const TWO_SERVICES = `$version: "2.0"
namespace ex

use aws.protocols#restJson1

@restJson1
service A { version: "1" }

@restJson1
service B { version: "2" }
`;

describe("anvil openapi", () => {
  it("writes the OpenAPI 3.1 document of a service", () => {
    const out = join(mkdtempSync(join(tmpdir(), "anvil-openapi-")), "nested", "openapi.json");
    const { io, out: lines } = capture();
    expect(openapiCommand(parseArgs(["openapi", "--model", weatherModel, "--out", out]), io)).toBe(0);
    const document = JSON.parse(readFileSync(out, "utf8")) as { openapi: string; info: { version: string }; paths: object };
    expect([document.openapi, document.info.version]).toEqual(["3.1.0", "2024-06-01"]);
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
    expect(lines.join("\n")).toContain("✓ wrote the OpenAPI 3.1 document");
  });

  it("prints the document without --out", () => {
    const { io, out } = capture();
    expect(openapiCommand(parseArgs(["openapi", "--model", weatherModel]), io)).toBe(0);
    expect(JSON.parse(out.join("\n")).openapi).toBe("3.1.0");
  });

  it("names the service's file:line:col when it declares no protocol", () => {
    const file = modelFile(NO_PROTOCOL);
    const { io, err } = capture();
    expect(openapiCommand(parseArgs(["openapi", "--model", file]), io)).toBe(1);
    expect(err.join("\n")).toMatch(/model\.smithy:4:1: error: openapi: ex#Quiet declares no protocol OpenAPI can describe/);
  });

  it("asks for --service when the model has several, and takes a shape name", () => {
    const file = modelFile(TWO_SERVICES);
    const { io, err } = capture();
    expect(openapiCommand(parseArgs(["openapi", "--model", file]), io)).toBe(1);
    expect(err.join("\n")).toContain("the model has 2 services (ex#A, ex#B); name one with --service");
    const picked = capture();
    expect(openapiCommand(parseArgs(["openapi", "--model", file, "--service", "B"]), picked.io)).toBe(0);
    expect(JSON.parse(picked.out.join("\n")).info.version).toBe("2");
  });

  it("prints model errors with their location and writes nothing", () => {
    const file = modelFile(`$version: "2.0"\nnamespace ex\nstructure {\n`);
    const out = join(mkdtempSync(join(tmpdir(), "anvil-openapi-")), "openapi.json");
    const { io, err } = capture();
    expect(openapiCommand(parseArgs(["openapi", "--model", file, "--out", out]), io)).toBe(1);
    expect(err.join("\n")).toMatch(/model\.smithy:3:\d+: error:/);
    expect(existsSync(out)).toBe(false);
  });

  it("needs a model", () => {
    const { io, err } = capture();
    expect(openapiCommand(parseArgs(["openapi"]), io)).toBe(2);
    expect(err.join("\n")).toContain("no model given");
  });
});

describe("anvil docs", () => {
  it("writes the reference site", () => {
    const out = mkdtempSync(join(tmpdir(), "anvil-site-"));
    const { io, out: lines } = capture();
    expect(docsCommand(parseArgs(["docs", "--model", weatherModel, "--out", out]), io)).toBe(0);
    const index = readFileSync(join(out, "index.html"), "utf8");
    expect(index).toContain("2024-06-01");
    for (const asset of ["assets/style.css", "assets/search.js", "assets/search-index.js"]) expect(existsSync(join(out, asset)), asset).toBe(true);
    expect(lines.join("\n")).toMatch(/✓ wrote the reference site to .*: \d+ files/);
  });

  it("needs --out", () => {
    const { io, err } = capture();
    expect(docsCommand(parseArgs(["docs", "--model", weatherModel]), io)).toBe(2);
    expect(err.join("\n")).toContain("pass --out <dir>");
  });
});
