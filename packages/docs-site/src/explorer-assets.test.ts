/**
 * Users' installs must not phone home: swagger-ui-dist depends on
 * @scarf/scarf, whose install script sends telemetry, so the explorer's
 * Swagger UI files ship inside this package (embedded in a module by the
 * build, which `turbo run test` runs first) and swagger-ui-dist is only a
 * devDependency.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { EXPLORER_ASSETS, SHIPPED_SWAGGER_UI_DIR } from "./explorer-assets.js";
import { explorerHandler } from "./index.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
const upstream = dirname(createRequire(join(root, "package.json")).resolve("swagger-ui-dist/package.json"));
const shipped = join(root, SHIPPED_SWAGGER_UI_DIR);
const INSTALLED_WITH_THE_PACKAGE = ["dependencies", "optionalDependencies", "peerDependencies"];

describe("the package's manifest", () => {
  it.each(["swagger-ui-dist", "@scarf/scarf"])("installs no %s for users", (name) => {
    for (const field of INSTALLED_WITH_THE_PACKAGE) expect(manifest[field]?.[name], `${field}.${name}`).toBeUndefined();
  });

  it("keeps swagger-ui-dist as a devDependency, pinned, to copy from at build", () => {
    expect(manifest.devDependencies?.["swagger-ui-dist"]).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe("the shipped Swagger UI", () => {
  it("embeds every file the explorer serves, byte for byte swagger-ui-dist's, in one module", async () => {
    const files = join(shipped, "files.js");
    expect(existsSync(files), `${SHIPPED_SWAGGER_UI_DIR}files.js (run the build first)`).toBe(true);
    const { SWAGGER_UI_FILES } = (await import(pathToFileURL(files).href)) as typeof import("#swagger-ui");
    expect(Object.keys(SWAGGER_UI_FILES).sort()).toEqual([...EXPLORER_ASSETS].sort());
    for (const name of EXPLORER_ASSETS) {
      const file = SWAGGER_UI_FILES[name]!;
      const bytes = "text" in file ? Buffer.from(file.text, "utf8") : Buffer.from(file.base64, "base64");
      expect(bytes.equals(readFileSync(join(upstream, name))), name).toBe(true);
    }
  });

  it("is imported by name, from the package's `imports` map: no file is read at run time", () => {
    expect((manifest as Record<string, unknown>).imports).toEqual({ "#swagger-ui": `./${SHIPPED_SWAGGER_UI_DIR}files.js` });
    const built = readFileSync(join(root, "dist", "index.js"), "utf8");
    expect(built).toContain('import("#swagger-ui")');
    expect(built).not.toMatch(/from "(?:node:)?fs(?:\/promises)?"|readFile/);
  });

  it("carries swagger-ui-dist's licence files and version", () => {
    for (const name of ["LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"].filter((n) => existsSync(join(upstream, n)))) {
      expect(readFileSync(join(shipped, name)).equals(readFileSync(join(upstream, name))), name).toBe(true);
    }
    expect(existsSync(join(shipped, "LICENSE"))).toBe(true);
    const { version } = JSON.parse(readFileSync(join(upstream, "package.json"), "utf8")) as { version: string };
    expect(readFileSync(join(shipped, "VERSION"), "utf8")).toBe(`${version}\n`);
    expect(readFileSync(join(shipped, "README.md"), "utf8")).toContain(`# Swagger UI ${version}`);
    expect(readFileSync(join(root, "README.md"), "utf8"), "the package's README").toContain(`Swagger UI ${version} (Apache-2.0)`);
  });

  it("is what the explorer serves, from the source and from the built module", async () => {
    const built = (await import(pathToFileURL(join(root, "dist", "index.js")).href)) as { explorerHandler: typeof explorerHandler };
    for (const handle of [explorerHandler(), built.explorerHandler()]) {
      for (const name of EXPLORER_ASSETS) {
        const response = await handle(new Request(`http://x/openapi/${name}`));
        expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(upstream, name))), name).toBe(true);
      }
    }
  });

  it("is never looked up in swagger-ui-dist at run time", () => {
    expect(readFileSync(join(root, "dist", "index.js"), "utf8")).not.toContain("swagger-ui-dist");
  });
});
