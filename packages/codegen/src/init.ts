/**
 * `anvil init <dir>`: scaffolds a new service project (model, generator
 * config, handlers, server, test, scripts) from the templates that ship in
 * this package's `templates/init/` folder.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { kebabCase } from "./generate/names.js";
import { PACKAGE_ROOT } from "./version.js";

/** This package's root folder (`src/` and `dist/` both sit one level below it). */

/** The template folder of `anvil init`. */
export const INIT_TEMPLATES = join(PACKAGE_ROOT, "templates", "init");

/** The `@anvil` packages a scaffolded project depends on, by folder name under `packages/`. */
export const INIT_ANVIL_PACKAGES = ["client-core", "codegen", "core", "protocol-awsjson", "protocol-restjson", "protocol-rpcv2cbor", "server"] as const;

/** What to scaffold. */
export interface InitOptions {
  /** The project folder. */
  readonly dir: string;
  /** The service shape name (PascalCase). Default: the folder name in PascalCase. */
  readonly name?: string;
  /**
   * A local Anvil checkout (built): the `@anvil/*` dependencies become
   * `file:` specs to its `packages/*` folders instead of registry versions,
   * which npm installs as links.
   */
  readonly anvilFrom?: string;
}

/** A file of the scaffold: a path relative to the project folder and its text. */
export interface InitFile {
  /** Path relative to the project folder, `/`-separated (`model/service.smithy`). */
  readonly path: string;
  /** The file's contents, every placeholder filled in. */
  readonly text: string;
}

/** The scaffold, or why it cannot be made. */
export type InitPlan = { readonly ok: true; readonly service: string; readonly files: readonly InitFile[] } | { readonly ok: false; readonly error: string };

/** Smithy shape names the scaffold accepts as service names. */
const SERVICE_NAME = /^[A-Z][A-Za-z0-9]*$/;

/** `my-tasks_api` → `MyTasksApi`; undefined when nothing usable remains. */
export function pascalCase(text: string): string | undefined {
  const name = text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
  return SERVICE_NAME.test(name) ? name : undefined;
}

/** An npm package name for a folder name: lowercase, `[a-z0-9._-]`, never empty. */
function packageName(folder: string, service: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return name || kebabCase(service);
}

/** The manifest of one of this package's neighbours, or of this package itself. */
function readManifest(path: string): { name?: string; version?: string; devDependencies?: Record<string, string> } | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as { name?: string; version?: string; devDependencies?: Record<string, string> };
  } catch {
    return undefined;
  }
}

/**
 * The version of each `@anvil` package a scaffold depends on: the versions
 * installed beside this `anvil` (its own, and those of its dependencies),
 * so that a new project asks for the packages this generator was released
 * and tested with, each at its own version.
 */
export function anvilVersions(): ReadonlyMap<string, string> {
  const require = createRequire(import.meta.url);
  const versions = new Map<string, string>();
  for (const p of INIT_ANVIL_PACKAGES) {
    const manifest = p === "codegen" ? join(PACKAGE_ROOT, "package.json") : require.resolve(`@anvil/${p}/package.json`);
    const version = readManifest(manifest)?.version;
    if (version === undefined) throw new Error(`anvil init: no version in ${manifest}`);
    versions.set(p, version);
  }
  return versions;
}

/** Every template file under `root`, as paths relative to it, sorted. */
function templateFiles(root: string, sub = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, sub), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...templateFiles(root, path));
    else if (entry.name.endsWith(".tmpl")) files.push(path);
  }
  return files;
}

/** The output path of a template: `.tmpl` dropped; `gitignore` becomes `.gitignore` (npm drops dotfiles named so from packages). */
function outputPath(template: string): string {
  const path = template.slice(0, -".tmpl".length);
  return path === "gitignore" ? ".gitignore" : path;
}

/**
 * Plans the scaffold without touching the project folder: the files with
 * every `{{placeholder}}` filled in. Fails on a bad service name or an
 * `anvilFrom` that is not an Anvil checkout.
 */
export function planInit(options: InitOptions, templates = INIT_TEMPLATES): InitPlan {
  const dir = resolve(options.dir);
  const folder = basename(dir);
  const service = options.name ?? pascalCase(folder);
  if (service === undefined) {
    return { ok: false, error: `cannot derive a service name from the folder name \`${folder}\`; pass --name <ServiceName>` };
  }
  if (!SERVICE_NAME.test(service)) {
    return { ok: false, error: `--name must be a Smithy shape name in PascalCase (a capital letter, then letters and digits), not \`${service}\`` };
  }
  const own = readManifest(join(PACKAGE_ROOT, "package.json"));
  const specs = new Map<string, string>();
  if (options.anvilFrom === undefined) {
    for (const [p, version] of anvilVersions()) specs.set(p, `^${version}`);
  } else {
    const checkout = resolve(options.anvilFrom);
    for (const p of INIT_ANVIL_PACKAGES) {
      const folderOf = join(checkout, "packages", p);
      if (readManifest(join(folderOf, "package.json"))?.name !== `@anvil/${p}`) {
        return { ok: false, error: `--anvil-from ${options.anvilFrom}: not an Anvil checkout (no @anvil/${p} in ${join(checkout, "packages", p)})` };
      }
      specs.set(p, `file:${folderOf}`);
    }
  }
  const values = new Map<string, string>([
    ["Service", service],
    ["file", kebabCase(service)],
    ["namespace", `example.${service.toLowerCase()}`],
    ["shapes", `example.${service.toLowerCase()}.shapes`],
    ["package", packageName(folder, service)],
    [
      "anvilSpecs",
      options.anvilFrom === undefined
        ? "caret ranges of the versions the `anvil` that wrote this project was released with; `npm update` takes newer compatible releases"
        : `\`file:\` specs to the Anvil checkout at \`${resolve(options.anvilFrom)}\` (\`anvil init --anvil-from\`), which \`npm install\` links as they are: rebuild the checkout and this project sees the change`,
    ],
  ]);
  for (const [p, spec] of specs) values.set(`spec:${p}`, spec);
  for (const [dep, spec] of Object.entries(own?.devDependencies ?? {})) values.set(`dev:${dep}`, spec);

  const files: InitFile[] = [];
  for (const template of templateFiles(templates)) {
    const text = readFileSync(join(templates, template), "utf8").replace(/\{\{([^{}]+)\}\}/g, (whole, key: string) => {
      const value = values.get(key);
      if (value === undefined) throw new Error(`anvil init: template ${template} has an unknown placeholder ${whole}`);
      return value;
    });
    files.push({ path: outputPath(template), text });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { ok: true, service, files };
}

/** The entries of a folder, or an empty list when it does not exist; undefined when it is a file. */
function entriesOf(dir: string): string[] | undefined {
  if (!existsSync(dir)) return [];
  if (!statSync(dir).isDirectory()) return undefined;
  return readdirSync(dir);
}

/** The result of {@link writeInit}. */
export type InitResult = { readonly ok: true; readonly service: string; readonly written: readonly string[] } | { readonly ok: false; readonly error: string };

/**
 * Writes the scaffold into `options.dir` (created when missing). Refuses a
 * folder that has entries unless `force` is set; with `force` the
 * scaffold's files overwrite files of the same name and others are kept.
 */
export function writeInit(options: InitOptions & { readonly force?: boolean }): InitResult {
  const dir = resolve(options.dir);
  const entries = entriesOf(dir);
  if (entries === undefined) return { ok: false, error: `${options.dir} is a file, not a folder` };
  if (entries.length > 0 && !options.force) {
    const shown = entries.sort().slice(0, 5).join(", ") + (entries.length > 5 ? ", …" : "");
    return {
      ok: false,
      error: `${options.dir} is not empty (${shown}); pick a new folder, or pass --force to write the project's files into it (files of the same name are overwritten)`,
    };
  }
  const plan = planInit(options);
  if (!plan.ok) return plan;
  for (const f of plan.files) {
    const path = join(dir, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.text);
  }
  return { ok: true, service: plan.service, written: plan.files.map((f) => f.path) };
}
