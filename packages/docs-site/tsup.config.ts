import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "tsup";
import { EXPLORER_ASSETS, SHIPPED_SWAGGER_UI_DIR } from "./src/explorer-assets.js";

/**
 * Ships the Swagger UI files the explorer serves inside this package, as one
 * module (`dist/swagger-ui/files.js`, imported as `#swagger-ui` when the
 * explorer first serves a file): nothing is read from disk at run time, so the
 * explorer works on Workers and from a one-file bundle. swagger-ui-dist is
 * only a devDependency, because its dependency @scarf/scarf sends telemetry
 * from the installs of whoever installs it.
 */
async function vendorSwaggerUi(): Promise<void> {
  const root = dirname(fileURLToPath(import.meta.url));
  const from = dirname(createRequire(join(root, "package.json")).resolve("swagger-ui-dist/package.json"));
  const to = join(root, SHIPPED_SWAGGER_UI_DIR);
  const { version } = JSON.parse(await readFile(join(from, "package.json"), "utf8")) as { version: string };
  const licences = ["LICENSE", "NOTICE"].filter((name) => existsSync(join(from, name)));
  // Lists the licences of the libraries bundled into swagger-ui-bundle.js, which the bundle's first line points to.
  const bundled = "swagger-ui-bundle.js.LICENSE.txt";
  await mkdir(to, { recursive: true });
  for (const name of [...licences, bundled]) await copyFile(join(from, name), join(to, name));
  const files: string[] = [];
  for (const name of EXPLORER_ASSETS) {
    const bytes = await readFile(join(from, name));
    const text = /\.(?:css|js)$/.test(name) ? bytes.toString("utf8") : undefined;
    // Text as it is (it is UTF-8 that decodes to itself); binary files in base64.
    const entry =
      text !== undefined && Buffer.from(text, "utf8").equals(bytes) ? `{ text: ${JSON.stringify(text)} }` : `{ base64: "${bytes.toString("base64")}" }`;
    files.push(`  ${JSON.stringify(name)}: ${entry},`);
  }
  await writeFile(
    join(to, "files.js"),
    `// The Swagger UI ${version} files the explorer serves, embedded by @anvil/docs-site's build.\nexport const SWAGGER_UI_FILES = {\n${files.join("\n")}\n};\n`,
  );
  await writeFile(join(to, "VERSION"), `${version}\n`);
  const readme = [
    `# Swagger UI ${version}`,
    "",
    `Files of [swagger-ui-dist](https://www.npmjs.com/package/swagger-ui-dist) ${version}, embedded unchanged`,
    "into files.js when @anvil/docs-site was built; its API explorer serves them:",
    "",
    ...EXPLORER_ASSETS.map((name) => `- ${name}`),
    "",
    `Swagger UI is licensed under the Apache License 2.0 (${licences.join(", ")}).`,
    `${bundled} lists the licences of the libraries bundled into swagger-ui-bundle.js.`,
    "",
  ];
  await writeFile(join(to, "README.md"), readme.join("\n"));
}

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  // Written by the build itself (below); resolved through package.json's `imports` where the package is used.
  external: ["#swagger-ui"],
  onSuccess: vendorSwaggerUi,
});
