/**
 * The public API of every published package, as API Extractor reports it
 * from the built declarations, compared with the reports checked in under
 * each package's `etc/` folder. Any change of what a package exports (a
 * name, a signature, a type) shows up as a diff of those files: a change of
 * the public contract is always a reviewed change.
 *
 * After a deliberate change, rewrite the reports and review the diff:
 *
 *     UPDATE_API_REPORTS=1 npx vitest run src/api-reports.test.ts
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from "@microsoft/api-extractor";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
const UPDATE = process.env.UPDATE_API_REPORTS === "1";
const scratch = mkdtempSync(join(tmpdir(), "anvil-api-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Entry {
  /** `@anvil/core` or `@anvil/core/codegen`. */
  readonly specifier: string;
  readonly dir: string;
  /** The built declarations of the entry point. */
  readonly types: string;
  /** The report's file name: `core.api.md`, `core-codegen.api.md`. */
  readonly report: string;
}

/** Every export entry point (with types) of every public package. */
function entries(): Entry[] {
  const out: Entry[] = [];
  for (const folder of readdirSync(join(ROOT, "packages")).sort()) {
    const dir = join(ROOT, "packages", folder);
    if (!existsSync(join(dir, "package.json"))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; private?: boolean; exports?: Record<string, unknown> };
    if (manifest.private) continue;
    for (const [key, target] of Object.entries(manifest.exports ?? {})) {
      const types = typeof target === "object" && target !== null ? (target as { types?: string }).types : undefined;
      if (types === undefined) continue;
      const sub = key === "." ? "" : `-${key.slice(2).replace(/\//g, "-")}`;
      out.push({ specifier: key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`, dir, types: join(dir, types), report: `${folder}${sub}.api.md` });
    }
  }
  return out;
}

/** API Extractor's report of one entry point, and what it had to say beyond the report. */
function report(entry: Entry): { text: string; problems: string[] } {
  const out = join(scratch, entry.report.replace(/\.api\.md$/, ""));
  mkdirSync(out, { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: entry.dir,
      mainEntryPointFilePath: entry.types,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            lib: ["ES2023", "DOM"],
            types: ["node"],
            strict: true,
            skipLibCheck: true,
          },
          files: [entry.types],
        },
      },
      apiReport: { enabled: true, reportFileName: entry.report, reportFolder: out, reportTempFolder: out },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: "lf",
      messages: {
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
        extractorMessageReporting: {
          default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
          // Release tags (@public, @beta) are not how Anvil marks its surface: the entry points are.
          "ae-missing-release-tag": { logLevel: ExtractorLogLevel.None },
        },
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      },
    },
    configObjectFullPath: join(entry.dir, "api-extractor.json"),
    packageJsonFullPath: join(entry.dir, "package.json"),
  });
  const problems: string[] = [];
  Extractor.invoke(config, {
    localBuild: true,
    messageCallback: (message: ExtractorMessage) => {
      message.handled = true;
      if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning)
        problems.push(message.formatMessageWithLocation(entry.dir));
    },
  });
  return { text: readFileSync(join(out, entry.report), "utf8"), problems };
}

describe("API reports", () => {
  const all = entries();

  it("covers every entry point of every public package", () => {
    expect(all.length).toBeGreaterThanOrEqual(22);
    expect(all.map((e) => e.specifier)).toEqual(expect.arrayContaining(["@anvil/core", "@anvil/core/codegen", "@anvil/server/node", "create-anvil"]));
  });

  it.each(all.map((e) => [e.specifier, e] as const))("%s matches its checked-in report", (_, entry) => {
    expect(existsSync(entry.types), `${entry.types} is missing: build the package first`).toBe(true);
    const { text, problems } = report(entry);
    // Declarations that do not compile are a broken package, not a report to check in.
    expect(problems.filter((p) => /\(TS\d+\)/.test(p))).toEqual([]);
    const file = join(entry.dir, "etc", entry.report);
    if (UPDATE) {
      mkdirSync(join(entry.dir, "etc"), { recursive: true });
      writeFileSync(file, text);
    }
    expect(existsSync(file), `no API report at ${file}: run UPDATE_API_REPORTS=1 npx vitest run src/api-reports.test.ts in tooling/release`).toBe(true);
    expect(text, `the public API of ${entry.specifier} changed: if that is deliberate, rewrite the report (UPDATE_API_REPORTS=1) and review the diff`).toBe(
      readFileSync(file, "utf8"),
    );
  });
});
