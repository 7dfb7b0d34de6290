#!/usr/bin/env node
// The README's entry points. `npm start` and `npm test` call this with a task
// name; it installs with the pinned pnpm, builds with turbo and runs the task.
// Every step is printed before it runs so a person can follow along.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { probeSystem, systemPackagePlan } from "./system-packages.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PNPM = ["npx", "--yes", "pnpm@12.4.2"];
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1" };

function run(cmd, args, { quiet = false, cwd = root } = {}) {
  if (!quiet) console.error(`\n› ${cwd === root ? "" : `(in ${cwd.slice(root.length + 1)}) `}${[cmd, ...args].join(" ")}`);
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit", env });
  if (r.error) throw r.error;
  return r.status ?? 1;
}
const must = (status) => {
  if (status !== 0) process.exit(status);
};
const pnpm = (args, opts) => run(PNPM[0], [...PNPM.slice(1), ...args], opts);
const install = () => must(pnpm(["install", "--frozen-lockfile"]));
/**
 * What `test:fast` leaves out: end-to-end runs (a registry, npm installs,
 * browsers), property and fuzz tests, the conformance corpus sweeps and the
 * release checks. They hold most of the suite's time; CI runs them all.
 */
const SLOW_TESTS = [
  "**/*.e2e.test.ts",
  "**/browser.test.ts",
  "**/fuzz.test.ts",
  "**/*propert*.test.ts",
  "**/*corpus*.test.ts",
  "**/equivalence.test.ts",
  "**/scan-plan.test.ts",
  "**/numbers.test.ts",
  "tooling/release/**",
  "tooling/codec-contract/**",
];

const build = (filter) =>
  must(pnpm(["exec", "turbo", "run", "build", "--output-logs=errors-only", ...(filter ? [`--filter=${filter}`] : [])], { quiet: true }));

/**
 * Installs the Debian packages the tests use when some are missing (as root,
 * or through a sudo that asks no password), or stops with one line saying
 * what to install.
 */
function ensureSystemPackages() {
  const plan = systemPackagePlan(probeSystem());
  if (plan.kind === "ready") return;
  if (plan.kind === "stop") {
    console.error(plan.message);
    process.exit(1);
  }
  console.error(`\nInstalling the system packages the tests use: ${plan.missing.join(", ")} (apt-get; a minute or two)`);
  env.DEBIAN_FRONTEND = "noninteractive";
  for (const [cmd, ...args] of plan.commands) {
    // apt and dpkg print hundreds of lines even with -qq: shown only when a step fails.
    const r = spawnSync(cmd, args, { cwd: root, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) {
      console.error(`${[cmd, ...args].join(" ")} failed:\n${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}`);
      process.exit(1);
    }
  }
  console.error(`Installed ${plan.missing.join(", ")}.`);
}

const [task, ...rest] = process.argv.slice(2);
switch (task) {
  case "start": {
    // The example service: build what it needs, regenerate its code from the
    // model (unchanged files are left alone), build it and serve it.
    install();
    build("@anvil/example^...");
    const example = join(root, "apps/example");
    must(run("node", ["../../packages/codegen/dist/cli.js", "generate"], { cwd: example }));
    build("@anvil/example");
    process.exit(run("node", ["dist/main.js", ...rest], { cwd: example }));
  }
  case "test": {
    ensureSystemPackages();
    install();
    const status = pnpm(["exec", "turbo", "run", "build", "test", "--continue=dependencies-successful", "--log-order=grouped"]);
    const summary = run("node", ["tooling/test-summary.mjs"], { quiet: true });
    process.exit(status || summary);
  }
  case "test:fast": {
    // The inner loop: build, then every test but the slow ones, in one
    // Vitest run (about 3 minutes on 2 cores, against 7 for `npm test`,
    // which CI runs: everything). Other arguments go to Vitest: a file
    // filter, `--project @anvil/core`.
    if (!existsSync(join(root, "node_modules"))) install();
    build();
    const slow = SLOW_TESTS.flatMap((glob) => ["--exclude", glob]);
    process.exit(pnpm(["exec", "vitest", "run", ...slow, ...rest]));
  }
  case "version": {
    // Turns the pending changesets into versions and changelogs (review and
    // commit the result), then brings the lockfile's ranges up to date and
    // regenerates the example, whose headers name the generator's version.
    install();
    must(pnpm(["exec", "changeset", "version"]));
    must(pnpm(["install", "--no-frozen-lockfile"]));
    build("@anvil/codegen...");
    must(run("node", ["../../packages/codegen/dist/cli.js", "generate"], { cwd: join(root, "apps/example"), quiet: true }));
    process.exit(0);
  }
  case "release": {
    // Builds every package and publishes those whose version is not on the
    // registry yet: the npm config's, or the one `--registry <url>` names
    // (only the publishing goes there; the tools still come from the npm
    // config's). Other arguments go to `changeset publish` (--tag next,
    // --no-git-tag, --otp).
    const at = rest.indexOf("--registry");
    const registry = at < 0 ? undefined : rest.splice(at, 2)[1];
    if (at >= 0 && !registry?.startsWith("http")) {
      console.error("usage: npm run release -- [--registry <url>] [changeset publish options]");
      process.exit(2);
    }
    install();
    must(pnpm(["exec", "turbo", "run", "build", "--output-logs=errors-only", "--filter=./packages/*"]));
    // changesets reads npm's variable (and asks npm what is published); pnpm publish reads its own.
    const target = registry === undefined ? [] : ["env", `npm_config_registry=${registry}`, `pnpm_config_registry=${registry}`];
    process.exit(pnpm(["exec", ...target, "changeset", "publish", ...rest]));
  }
  case "anvil":
    if (!existsSync(join(root, "node_modules"))) install();
    build("@anvil/codegen...");
    process.exit(run("node", ["packages/codegen/dist/cli.js", ...rest], { quiet: true }));
  case "conformance":
    if (!existsSync(join(root, "node_modules"))) install();
    build("@anvil/conformance...");
    process.exit(run("node", ["apps/conformance/dist/cli.js", ...rest], { quiet: true }));
  case "bench":
    if (!existsSync(join(root, "node_modules"))) install();
    build();
    process.exit(run("node", ["tooling/bench/run.mjs", ...rest], { quiet: true }));
  default:
    console.error(`usage: node tooling/main.mjs <start|test|test:fast|version|release|anvil|conformance|bench> [args...]`);
    process.exit(2);
}
