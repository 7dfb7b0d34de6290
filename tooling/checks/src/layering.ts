import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Which `@anvil/*` packages each package may import (DEVELOPERS.md, layering).
 * A package missing from this table fails the check until its place is decided.
 */
export const ALLOWED: Record<string, readonly string[]> = {
  "@anvil/model": [],
  "@anvil/core": [],
  "@anvil/codec-json": ["@anvil/core"],
  "@anvil/codec-cbor": ["@anvil/core"],
  "@anvil/protocol-restjson": ["@anvil/core", "@anvil/codec-json", "@anvil/eventstream"],
  "@anvil/protocol-awsjson": ["@anvil/core", "@anvil/codec-json", "@anvil/eventstream"],
  "@anvil/protocol-rpcv2cbor": ["@anvil/core", "@anvil/codec-cbor", "@anvil/eventstream"],
  "@anvil/protocol-rpcv2json": ["@anvil/core", "@anvil/codec-json"],
  "@anvil/protocol-grpc": ["@anvil/core"],
  // Event streams (framing, events to messages) for every protocol that uses them.
  "@anvil/eventstream": ["@anvil/core"],
  "@anvil/client-core": ["@anvil/core"],
  "@anvil/server": ["@anvil/core"],
  "@anvil/fakes": ["@anvil/core"],
  // An auth scheme implements core's AuthScheme; client-core takes it as a value.
  // SigV4 signs (and checks) event streams message by message: the frames are eventstream's.
  "@anvil/auth-sigv4": ["@anvil/core", "@anvil/eventstream"],
  // Service customizations are request customizations over core's protocol interfaces.
  "@anvil/aws-customizations": ["@anvil/core"],
  // OpenTelemetry over @opentelemetry/api (a peer): what it returns are server request hooks and
  // client attempt hooks, typed structurally, so it needs neither @anvil/server nor client-core, and
  // neither of them knows of it.
  "@anvil/opentelemetry": ["@anvil/core"],
  "@anvil/dynamic": ["@anvil/core", "@anvil/model"],
  // The OpenAPI document gives `@pattern`s as validation reads them (core's Java-syntax rewrite).
  "@anvil/docs-site": ["@anvil/model", "@anvil/core"],
  // The generator runs at build time: it takes its schema traits from dynamic's mapping (one
  // source of truth) and its runtime value types from core. What it emits imports only
  // @anvil/core, but the client file, whose paginators and waiters call @anvil/client-core
  // (and its /waiters entry) as a client's program does anyway (codegen's generate.test.ts
  // checks every generated file's imports).
  // `anvil generate --fakes` builds fake tables with @anvil/fakes (the same ones `anvil serve --fake`
  // answers from); `anvil serve` runs a server (@anvil/server) on every protocol package; `anvil proto`
  // emits .proto files with protocol-grpc's emitter (the same layout its codec uses). `anvil init`
  // writes each @anvil package's version as installed beside it, client-core's too. `anvil serve
  // --sigv4` verifies signatures with auth-sigv4's verifier.
  "@anvil/codegen": [
    "@anvil/model",
    "@anvil/docs-site",
    "@anvil/dynamic",
    "@anvil/core",
    "@anvil/fakes",
    "@anvil/server",
    "@anvil/protocol-restjson",
    "@anvil/protocol-awsjson",
    "@anvil/protocol-rpcv2cbor",
    "@anvil/protocol-rpcv2json",
    "@anvil/protocol-grpc",
    "@anvil/client-core",
    "@anvil/auth-sigv4",
  ],
  // `npm create anvil` is `anvil init` and nothing else.
  "create-anvil": ["@anvil/codegen"],
  // Apps sit on top and may use any package.
  "@anvil/conformance": ["*"],
  "@anvil/example": ["*"],
};

/** One package of the workspace: its name, folder and declared dependencies. */
export interface WorkspacePackage {
  readonly name: string;
  readonly dir: string;
  readonly dependencies: readonly string[];
}

/** A layering violation, named for a person to fix. */
export interface Violation {
  readonly pkg: string;
  readonly where: string;
  readonly imported: string;
}

/** Lists the packages under `packages/` and `apps/`. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const out: WorkspacePackage[] = [];
  for (const group of ["packages", "apps"]) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) {
      const manifest = join(base, name, "package.json");
      if (!existsSync(manifest)) continue;
      const json = JSON.parse(readFileSync(manifest, "utf8")) as { name: string; dependencies?: object; peerDependencies?: object };
      out.push({
        name: json.name,
        dir: join(base, name),
        dependencies: [...Object.keys(json.dependencies ?? {}), ...Object.keys(json.peerDependencies ?? {})],
      });
    }
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      if (entry === "node_modules" || entry === "dist" || entry.startsWith(".")) continue;
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|mts|js|mjs)$/.test(entry) && !/\.test\.ts$/.test(entry)) out.push(path);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g;

/** The `@anvil/*` package names a source text imports (subpaths reduced to the package). */
export function anvilImports(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? "";
    const hit = /^(@anvil\/[^/]+)/.exec(spec);
    if (hit) out.add(hit[1]!);
  }
  return [...out];
}

function allowed(pkg: string, imported: string): boolean {
  const rule = ALLOWED[pkg];
  if (!rule) return false;
  return rule.includes("*") || rule.includes(imported) || imported === pkg;
}

/** Checks declared dependencies and source imports of every workspace package against {@link ALLOWED}. */
export function checkLayering(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const pkg of workspacePackages(root)) {
    if (!ALLOWED[pkg.name]) {
      violations.push({ pkg: pkg.name, where: relative(root, pkg.dir), imported: "(package missing from the layering table)" });
      continue;
    }
    for (const dep of pkg.dependencies) {
      if (dep.startsWith("@anvil/") && !allowed(pkg.name, dep)) {
        violations.push({ pkg: pkg.name, where: `${relative(root, pkg.dir)}/package.json`, imported: dep });
      }
    }
    for (const file of sourceFiles(join(pkg.dir, "src"))) {
      for (const imported of anvilImports(readFileSync(file, "utf8"))) {
        if (!allowed(pkg.name, imported)) violations.push({ pkg: pkg.name, where: relative(root, file), imported });
      }
    }
  }
  return violations;
}
