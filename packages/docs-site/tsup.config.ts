import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "tsup";
import { EXPLORER_ASSETS, SHIPPED_SWAGGER_UI_DIR } from "./src/explorer-assets.js";

/**
 * Ships the Swagger UI files the explorer serves inside this package:
 * swagger-ui-dist is only a devDependency, because its dependency
 * @scarf/scarf sends telemetry from the installs of whoever installs it.
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
  for (const name of [...EXPLORER_ASSETS, ...licences, bundled]) await copyFile(join(from, name), join(to, name));
  await writeFile(join(to, "VERSION"), `${version}\n`);
  const readme = [
    `# Swagger UI ${version}`,
    "",
    `Files of [swagger-ui-dist](https://www.npmjs.com/package/swagger-ui-dist) ${version}, copied unchanged`,
    "when @anvil/docs-site was built; its API explorer serves them:",
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
  onSuccess: vendorSwaggerUi,
});
