/**
 * A real npm registry for the release tests: Verdaccio on loopback, its
 * storage in a temp folder, publishing open to one throwaway user, and every
 * package it does not hold itself proxied from the registry this machine's
 * npm uses (so a project can install Anvil and its third-party dependencies
 * from one registry, as a team with a private registry does).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { freePort } from "@anvil/test-support";
import { dirname, join } from "node:path";

/** A running registry. */
export interface Registry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** A token that may publish. */
  readonly token: string;
  /**
   * Writes an npmrc with the token for this registry and returns its path;
   * with `{ default: true }` it is also the registry npm installs from.
   */
  npmrc(path: string, options?: { readonly default?: boolean }): string;
  /** What Verdaccio printed (warnings and errors: its uplink failures among them). */
  log(): string;
  stop(): Promise<void>;
}

/** The registry this machine's npm uses, for Verdaccio's uplink. */
function upstreamRegistry(): string {
  const result = spawnSync("npm", ["config", "get", "registry"], { encoding: "utf8" });
  const url = result.status === 0 ? result.stdout.trim() : "";
  return url.startsWith("http") ? url : "https://registry.npmjs.org/";
}

/**
 * The environment of Verdaccio: this process's, with npm's `cafile` as
 * Node's extra CA certificates when nothing else names them (a machine whose
 * outbound TLS goes through its own CA says so to npm, and turbo does not
 * pass every variable on), so that the uplink trusts what npm trusts.
 */
function registryEnv(): NodeJS.ProcessEnv {
  if (process.env.NODE_EXTRA_CA_CERTS) return process.env;
  const cafile = spawnSync("npm", ["config", "get", "cafile"], { encoding: "utf8" }).stdout?.trim();
  return cafile && cafile !== "null" && cafile !== "undefined" && existsSync(cafile) ? { ...process.env, NODE_EXTRA_CA_CERTS: cafile } : process.env;
}

/** The Anvil packages this registry holds itself; everything else comes through the uplink. */
const OWN = ["@anvil/*", "create-anvil"];

function config(folder: string): string {
  const own = OWN.map((p) => `  '${p}':\n    access: $all\n    publish: $authenticated\n`).join("");
  return `storage: ${join(folder, "storage")}
auth:
  htpasswd:
    file: ${join(folder, "htpasswd")}
    max_users: 10
uplinks:
  upstream:
    url: ${upstreamRegistry()}
    timeout: 120s
    max_fails: 5
packages:
${own}  '**':
    access: $all
    proxy: upstream
web:
  enable: false
log: { type: stdout, format: pretty, level: warn }
`;
}

/** Starts Verdaccio in `folder` and adds a user that may publish. */
export async function startRegistry(folder: string): Promise<Registry> {
  const file = join(folder, "verdaccio.yaml");
  writeFileSync(file, config(folder));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = join(dirname(createRequire(import.meta.url).resolve("verdaccio/package.json")), "bin", "verdaccio");
  const child: ChildProcess = spawn(process.execPath, [bin, "--config", file, "--listen", `127.0.0.1:${port}`], {
    stdio: ["ignore", "pipe", "pipe"],
    env: registryEnv(),
  });
  let log = "";
  child.stdout!.on("data", (d: Buffer) => (log += d));
  child.stderr!.on("data", (d: Buffer) => (log += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited ${child.exitCode}:\n${log}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`verdaccio did not answer on ${url} within 30 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const user = await fetch(`${url}-/user/org.couchdb.user:release`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: "release-test-only", type: "user", roles: [], date: new Date().toISOString() }),
  });
  const { token } = (await user.json()) as { token?: string };
  if (!user.ok || !token) throw new Error(`verdaccio refused the release user: ${user.status}\n${log}`);

  return {
    url,
    token,
    npmrc(path, options = {}) {
      const registry = options.default ? `registry=${url}\n` : "";
      writeFileSync(path, `${registry}//127.0.0.1:${port}/:_authToken=${token}\nfund=false\naudit=false\nupdate-notifier=false\n`);
      return path;
    },
    log: () => log,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
    },
  };
}
