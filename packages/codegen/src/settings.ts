/**
 * Build settings of `anvil generate`, from command-line flags, an
 * `anvil.config.json`, or the `anvil` plugin block of a `smithy-build.json`.
 * Flags win over files; paths in a file are relative to that file.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ParsedArgs } from "./args.js";

/** Everything `anvil generate` needs to run. */
export interface GenerateSettings {
  /** Model files and directories. */
  readonly models: readonly string[];
  /** Output folder. */
  readonly out: string;
  /** Service shape ids; empty means every service. */
  readonly services: readonly string[];
  /** Generate the server surface (default true). */
  readonly server: boolean;
  /** Generate the client surface (default false). */
  readonly client: boolean;
  /** Generate fakes: `name.fakes.ts` (default false). */
  readonly generateFakes: boolean;
  /** Write `<service>.proto` for gRPC services (default false). */
  readonly proto: boolean;
  /** Write `model.ts`, the model as a JSON AST module (default false). */
  readonly embedModel: boolean;
  /** Report unknown traits as warnings instead of errors. */
  readonly allowUnknownTraits: boolean;
  /** Load Anvil's bundled trait definitions (default true). */
  readonly bundledTraits: boolean;
  /** Where the settings came from, for messages (`flags`, or a file path). */
  readonly source: string;
}

/** Settings, or what is wrong with them, plus notes worth printing either way. */
export interface SettingsResult {
  /** The resolved settings; absent when there are errors. */
  readonly settings?: GenerateSettings;
  /** What is wrong (no model, no output folder, a bad or unreadable config file); empty when `settings` is present. */
  readonly errors: string[];
  /** Notes on the config file worth printing either way, such as an unknown setting that was ignored. */
  readonly warnings: string[];
}

/** The config file `anvil generate` looks for in the working folder. */
export const ANVIL_CONFIG = "anvil.config.json";
/** The Smithy build file `anvil generate` reads when there is no `anvil.config.json`. */
export const SMITHY_BUILD = "smithy-build.json";

/**
 * Maven artifacts whose traits Anvil bundles (SPEC §1): a `smithy-build.json`
 * naming them loads without network access. Versions are the ones the
 * bundled definitions correspond to.
 */
export const BUNDLED_ARTIFACTS: ReadonlyMap<string, string> = new Map([
  ["software.amazon.smithy:smithy-aws-traits", "1.73.0"],
  ["software.amazon.smithy:smithy-aws-iam-traits", "1.73.0"],
  ["software.amazon.smithy:smithy-aws-cloudformation-traits", "1.73.0"],
  ["software.amazon.smithy:smithy-aws-endpoints", "1.73.0"],
  ["software.amazon.smithy:smithy-protocol-traits", "1.73.0"],
  ["software.amazon.smithy:smithy-validation-model", "1.73.0"],
  ["software.amazon.smithy:smithy-protocol-test-traits", "1.73.0"],
  ["software.amazon.smithy:smithy-waiters", "1.73.0"],
  ["software.amazon.smithy:smithy-rules-engine", "1.73.0"],
  ["software.amazon.smithy:smithy-mqtt-traits", "1.73.0"],
  ["software.amazon.smithy:smithy-model", "1.73.0"],
  ["com.disneystreaming.alloy:alloy-core", "0.3.38"],
]);

interface FileSettings {
  models?: string[];
  out?: string;
  services?: string[];
  server?: boolean;
  client?: boolean;
  generateFakes?: boolean;
  proto?: boolean;
  embedModel?: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads the settings keys shared by `anvil.config.json` and the `anvil` plugin block. */
function readAnvilBlock(block: Json, base: string, where: string, errors: string[], warnings: string[], extraKeys: readonly string[] = []): FileSettings {
  const out: FileSettings = {};
  const strings = (key: string, value: unknown): string[] | undefined => {
    if (typeof value === "string") return [value];
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
    errors.push(`${where}: \`${key}\` must be a string or an array of strings`);
    return undefined;
  };
  for (const [key, value] of Object.entries(block)) {
    switch (key) {
      case "model":
      case "models":
      case "sources": {
        const paths = strings(key, value);
        if (paths) out.models = [...(out.models ?? []), ...paths.map((p) => resolve(base, p))];
        break;
      }
      case "out":
      case "output":
      case "outputDirectory":
        if (typeof value === "string") out.out = resolve(base, value);
        else errors.push(`${where}: \`${key}\` must be a string (the output folder)`);
        break;
      case "service":
      case "services": {
        const ids = strings(key, value);
        if (ids) out.services = [...(out.services ?? []), ...ids];
        break;
      }
      case "server":
      case "client":
      case "generateFakes":
      case "proto":
      case "embedModel":
        if (typeof value === "boolean") out[key] = value;
        else errors.push(`${where}: \`${key}\` must be true or false`);
        break;
      case "$schema":
        break;
      default:
        if (!extraKeys.includes(key)) warnings.push(`${where}: unknown setting \`${key}\` ignored`);
    }
  }
  return out;
}

function readJson(file: string, errors: string[]): Json | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    errors.push(`${file}: cannot read: ${(e as Error).message}`);
    return undefined;
  }
  try {
    const json = JSON.parse(text) as unknown;
    if (isObject(json)) return json;
    errors.push(`${file}: expected a JSON object`);
  } catch (e) {
    errors.push(`${file}: invalid JSON: ${(e as Error).message}`);
  }
  return undefined;
}

/** Reads an `anvil.config.json`. */
export function readAnvilConfig(file: string, errors: string[], warnings: string[]): FileSettings | undefined {
  const json = readJson(file, errors);
  return json && readAnvilBlock(json, dirname(file), file, errors, warnings);
}

/**
 * Reads a `smithy-build.json`: models from `sources` and `imports`, settings
 * from `plugins.anvil`, Maven dependencies checked against the bundled trait
 * packages. Without an `out` in the plugin block, output goes where Smithy
 * puts a plugin's: `<outputDirectory or build/smithy>/source/anvil`.
 */
export function readSmithyBuild(file: string, errors: string[], warnings: string[]): FileSettings | undefined {
  const json = readJson(file, errors);
  if (!json) return undefined;
  const base = dirname(file);
  const models: string[] = [];
  for (const key of ["sources", "imports"]) {
    const v = json[key];
    if (v === undefined) continue;
    if (Array.isArray(v) && v.every((p) => typeof p === "string")) models.push(...v.map((p) => resolve(base, p as string)));
    else errors.push(`${file}: \`${key}\` must be an array of paths`);
  }
  const maven = json.maven;
  if (isObject(maven) && Array.isArray(maven.dependencies)) {
    for (const dep of maven.dependencies) {
      if (typeof dep !== "string") continue;
      const [group, artifact, version] = dep.split(":");
      const coordinate = `${group}:${artifact}`;
      const bundled = BUNDLED_ARTIFACTS.get(coordinate);
      if (bundled === undefined) {
        warnings.push(
          `${file}: Maven dependency \`${dep}\` is not bundled with Anvil and is not downloaded; add its model files to \`sources\` or \`imports\``,
        );
      } else if (version !== undefined && version !== bundled) {
        warnings.push(`${file}: Maven dependency \`${dep}\` is satisfied by Anvil's bundled traits, which correspond to version ${bundled}`);
      }
    }
  }
  const plugins = json.plugins;
  const block = isObject(plugins) && isObject(plugins.anvil) ? plugins.anvil : {};
  const settings = readAnvilBlock(block, base, `${file} (plugins.anvil)`, errors, warnings);
  const outputDirectory = typeof json.outputDirectory === "string" ? resolve(base, json.outputDirectory) : resolve(base, "build", "smithy");
  return { ...settings, models: [...models, ...(settings.models ?? [])], out: settings.out ?? join(outputDirectory, "source", "anvil") };
}

/**
 * The settings of one `anvil generate` run. With `--config FILE` that file is
 * read (an `anvil.config.json`, or a `smithy-build.json` by its name);
 * without `--config` and without `--model`, `anvil.config.json` and then
 * `smithy-build.json` are looked for in `cwd`. Flags override the file.
 */
export function resolveSettings(args: ParsedArgs, cwd = process.cwd()): SettingsResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  let file: string | undefined;
  const explicit = args.flags.get("--config");
  if (typeof explicit === "string") file = resolve(cwd, explicit);
  else if (args.models.length === 0) {
    for (const name of [ANVIL_CONFIG, SMITHY_BUILD]) {
      if (existsSync(join(cwd, name))) {
        file = join(cwd, name);
        break;
      }
    }
  }
  let fromFile: FileSettings = {};
  if (file !== undefined) {
    const read = file.endsWith(SMITHY_BUILD) ? readSmithyBuild(file, errors, warnings) : readAnvilConfig(file, errors, warnings);
    if (read) fromFile = read;
  }
  const flag = (name: string) => args.flags.get(name);
  const out = typeof flag("--out") === "string" ? resolve(cwd, flag("--out") as string) : fromFile.out;
  const models = args.models.length ? args.models.map((m) => resolve(cwd, m)) : (fromFile.models ?? []);
  const services = args.lists.get("--service") ?? fromFile.services ?? [];
  if (models.length === 0) errors.push(`no model given; pass --model <files or directories>, or write an ${ANVIL_CONFIG} or ${SMITHY_BUILD}`);
  if (out === undefined) errors.push("no output folder given; pass --out <dir> (or set `out` in the config)");
  if (errors.length) return { errors, warnings };
  return {
    settings: {
      models,
      out: out!,
      services,
      server: flag("--no-server") ? false : flag("--server") ? true : (fromFile.server ?? true),
      client: flag("--no-client") ? false : flag("--client") ? true : (fromFile.client ?? false),
      generateFakes: flag("--fakes") || flag("--generate-fakes") ? true : (fromFile.generateFakes ?? false),
      proto: flag("--no-proto") ? false : flag("--proto") ? true : (fromFile.proto ?? false),
      embedModel: flag("--no-embed-model") ? false : flag("--embed-model") ? true : (fromFile.embedModel ?? false),
      allowUnknownTraits: args.flags.has("--allow-unknown-traits"),
      bundledTraits: !args.flags.has("--no-bundled-traits"),
      source: file ?? "flags",
    },
    errors,
    warnings,
  };
}
