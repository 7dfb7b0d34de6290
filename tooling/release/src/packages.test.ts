/**
 * Every public package under packages/* as it would be published: its
 * manifest, the tarball `npm pack` makes of it, publint and attw on it, and
 * the packed files themselves, unpacked and loaded through import() and
 * require() with only the package's declared dependencies beside them.
 *
 * The slow steps (one `npm pack` for all, `npm publish --dry-run`, attw, the
 * loads) start together in beforeAll on a small pool of child processes;
 * each test awaits its own result.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { publint } from "publint";
import type { Message } from "publint";
import { formatMessage } from "publint/utils";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
const ROOT_LICENSE = readFileSync(join(ROOT, "LICENSE"));

type Deps = Readonly<Record<string, string>>;
interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly license?: string;
  readonly type?: string;
  readonly sideEffects?: unknown;
  readonly repository?: string | { readonly type?: string; readonly url?: string; readonly directory?: string };
  readonly engines?: Readonly<Record<string, string>>;
  readonly publishConfig?: { readonly access?: string };
  readonly exports?: unknown;
  /** Package-internal specifiers (`#name`), resolved by condition where the package is used. */
  readonly imports?: unknown;
  readonly bin?: string | Readonly<Record<string, string>>;
  readonly dependencies?: Deps;
  readonly devDependencies?: Deps;
  readonly peerDependencies?: Deps;
  readonly optionalDependencies?: Deps;
}

interface Pkg {
  readonly name: string;
  /** The folder from the repository root, `packages/core`. */
  readonly folder: string;
  readonly dir: string;
  readonly manifest: Manifest;
}

const WORKSPACE: readonly Pkg[] = readdirSync(join(ROOT, "packages"), { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(ROOT, "packages", e.name, "package.json")))
  .map((e) => {
    const folder = `packages/${e.name}`;
    const manifest = JSON.parse(readFileSync(join(ROOT, folder, "package.json"), "utf8")) as Manifest;
    return { name: manifest.name, folder, dir: join(ROOT, folder), manifest };
  })
  .sort((a, b) => (a.name < b.name ? -1 : 1));
const PUBLIC = WORKSPACE.filter((p) => p.manifest.private !== true);
const BY_NAME = new Map(WORKSPACE.map((p) => [p.name, p]));

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const;
/** What an installed package may import besides Node's built-ins and itself. */
const RUNTIME_FIELDS = ["dependencies", "peerDependencies", "optionalDependencies"] as const;

/**
 * Folders each package reads at run time, relative to its own folder. The
 * scan of the shipped code (runtimeReads) must find them too, so that a new
 * read cannot slip past the scan unnoticed while these stay listed.
 */
const KNOWN_RUNTIME_READS: ReadonlyMap<string, readonly string[]> = new Map([
  // @anvil/model embeds its prelude and bundled traits, and @anvil/docs-site Swagger UI, in modules: they read nothing.
  ["@anvil/codegen", ["templates"]],
]);

/**
 * The same reads, exercised: each script runs in the unpacked tarball (with
 * only the declared dependencies installed beside it) and throws when a file
 * it needs was not packed.
 */
const RUNTIME_PROBES: ReadonlyMap<string, { readonly title: string; readonly script: string }> = new Map([
  [
    "@anvil/model",
    {
      title: "loads the prelude and the bundled traits from the packed files",
      script: `
import { loadModel } from "@anvil/model";
const text = '$version: "2"\\nnamespace probe\\nuse aws.protocols#restJson1\\n@restJson1\\nservice Probe { version: "1" }\\n';
const { events } = loadModel({ sources: [{ file: "probe.smithy", text }] });
const errors = events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER");
if (errors.length > 0) throw new Error(JSON.stringify(errors, null, 2));
`,
    },
  ],
  [
    "@anvil/codegen",
    {
      title: "plans `anvil init` from the packed templates",
      script: `
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planInit } from "@anvil/codegen";
const templates = readdirSync(new URL("templates/init/", import.meta.url), { recursive: true }).filter((f) => f.endsWith(".tmpl"));
const plan = planInit({ dir: join(tmpdir(), "probe-service") });
if (!plan.ok) throw new Error(plan.error);
if (templates.length === 0 || plan.files.length !== templates.length) throw new Error(\`\${plan.files.length} files planned from \${templates.length} templates\`);
`,
    },
  ],
  [
    "@anvil/docs-site",
    {
      title: "serves the explorer's Swagger UI files from the packed module (the `#swagger-ui` import)",
      script: `
import { explorerHandler } from "@anvil/docs-site";
const handler = explorerHandler();
for (const name of ["swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"]) {
  const response = await handler(new Request("http://localhost/openapi/" + name));
  if (response.status !== 200 || (await response.arrayBuffer()).byteLength === 0) throw new Error(name + ": " + response.status);
}
`,
    },
  ],
]);

/**
 * Loads each entry point through require() first (so that require() has to
 * load the module graph itself, as a CommonJS caller's would), then through
 * import(), and prints the export names of both.
 */
const LOAD_PROBE = `
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const specifiers = JSON.parse(process.argv[2]);
const entries = {};
const failure = (e) => [e.code, e.message.split("\\n")[0]].filter(Boolean).join(": ");
for (const s of specifiers) {
  try { entries[s] = { required: Object.keys(require(s)).sort() }; }
  catch (e) { entries[s] = { requireError: failure(e) }; }
}
for (const s of specifiers) {
  try { entries[s].imported = Object.keys(await import(s)).sort(); }
  catch (e) { entries[s].importError = failure(e); }
}
process.stdout.write(JSON.stringify({ requireModule: process.features.require_module ?? null, entries }));
`;

// ---------------------------------------------------------------------------
// Manifest checks

const depsOf = (pkg: Pkg, fields: readonly (typeof DEPENDENCY_FIELDS)[number][]): [field: string, name: string, spec: string][] =>
  fields.flatMap((field) => Object.entries(pkg.manifest[field] ?? {}).map(([name, spec]): [string, string, string] => [field, name, spec]));

const repositoryOf = (pkg: Pkg) => (typeof pkg.manifest.repository === "object" ? pkg.manifest.repository : {});

function mostCommon(values: readonly (string | undefined)[]): string | undefined {
  const counts = new Map<string | undefined, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}
/** The repository URL the packages share (the most common one, so that the odd one out is the one that fails). */
const REPOSITORY_URL = mostCommon(PUBLIC.map((p) => repositoryOf(p).url));

/** Every string in a JSON value, with its path. */
function strings(value: unknown, path = ""): [path: string, value: string][] {
  if (typeof value === "string") return [[path, value]];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => strings(v, path ? `${path}.${k}` : k));
}

const MANIFEST_CHECKS: readonly [title: string, check: (pkg: Pkg) => void][] = [
  [
    "has a LICENSE byte-identical to the repository's",
    (pkg) => {
      const file = join(pkg.dir, "LICENSE");
      expect(existsSync(file), `${pkg.folder}/LICENSE is missing`).toBe(true);
      expect(readFileSync(file).equals(ROOT_LICENSE), `${pkg.folder}/LICENSE differs from the root LICENSE`).toBe(true);
    },
  ],
  ["has a README.md", (pkg) => expect(existsSync(join(pkg.dir, "README.md")), `${pkg.folder}/README.md is missing`).toBe(true)],
  ["is licensed Apache-2.0", (pkg) => expect(pkg.manifest.license).toBe("Apache-2.0")],
  [
    "is an ES module package that declares its side effects",
    (pkg) => {
      expect(pkg.manifest.type).toBe("module");
      const { sideEffects } = pkg.manifest;
      const declared = typeof sideEffects === "boolean" || (Array.isArray(sideEffects) && sideEffects.every((s) => typeof s === "string"));
      expect(declared, `sideEffects is ${JSON.stringify(sideEffects)}; want false or a list of files`).toBe(true);
    },
  ],
  [
    "names its own folder of the shared git repository",
    (pkg) => {
      expect(REPOSITORY_URL).toMatch(/^git\+https:\/\//);
      expect(pkg.manifest.repository).toEqual({ type: "git", url: REPOSITORY_URL, directory: pkg.folder });
    },
  ],
  [
    "names its bin targets without ./ (npm 11 drops such a bin at publish)",
    (pkg) => expect(binTargets(pkg.manifest).filter((t) => t.startsWith("./"))).toEqual([]),
  ],
  ["requires Node.js >=20.19", (pkg) => expect(pkg.manifest.engines?.node).toBe(">=20.19")],
  ["publishes with public access", (pkg) => expect(pkg.manifest.publishConfig?.access).toBe("public")],
  [
    "depends on other workspace packages by a caret range of their current version",
    (pkg) => {
      const wrong = depsOf(pkg, DEPENDENCY_FIELDS)
        .filter(([, name]) => name.startsWith("@anvil/") || BY_NAME.has(name))
        .flatMap(([field, name, spec]) => {
          const target = BY_NAME.get(name);
          if (target === undefined) return [`${field}.${name}: no such package in packages/*`];
          if (target.manifest.private === true) return [`${field}.${name}: a private package, which cannot be installed`];
          const want = `^${target.manifest.version}`;
          return spec === want ? [] : [`${field}.${name} is ${JSON.stringify(spec)}; want ${JSON.stringify(want)}`];
        });
      expect(wrong).toEqual([]);
    },
  ],
  [
    "has no workspace:, link: or file: specs",
    (pkg) => {
      const local = strings(pkg.manifest)
        .filter(([, value]) => /^(workspace|link|file):/.test(value))
        .map(([path, value]) => `${path}: ${value}`);
      expect(local).toEqual([]);
    },
  ],
];

// ---------------------------------------------------------------------------
// Tarball checks

interface Target {
  readonly subpath: string;
  readonly conditions: readonly string[];
  readonly path: string;
}

/** Every target of an `exports` field, with its subpath and conditions. */
function exportTargets(exports: unknown, keyPrefix = "."): Target[] {
  const out: Target[] = [];
  const walk = (value: unknown, subpath: string, conditions: readonly string[]): void => {
    if (typeof value === "string") out.push({ subpath, conditions, path: value });
    else if (Array.isArray(value)) for (const v of value) walk(v, subpath, conditions);
    else if (value !== null && typeof value === "object") {
      for (const [key, v] of Object.entries(value)) {
        if (key.startsWith(keyPrefix)) walk(v, key, conditions);
        else walk(v, subpath, [...conditions, key]);
      }
    }
  };
  walk(exports, keyPrefix, []);
  return out;
}

/** The targets of a manifest's `imports` (`#name` specifiers), by condition, as {@link exportTargets} lists exports. */
const importTargets = (manifest: Manifest): Target[] => exportTargets(manifest.imports, "#");

/** Whether a packed file is an exports or bin target; `*` in a subpath pattern stands for any non-empty text. */
function matchesTarget(target: string, file: string): boolean {
  const [head, ...rest] = packPath(target).split("*");
  if (rest.length === 0) return file === head;
  return new RegExp(`^${[head!, ...rest].map((part) => part.replace(/[.+?^$()|[\]{}\\]/g, "\\$&")).join(".+")}$`).test(file);
}

const binTargets = (m: Manifest): string[] => (typeof m.bin === "string" ? [m.bin] : Object.values(m.bin ?? {}));
const packPath = (path: string): string => path.replace(/^\.\//, "");

/** The package's entry points that hold code: `@anvil/core`, `@anvil/core/codegen`. */
const codeEntryPoints = (pkg: Pkg): string[] => [
  ...new Set(
    exportTargets(pkg.manifest.exports)
      .filter((t) => /\.[cm]?js$/.test(t.path))
      .map((t) => pkg.name + t.subpath.slice(1)),
  ),
];

/** Why a packed file should not be published, or undefined. */
function unwanted(path: string): string | undefined {
  if (/(^|\/)(\.vitest|\.turbo|\.test-out|coverage|node_modules)\//.test(path)) return "a tool's cache or output";
  if (/(^|\/)(__fixtures__|fixtures)\//.test(path)) return "a test fixture";
  // Tests are code (`*.test.ts`, `*.spec.js`, their maps and types); not
  // `*.test.ts.tmpl`, a template `anvil init` writes into a new project, nor
  // model's `traits/smithy.test.smithy`, the traits of the smithy.test namespace.
  if (/\.(test|spec)\.[cm]?[jt]sx?(\.map)?$/.test(path) || /\.(test|spec)\.d\.[cm]?ts$/.test(path)) return "a test";
  if (path.startsWith("src/") || (/\.[cm]?tsx?$/.test(path) && !/\.d\.[cm]?ts$/.test(path))) return "TypeScript source";
  if (/^(tsconfig[^/]*\.json|tsup\.config\.[^/]+|vitest\.config\.[^/]+|typedoc\.json)$/.test(path)) return "build configuration";
  if (path.endsWith(".tgz")) return "a tarball";
  return undefined;
}

const CODE = /\.[cm]?js$/;
const READS_BESIDE_ITSELF = /import\.meta\.(url|dirname|filename)|__dirname|__filename/;
const PATH_LITERAL = /(["'`])((?:\.\.?\/)*[\w@][\w.@-]*(?:\/[\w.@-]+)*\/?)\1/g;

/**
 * Paths of the package a shipped module may read at run time: in a module
 * that locates files beside itself (import.meta.url and friends), every
 * string literal that names a folder of the package, or a file below one
 * (`"prelude"`, `"../templates"`, `"dist/swagger-ui/"`). Deliberately
 * simple: it over-reports rather than misses, and the known reads are
 * asserted by name besides.
 */
function runtimeReads(pkg: Pkg, packed: Packed): string[] {
  const found = new Set<string>();
  for (const file of packed.files) {
    if (!CODE.test(file)) continue;
    const text = readFileSync(join(packed.root, file), "utf8");
    if (!READS_BESIDE_ITSELF.test(text)) continue;
    for (const [, , literal] of text.matchAll(PATH_LITERAL)) {
      const path = literal!.replace(/^(\.\.?\/)+/, "").replace(/\/$/, "");
      if (path === "" || path.startsWith("node_modules")) continue;
      const stat = statSync(join(pkg.dir, path), { throwIfNoEntry: false });
      if (stat?.isDirectory() || (stat?.isFile() && path.includes("/"))) found.add(path);
    }
  }
  return [...found].sort();
}

/** Files under a folder of the package, as tarball paths. */
function filesUnder(dir: string, path: string): string[] {
  return readdirSync(join(dir, path), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split("\\").join("/"));
}

const isBuiltin = (specifier: string): boolean => specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]!);
const packageNameOf = (specifier: string): string =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/** Bare specifiers of a shipped .js or .d.ts file (imports, re-exports, import types, dynamic imports, requires). */
const bareImports = (text: string): string[] =>
  ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => !s.startsWith(".") && !s.startsWith("/"));

// ---------------------------------------------------------------------------
// The slow steps, on a pool

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== "number") reject(error);
      else resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
    });
  });
}

function limiter(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= size) await new Promise<void>((go) => waiting.push(go));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
const limit = limiter(Math.min(8, Math.max(2, availableParallelism() + 1)));

let tmp = "";
const started = new Map<string, Promise<unknown>>();
/** Starts a step once; its failure is reported by the test that awaits it. */
function once<T>(key: string, start: () => Promise<T>): Promise<T> {
  let p = started.get(key) as Promise<T> | undefined;
  if (p === undefined) {
    p = start();
    p.catch(() => {});
    started.set(key, p);
  }
  return p;
}

interface Packed {
  readonly tarball: string;
  readonly files: ReadonlySet<string>;
  /** The tarball unpacked, with the package's declared dependencies linked into its node_modules. */
  readonly root: string;
}

interface NpmPack {
  readonly name: string;
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

/**
 * Packs every public package with one `npm pack <folder>...`: the tarballs
 * are the ones `npm pack` makes in each folder (the same packlist), for one
 * npm start instead of one per package.
 */
const packedAll = (): Promise<ReadonlyMap<string, NpmPack>> =>
  once("npm pack", () =>
    limit(async () => {
      // Absolute paths: npm reads `packages/core` as a GitHub repository.
      const dirs = PUBLIC.map((p) => p.dir);
      const npm = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", tmp, ...dirs], ROOT);
      if (npm.code !== 0) throw new Error(`npm pack ${dirs.join(" ")} failed:\n${npm.stderr}`);
      return new Map((JSON.parse(npm.stdout) as NpmPack[]).map((info) => [info.name, info]));
    }),
  );

const packed = (pkg: Pkg): Promise<Packed> =>
  once(`unpack ${pkg.name}`, async () => {
    const info = (await packedAll()).get(pkg.name);
    if (info === undefined) throw new Error(`npm pack made no tarball of ${pkg.name}`);
    const tarball = join(tmp, info.filename);
    const out = join(tmp, pkg.folder.replace("/", "-"));
    mkdirSync(out, { recursive: true });
    const tar = await limit(() => run("tar", ["-xzf", tarball, "-C", out], out));
    if (tar.code !== 0) throw new Error(`tar -xzf ${tarball} failed:\n${tar.stderr}`);
    const root = join(out, "package");
    for (const [, name] of depsOf(pkg, RUNTIME_FIELDS)) {
      const installed = join(pkg.dir, "node_modules", name);
      if (!existsSync(installed)) continue; // the load tests report it
      mkdirSync(dirname(join(root, "node_modules", name)), { recursive: true });
      symlinkSync(realpathSync(installed), join(root, "node_modules", name), "dir");
    }
    return { tarball, files: new Set(info.files.map((f) => f.path)), root };
  });

/**
 * What npm would change in the manifest on its way to the registry: npm
 * publish normalizes it and warns of each correction (a dropped bin among
 * them). Dry run and offline: nothing leaves the machine.
 */
const published = (pkg: Pkg) =>
  once(`npm publish ${pkg.name}`, () => limit(() => run("npm", ["publish", "--dry-run", "--offline", "--ignore-scripts", "--json"], pkg.dir)));

/** publint on the tarball itself: what it lints is what npm would publish. */
const linted = (pkg: Pkg) =>
  once(`publint ${pkg.name}`, async () => {
    const bytes = readFileSync((await packed(pkg)).tarball);
    const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    return publint({ pack: { tarball }, strict: true });
  });

interface AttwProblem {
  readonly kind: string;
  readonly entrypoint?: string;
  readonly resolutionKind?: string;
}
interface Attw {
  readonly exitCode: number;
  readonly types: unknown;
  readonly problems: readonly AttwProblem[];
}

const ATTW_CLI = (() => {
  const manifest = createRequire(import.meta.url).resolve("@arethetypeswrong/cli/package.json");
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> };
  return join(dirname(manifest), bin.attw!);
})();

const typechecked = (pkg: Pkg): Promise<Attw> =>
  once(`attw ${pkg.name}`, async () => {
    const { tarball } = await packed(pkg);
    return limit(async () => {
      const attw = await run(process.execPath, [ATTW_CLI, tarball, "--format", "json", "--profile", "esm-only"], tmp);
      if (attw.code !== 0 && attw.code !== 1) throw new Error(`attw ${tarball} failed (${attw.code}):\n${attw.stderr}`);
      const { analysis } = JSON.parse(attw.stdout) as { analysis: { types: unknown; problems?: AttwProblem[] } };
      return { exitCode: attw.code, types: analysis.types, problems: analysis.problems ?? [] };
    });
  });

interface Loaded {
  readonly requireModule: boolean | null;
  readonly entries: Readonly<Record<string, { required?: string[]; requireError?: string; imported?: string[]; importError?: string }>>;
  readonly stderr: string;
}

/** Runs a script as a module at the root of the unpacked tarball, so that the package's name refers to itself. */
async function runInPackage(pkg: Pkg, name: string, script: string, args: readonly string[] = []): Promise<Run> {
  const { root } = await packed(pkg);
  const file = join(root, `.anvil-${name}.mjs`);
  writeFileSync(file, script);
  return limit(() => run(process.execPath, [file, ...args], root));
}

const loaded = (pkg: Pkg): Promise<Loaded> =>
  once(`load ${pkg.name}`, async () => {
    const r = await runInPackage(pkg, "load", LOAD_PROBE, [JSON.stringify(codeEntryPoints(pkg))]);
    if (r.code !== 0) throw new Error(`loading ${pkg.name} failed:\n${r.stderr}`);
    return { ...(JSON.parse(r.stdout) as Omit<Loaded, "stderr">), stderr: r.stderr };
  });

const probed = (pkg: Pkg, script: string): Promise<Run> => once(`probe ${pkg.name}`, () => runInPackage(pkg, "probe", script));

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "anvil-packages-"));
  for (const pkg of PUBLIC) {
    void packed(pkg);
    void linted(pkg);
  }
  for (const pkg of PUBLIC) {
    void typechecked(pkg);
    void published(pkg);
    void loaded(pkg);
    const probe = RUNTIME_PROBES.get(pkg.name);
    if (probe) void probed(pkg, probe.script);
  }
});

afterAll(async () => {
  await Promise.allSettled(started.values());
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------

/** attw's esm-only profile: failures of the CommonJS resolutions are ignored (as in attw's own profiles.js). */
const ESM_ONLY_IGNORES = new Set(["node10", "node16-cjs"]);
const describeProblem = (p: AttwProblem): string => `${p.kind} at ${p.entrypoint ?? "(package)"} under ${p.resolutionKind ?? "every resolution"}`;

describe("what stays out of a tarball", () => {
  it.each([
    ["src/index.ts", "TypeScript source"],
    ["dist/index.test.js", "a test"],
    ["dist/codec.spec.d.ts", "a test"],
    [".vitest/results.json", "a tool's cache or output"],
    ["dist/.turbo/turbo-build.log", "a tool's cache or output"],
    ["fixtures/greeter.proto", "a test fixture"],
    ["tsconfig.build.json", "build configuration"],
    ["dist/index.d.ts", undefined],
    ["dist/index.js.map", undefined],
    ["templates/init/src/service.test.ts.tmpl", undefined],
    ["traits/smithy.test.smithy", undefined],
  ])("%s: %s", (path, why) => expect(unwanted(path)).toBe(why));
});

describe("matching an exports or bin target", () => {
  it.each([
    ["./dist/index.js", "dist/index.js", true],
    ["./dist/index.js", "dist/index.js.map", false],
    ["./dist/*.js", "dist/codecs/json.js", true],
    ["./dist/*.js", "dist/.js", false],
    ["./dist/(a).js", "dist/(a).js", true],
  ])("%s and %s: %s", (target, file, matches) => expect(matchesTarget(target, file)).toBe(matches));
});

it("finds the public packages", () => {
  expect(PUBLIC.map((p) => p.name)).toEqual(expect.arrayContaining(["@anvil/core", "@anvil/model", "@anvil/codegen", "@anvil/docs-site"]));
});

for (const pkg of PUBLIC) {
  describe(pkg.name, () => {
    describe("manifest", () => {
      for (const [title, check] of MANIFEST_CHECKS) it(title, () => check(pkg));
    });

    describe("tarball", () => {
      it("packs every exports and bin target", async () => {
        const { files } = await packed(pkg);
        const targets = [...exportTargets(pkg.manifest.exports).map((t) => t.path), ...binTargets(pkg.manifest)];
        expect(targets.length).toBeGreaterThan(0);
        const missing = targets.filter((t) => ![...files].some((f) => matchesTarget(t, f)));
        expect(missing).toEqual([]);
      });

      it("gives every code entry point a types (.d.ts) and a default condition", () => {
        // `default` rather than `import`: the one file serves import() and,
        // on Node >= 20.19, require() (see the load test below).
        const subpaths = new Map<string, Target[]>();
        for (const t of exportTargets(pkg.manifest.exports)) subpaths.set(t.subpath, [...(subpaths.get(t.subpath) ?? []), t]);
        const wrong = [...subpaths].flatMap(([subpath, targets]) => {
          if (targets.every((t) => !CODE.test(t.path) && !t.path.endsWith(".d.ts"))) return []; // ./package.json
          const types = targets.find((t) => t.conditions.at(-1) === "types");
          const fallback = targets.find((t) => t.conditions.at(-1) === "default");
          return [
            ...(types !== undefined && /\.d\.[cm]?ts$/.test(types.path) ? [] : [`${subpath}: no types condition with a .d.ts`]),
            ...(fallback !== undefined && CODE.test(fallback.path) ? [] : [`${subpath}: no default condition with a .js`]),
          ];
        });
        expect(wrong).toEqual([]);
      });

      if (binTargets(pkg.manifest).length > 0) {
        it("starts every bin with a node shebang", async () => {
          const { root } = await packed(pkg);
          for (const bin of binTargets(pkg.manifest)) {
            expect(readFileSync(join(root, bin), "utf8").split("\n", 1)[0], bin).toBe("#!/usr/bin/env node");
          }
        });
      }

      it("packs LICENSE, README.md and package.json", async () => {
        const { files } = await packed(pkg);
        expect(["LICENSE", "README.md", "package.json"].filter((f) => !files.has(f))).toEqual([]);
      });

      it("packs no tests, TypeScript sources, fixtures or tool caches", async () => {
        const { files } = await packed(pkg);
        const bad = [...files].flatMap((f) => {
          const why = unwanted(f);
          return why === undefined ? [] : [`${f}: ${why}`];
        });
        expect(bad).toEqual([]);
      });

      it("ships source maps that carry their sources", async () => {
        // src/ is not published, so a map that points at it without sourcesContent points at nothing.
        const { files, root } = await packed(pkg);
        const bare = [...files]
          .filter((f) => f.endsWith(".map"))
          .filter((f) => {
            const map = JSON.parse(readFileSync(join(root, f), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
            return map.sources.length !== map.sourcesContent?.length || map.sourcesContent.some((s) => typeof s !== "string");
          });
        expect(bare).toEqual([]);
      });

      it("packs every file it reads at run time", async () => {
        const p = await packed(pkg);
        const scanned = runtimeReads(pkg, p);
        const known = KNOWN_RUNTIME_READS.get(pkg.name) ?? [];
        expect(scanned, "the scan of the shipped code finds the known reads").toEqual(expect.arrayContaining([...known]));
        const missing = [...new Set([...scanned, ...known])].flatMap((path) => {
          const wanted = statSync(join(pkg.dir, path), { throwIfNoEntry: false })?.isDirectory() ? filesUnder(pkg.dir, path) : [path];
          if (wanted.length === 0) return [`${path}/: empty, or not built`];
          return wanted.filter((f) => !p.files.has(f));
        });
        expect(missing).toEqual([]);
      });

      it("imports only Node built-ins, its declared dependencies and exported subpaths of workspace packages", async () => {
        const { files, root } = await packed(pkg);
        const declared = new Set(depsOf(pkg, RUNTIME_FIELDS).map(([, name]) => name));
        const wrong = new Set<string>();
        for (const file of files) {
          if (!CODE.test(file) && !/\.d\.[cm]?ts$/.test(file)) continue;
          for (const specifier of bareImports(readFileSync(join(root, file), "utf8"))) {
            if (isBuiltin(specifier)) continue;
            if (specifier.startsWith("#")) {
              // The package's own `imports`: every target, whichever condition picks it, must be packed.
              const targets = importTargets(pkg.manifest).filter((t) => t.subpath === specifier);
              if (targets.length === 0) wrong.add(`${file}: ${specifier} (not in the package's imports)`);
              for (const t of targets)
                if (!files.has(packPath(t.path))) wrong.add(`${file}: ${specifier} [${t.conditions.join(", ")}] → ${t.path} (not packed)`);
              continue;
            }
            const name = packageNameOf(specifier);
            if (name !== pkg.name && !declared.has(name)) wrong.add(`${file}: ${specifier} (not a dependency)`);
            const target = BY_NAME.get(name);
            const subpath = `.${specifier.slice(name.length)}`;
            if (target !== undefined && !exportTargets(target.manifest.exports).some((t) => t.subpath === subpath)) {
              wrong.add(`${file}: ${specifier} (${name} exports no ${subpath})`);
            }
          }
        }
        expect([...wrong]).toEqual([]);
      });
    });

    it("publishes its manifest as written (npm publish --dry-run corrects nothing)", async () => {
      const r = await published(pkg);
      expect(r.code, r.stderr).toBe(0);
      const corrections = r.stderr.split("\n").filter((line) => /^npm warn publish/i.test(line) && !/requires you to be logged in/.test(line));
      expect(corrections).toEqual([]);
    });

    it("passes publint --strict", async () => {
      const { messages, pkg: manifest } = await linted(pkg);
      const text = (m: Message) => `${m.type} ${m.code}: ${formatMessage(m, manifest, { color: false }) ?? JSON.stringify(m.args)}`;
      const suggestions = messages.filter((m) => m.type === "suggestion");
      if (suggestions.length > 0) console.info(`publint suggestions for ${pkg.name}:\n${suggestions.map(text).join("\n")}`);
      expect(messages.filter((m) => m.type !== "suggestion").map(text)).toEqual([]);
    });

    it("has correct types under attw's esm-only profile", async () => {
      const attw = await typechecked(pkg);
      expect(attw.types, "attw found no types").toBeTruthy();
      expect(attw.problems.filter((p) => p.resolutionKind === undefined || !ESM_ONLY_IGNORES.has(p.resolutionKind)).map(describeProblem)).toEqual([]);
      expect(attw.exitCode).toBe(0);
    });

    it("resolves its types for require() callers too, where attw only notes that they load ESM", async () => {
      // Under node16-cjs attw reports CJSResolvesToESM ("ESM, dynamic import
      // only"): true of TypeScript's node16 mode, not of Node >= 20.19, which
      // require()s ES modules; TypeScript allows that from `module: nodenext`
      // (5.8) and `node20` (5.9).
      const attw = await typechecked(pkg);
      expect(attw.problems.filter((p) => p.resolutionKind === "node16-cjs" && p.kind !== "CJSResolvesToESM").map(describeProblem)).toEqual([]);
    });

    it("loads every entry point through require() with the same exports as import()", async () => {
      const { requireModule, entries, stderr } = await loaded(pkg);
      expect(requireModule, "require(esm) is off in this Node.js").toBe(true);
      const specifiers = codeEntryPoints(pkg);
      expect(Object.keys(entries).sort()).toEqual(specifiers.sort());
      for (const [specifier, e] of Object.entries(entries)) {
        expect(e.requireError, `require("${specifier}")`).toBeUndefined();
        expect(e.importError, `import("${specifier}")`).toBeUndefined();
        expect(e.imported?.length, `import("${specifier}") exports nothing`).toBeGreaterThan(0);
        expect(e.required, `require("${specifier}")`).toEqual(e.imported);
      }
      expect(stderr, "warnings while loading").toBe("");
    });

    const probe = RUNTIME_PROBES.get(pkg.name);
    if (probe !== undefined) {
      it(probe.title, async () => {
        const r = await probed(pkg, probe.script);
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
      });
    }
  });
}
