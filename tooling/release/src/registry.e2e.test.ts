/**
 * The release path end to end, against a real npm registry (Verdaccio on
 * loopback), the way a maintainer releases and a newcomer adopts Anvil:
 *
 * 1. In a copy of this checkout, with a changeset of the test's own:
 *    `npm run version-packages` (changesets turns the pending changesets
 *    into versions and changelogs), then `npm run release -- --registry`
 *    (build, `changeset publish` of every public package) into the
 *    registry.
 * 2. Outside any workspace, with plain npm and the registry set in an npmrc
 *    as a team would set it:
 *    - `npm create anvil@<version> my-service`, `npm install`, `npm test`,
 *      `npm start`, one call with curl and one with the generated client;
 *    - a client-only project: the client packages, `npx anvil generate
 *      --client`, `tsc` strict with `nodenext` and with `bundler`
 *      resolution, one call;
 *    - the CLI on its own: `npx @anvil/codegen validate|generate|openapi|
 *      docs|proto|serve --fake` on the example's model.
 *
 * npm's cache is a temp folder, so nothing installed by an earlier run (or
 * by hand) can stand in for what this run published.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { cleanEnv, freePort } from "@anvil/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startRegistry, type Registry } from "./verdaccio.js";

const REPO = resolve(import.meta.dirname, "..", "..", "..");
const work = realpathSync(mkdtempSync(join(tmpdir(), "anvil-release-")));
const copy = join(work, "repo");
const users = join(work, "users");
const PNPM = ["npx", "--yes", "pnpm@12.4.2"] as const;

/** The environment of this process without what pnpm, turbo and npm scripts put in it for their children. */
const baseEnv = (): NodeJS.ProcessEnv => cleanEnv({ TURBO_TELEMETRY_DISABLED: "1", CI: "true" });

let registry: Registry;
/** For the maintainer's commands in the copy: the machine's registry for installs, Verdaccio to publish to. */
let releaseEnv: NodeJS.ProcessEnv;
/** For the newcomer: only Verdaccio, a fresh npm cache, no prompts. */
let userEnv: NodeJS.ProcessEnv;
const running: ChildProcess[] = [];

interface Run {
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command; throws with everything it printed when it fails. */
function run(cwd: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 300_000): Run {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`${[command, ...args].join(" ")} (in ${cwd}) exited ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`);
  }
  return { stdout: result.stdout, stderr: result.stderr };
}

/** Starts a long-running command and resolves with its output once `ready` appears in it. */
function start(cwd: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv, ready: string): Promise<string> {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  running.push(child);
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(" ")} printed no "${ready}" within 240 s:\n${text}`)), 240_000);
    const take = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (text.includes(ready)) {
        clearTimeout(timer);
        resolve(text);
      }
    };
    child.stdout!.on("data", take);
    child.stderr!.on("data", take);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")} exited ${code} before "${ready}":\n${text}`));
    });
  });
}

/** Stops a process started by {@link start} and everything it started (npm start → node). */
function stopAll(): void {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
}

/** The files of this checkout as git sees them (tracked, and new files not ignored), without node_modules or builds. */
function copyCheckout(to: string): void {
  const listed = run(REPO, "git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], baseEnv()).stdout;
  for (const path of listed.split("\0")) {
    if (!path || !existsSync(join(REPO, path))) continue;
    mkdirSync(dirname(join(to, path)), { recursive: true });
    cpSync(join(REPO, path), join(to, path));
  }
}

const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; version: string; private?: boolean };
/** Versions after `version-packages`, by package name. */
const released = new Map<string, string>();

beforeAll(async () => {
  mkdirSync(join(work, "registry"));
  registry = await startRegistry(join(work, "registry"));
  // The newcomer's installs take third-party packages through Verdaccio's uplink: say so plainly when it cannot reach it.
  const probe = await fetch(`${registry.url}is-number`);
  if (!probe.ok) throw new Error(`verdaccio cannot reach its uplink (GET /is-number: ${probe.status} ${await probe.text()}):\n${registry.log()}`);
  releaseEnv = { ...baseEnv(), npm_config_userconfig: registry.npmrc(join(work, "release.npmrc")) };
  userEnv = {
    ...baseEnv(),
    npm_config_userconfig: registry.npmrc(join(work, "user.npmrc"), { default: true }),
    npm_config_cache: join(work, "npm-cache"),
    npm_config_yes: "true",
  };
  mkdirSync(users, { recursive: true });

  copyCheckout(copy);
  // The maintainer's checkout: installed from the machine's registry as usual.
  run(copy, PNPM[0], [...PNPM.slice(1), "install", "--frozen-lockfile", "--prefer-offline"], baseEnv());
  // A changeset of the test's own, so that there is a release to make whatever is pending in the checkout.
  const bumps = readdirSync(join(copy, "packages"))
    .map((folder) => manifest(join(copy, "packages", folder)))
    .filter((m) => !m.private)
    .map((m) => `"${m.name}": patch`);
  writeFileSync(join(copy, ".changeset", "release-test.md"), `---\n${bumps.join("\n")}\n---\n\nThe release test's own release.\n`);
  run(copy, "npm", ["run", "version-packages"], baseEnv());
  for (const folder of readdirSync(join(copy, "packages"))) {
    const m = manifest(join(copy, "packages", folder));
    if (!m.private) released.set(m.name, m.version);
  }
}, 900_000);

afterEach(({ task }) => {
  // Verdaccio's own account of a failure (an uplink it could not reach, say).
  if (task.result?.state === "fail") console.error(`verdaccio's log:\n${registry?.log().slice(-4000) ?? "(not started)"}`);
});

afterAll(async () => {
  stopAll();
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
});

const versionOf = (name: string) => {
  const v = released.get(name);
  if (!v) throw new Error(`${name} was not released`);
  return v;
};

describe("the release flow into a real registry", () => {
  it("versions the packages from the pending changesets, with changelogs and caret ranges of the new versions", () => {
    expect(released.size).toBeGreaterThanOrEqual(19);
    for (const [name, version] of released) {
      const folder = name === "create-anvil" ? "create-anvil" : name.slice("@anvil/".length);
      expect(version, name).not.toBe(manifest(join(REPO, "packages", folder)).version);
    }
    const core = versionOf("@anvil/core");
    expect(readFileSync(join(copy, "packages", "core", "CHANGELOG.md"), "utf8")).toContain("The release test's own release.");
    expect(readFileSync(join(copy, "packages", "core", "CHANGELOG.md"), "utf8")).toContain(`## ${core}`);
    const server = JSON.parse(readFileSync(join(copy, "packages", "server", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(server.dependencies["@anvil/core"]).toBe(`^${core}`);
  });

  it("publishes every public package with npm run release", () => {
    const out = run(copy, "npm", ["run", "release", "--", "--registry", registry.url, "--no-git-tag"], releaseEnv, 600_000);
    const text = out.stdout + out.stderr;
    for (const [name, version] of released) expect(text, name).toContain(`${name}@${version}`);
    // What a registry serves: the right versions, caret ranges inside, no workspace: specs.
    const view = JSON.parse(run(work, "npm", ["view", `@anvil/server@${versionOf("@anvil/server")}`, "--json"], userEnv).stdout) as {
      dependencies: Record<string, string>;
    };
    expect(view.dependencies["@anvil/core"]).toBe(`^${versionOf("@anvil/core")}`);
    // Publishing again publishes nothing (every version is there already).
    const again = run(copy, "npm", ["run", "release", "--", "--registry", registry.url, "--no-git-tag"], releaseEnv, 600_000);
    expect(again.stdout + again.stderr).toMatch(/No unpublished projects to publish|no unpublished/i);
  });
});

describe("a newcomer with plain npm", () => {
  const service = join(users, "my-service");
  let url = "";

  it("starts a service with npm create anvil, installs, tests and starts it", async () => {
    const created = run(users, "npm", ["create", `anvil@${versionOf("create-anvil")}`, "my-service"], userEnv);
    expect(created.stdout).toContain("✓ created the MyService service in");
    expect(created.stdout).toContain("npm install");

    // Each @anvil dependency at its own released version (today's pending changesets make them differ).
    const scaffold = JSON.parse(readFileSync(join(service, "package.json"), "utf8")) as Record<string, Record<string, string>>;
    const anvilDeps = Object.entries({ ...scaffold.dependencies, ...scaffold.devDependencies }).filter(([name]) => name.startsWith("@anvil/"));
    expect(anvilDeps.length).toBeGreaterThanOrEqual(7);
    for (const [name, spec] of anvilDeps) expect(spec, name).toBe(`^${versionOf(name)}`);

    run(service, "npm", ["install"], userEnv);
    const core = JSON.parse(readFileSync(join(service, "node_modules", "@anvil", "core", "package.json"), "utf8")) as { version: string };
    expect(core.version).toBe(versionOf("@anvil/core"));
    // ESM packages, and require() of them works on Node >= 20.19.
    expect(run(service, process.execPath, ["-e", "console.log(typeof require('@anvil/core').HttpHeaders)"], userEnv).stdout.trim()).toBe("function");

    const tested = run(service, "npm", ["test"], userEnv);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes (ESC [ ... m)
    expect(tested.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/Tests\s+\d+ passed/);

    const port = await freePort();
    const banner = await start(service, "npm", ["start"], { ...userEnv, PORT: String(port) }, "Ctrl-C stops.");
    url = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
    expect(banner).toContain("curl -s -X POST");

    const curl = run(users, "curl", ["-s", "-X", "POST", `${url}/tasks`, "-H", "content-type: application/json", "-d", '{"title":"Ship it"}'], userEnv);
    expect(JSON.parse(curl.stdout)).toMatchObject({ task: { taskId: "t-1", title: "Ship it" } });

    writeFileSync(
      join(service, "call.mjs"),
      `import { createClient } from "@anvil/client-core";
import { MyService } from "./dist/generated/my-service.js";
import { PROTOCOLS } from "./dist/server.js";
const client = createClient(MyService, { endpoint: process.argv[2], protocols: PROTOCOLS, protocol: "aws.protocols#awsJson1_1" });
console.log(JSON.stringify(await client.getTask({ taskId: "t-1" })));
`,
    );
    const called = run(service, process.execPath, ["call.mjs", url], userEnv);
    expect(JSON.parse(called.stdout)).toMatchObject({ task: { taskId: "t-1", title: "Ship it" } });
  });

  it("builds a client-only project: generate --client, tsc strict with nodenext and bundler resolution, one call", () => {
    expect(url, "the service of the test before is running").not.toBe("");
    const app = join(users, "client-app");
    mkdirSync(join(app, "src"), { recursive: true });
    const v = versionOf;
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify(
        {
          name: "client-app",
          private: true,
          type: "module",
          dependencies: {
            "@anvil/client-core": `^${v("@anvil/client-core")}`,
            "@anvil/core": `^${v("@anvil/core")}`,
            "@anvil/protocol-restjson": `^${v("@anvil/protocol-restjson")}`,
          },
          devDependencies: { "@anvil/codegen": `^${v("@anvil/codegen")}`, "@types/node": "20.19.43", typescript: "5.9.3" },
        },
        null,
        2,
      ),
    );
    cpSync(join(service, "model"), join(app, "model"), { recursive: true });
    run(app, "npm", ["install"], userEnv);
    run(app, "npx", ["anvil", "generate", "--model", "model", "--out", "src/generated", "--client", "--no-server"], userEnv);
    writeFileSync(
      join(app, "src", "call.ts"),
      `import { createClient } from "@anvil/client-core";
import { restJson1 } from "@anvil/protocol-restjson";
import type { Task } from "./generated/example.myservice.shapes.js";
import { MyService } from "./generated/my-service.js";

const client = createClient(MyService, { endpoint: process.argv[2]!, protocols: [restJson1()] });
const { task }: { task: Task } = await client.getTask({ taskId: "t-1" });
console.log(JSON.stringify(task));
`,
    );
    const strict = { strict: true, exactOptionalPropertyTypes: true, target: "ES2022", lib: ["ES2023"], types: ["node"], skipLibCheck: false };
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { ...strict, module: "NodeNext", moduleResolution: "NodeNext", outDir: "dist", rootDir: "src" }, include: ["src"] }),
    );
    writeFileSync(
      join(app, "tsconfig.bundler.json"),
      JSON.stringify({ compilerOptions: { ...strict, module: "ESNext", moduleResolution: "Bundler", noEmit: true }, include: ["src"] }),
    );
    run(app, "npx", ["tsc", "-p", "tsconfig.bundler.json"], userEnv);
    run(app, "npx", ["tsc", "-p", "tsconfig.json"], userEnv);
    const called = run(app, process.execPath, ["dist/call.js", url], userEnv);
    expect(JSON.parse(called.stdout)).toMatchObject({ taskId: "t-1", title: "Ship it" });
  });

  it("runs the CLI on its own with npx @anvil/codegen", async () => {
    const cli = join(users, "cli");
    cpSync(join(REPO, "apps", "example", "model"), join(cli, "model"), { recursive: true });
    const anvil = (...args: string[]) => run(cli, "npx", [`@anvil/codegen@${versionOf("@anvil/codegen")}`, ...args], userEnv);

    expect(anvil("validate", "--model", "model", "--summary").stdout).toContain("example.weather#Weather");
    expect(anvil("generate", "--model", "model", "--out", "gen", "--client").stdout).toMatch(/✓ generated \d+ files/);
    expect(existsSync(join(cli, "gen", "weather.client.ts"))).toBe(true);
    anvil("openapi", "--model", "model", "--service", "example.weather#Weather", "--out", "openapi.json");
    expect(JSON.parse(readFileSync(join(cli, "openapi.json"), "utf8"))).toMatchObject({ openapi: "3.1.0" });
    anvil("docs", "--model", "model", "--out", "site");
    expect(existsSync(join(cli, "site", "index.html"))).toBe(true);
    anvil("proto", "--model", "model", "--service", "example.weather#WeatherGrpc", "--out", "weather.proto");
    expect(readFileSync(join(cli, "weather.proto"), "utf8")).toContain('syntax = "proto3";');

    const [port, grpcPort] = [await freePort(), await freePort()];
    const banner = await start(
      cli,
      "npx",
      [`@anvil/codegen@${versionOf("@anvil/codegen")}`, "serve", "--model", "model", "--fake", "--port", String(port), "--grpc-port", String(grpcPort)],
      userEnv,
      "Ctrl-C stops.",
    );
    expect(banner).toContain(`http://127.0.0.1:${port}`);
    const answer = await fetch(`http://127.0.0.1:${port}/cities/c-1`);
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers.get("content-type")).toContain("json");
    const explorer = await fetch(`http://127.0.0.1:${port}/openapi/swagger-ui-bundle.js`);
    expect(explorer.status).toBe(200);
  });

  it("copies the example app out as a template: installs, regenerates, type-checks, builds and serves", async () => {
    const example = join(users, "weather");
    const tracked = run(join(REPO, "apps", "example"), "git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "."], baseEnv()).stdout;
    for (const path of tracked.split("\0")) {
      if (!path) continue;
      mkdirSync(dirname(join(example, path)), { recursive: true });
      // From the released copy: version-packages moved its @anvil ranges to the new versions.
      cpSync(join(copy, "apps", "example", path), join(example, path));
    }
    run(example, "npm", ["install"], userEnv);
    expect(run(example, "npm", ["run", "generate"], userEnv).stdout).toMatch(/✓ generated \d+ files .* 0 written/);
    run(example, "npx", ["tsc", "--noEmit", "-p", "."], userEnv);
    run(example, "npm", ["run", "build"], userEnv);
    const port = await freePort();
    const banner = await start(example, process.execPath, ["dist/main.js"], { ...userEnv, PORT: String(port) }, "Ctrl-C stops.");
    expect(banner).toContain(`http://127.0.0.1:${port}`);
    const city = await fetch(`http://127.0.0.1:${port}/cities`);
    expect(city.status).toBe(200);
    expect(await city.json()).toHaveProperty("items");
  });
});
