/**
 * `anvil init` end to end, the way a contributor runs it: the built CLI
 * scaffolds a project outside this repository with `--anvil-from` pointing
 * here, plain `npm install` links the `file:` specs to the workspace
 * packages (and fetches the tools), `anvil generate` fills in
 * `src/generated`, the TypeScript compiler checks and builds the whole
 * project (generated code, handlers, server, test) against the workspace
 * packages' built `dist/`, the server starts and answers, and the project's
 * own tests pass. (`tooling/release` runs the registry path.)
 */
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cleanEnv } from "@anvil/test-support";
import { afterAll, describe, expect, it } from "vitest";

const PACKAGE_ROOT = resolve(import.meta.dirname, "..");
const REPO = resolve(PACKAGE_ROOT, "..", "..");
const CLI = join(PACKAGE_ROOT, "dist", "cli.js");

const root = realpathSync(mkdtempSync(join(tmpdir(), "anvil-init-e2e-")));
const project = join(root, "task-board");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs a command in the project; fails the test with its output when it fails. */
function run(command: string, args: readonly string[]): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd: existsSync(project) ? project : root, encoding: "utf8", timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${[command, ...args].join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** What npm needs for a quiet install, on top of an environment without what pnpm, turbo and vitest set for their children. */
const npmEnv = (): NodeJS.ProcessEnv => cleanEnv({ npm_config_fund: "false", npm_config_audit: "false", npm_config_update_notifier: "false" });

describe("anvil init, end to end", () => {
  it("scaffolds a project that installs with plain npm, generates, compiles, serves and passes its own tests", { timeout: 300_000 }, async () => {
    expect(existsSync(CLI), `${CLI} is missing: build the package first`).toBe(true);

    const init = run(process.execPath, [CLI, "init", project, "--name", "TaskBoard", "--anvil-from", REPO]);
    expect(init.stdout).toContain("✓ created the TaskBoard service in");

    // Plain npm: the file: specs become links to the checkout's packages.
    const install = spawnSync("npm", ["install"], { cwd: project, env: npmEnv(), encoding: "utf8", timeout: 240_000 });
    expect(install.status, `npm install:\n${install.stdout}\n${install.stderr}`).toBe(0);
    expect(realpathSync(join(project, "node_modules", "@anvil", "core"))).toBe(join(REPO, "packages", "core"));

    const generated = run(process.execPath, [CLI, "generate"]);
    expect(generated.stdout).toContain("✓ generated 5 files for 1 service (example.taskboard#TaskBoard) in src/generated");

    // The whole project (tests included) type-checks and builds into dist/, in one
    // compiler run (`npm run build` compiles the same files minus the tests).
    run(process.execPath, [join(project, "node_modules", "typescript", "bin", "tsc"), "-p", ".", "--noEmit", "false"]);

    // `npm start`'s last step, on a free port: it prints the URL, then answers.
    const server = spawn(process.execPath, ["dist/main.js"], { cwd: project, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let text = "";
        server.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
          if (text.includes("Ctrl-C stops.")) resolve(text);
        });
        server.once("exit", (code) => reject(new Error(`the server exited ${code}: ${text}`)));
      });
      const url = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
      expect(banner).toContain("Protocols: aws.protocols#restJson1, aws.protocols#awsJson1_1, smithy.protocols#rpcv2Cbor");
      expect(banner).toContain(`curl -s ${url}/tasks/t-1`);

      const created = await fetch(`${url}/tasks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "Ship it" }),
      });
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ task: { taskId: "t-1", title: "Ship it", priority: 3, tags: [] } });
      const read = await fetch(`${url}/`, {
        method: "POST",
        headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "TaskBoard.GetTask" },
        body: JSON.stringify({ taskId: "t-1" }),
      });
      expect(await read.json()).toMatchObject({ task: { taskId: "t-1", title: "Ship it" } });
    } finally {
      server.kill("SIGTERM");
    }

    // The scaffold's own test: the generated client over every protocol.
    const tests = run(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run"]);
    // Without the colours of vitest's summary.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes (ESC [ ... m)
    expect(tests.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/Tests\s+12 passed \(12\)/);
  });
});
