/**
 * The runtimes of the matrix and how to start them: Node (node:http in front
 * of the fetch handler), Bun (`Bun.serve`), Deno (`Deno.serve`) and workerd
 * (Miniflare, offline: `cf: false`, the `enable_request_signal` flag), each
 * from the npm packages this package installs, each on a free loopback port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type BuildOptions, type BuildResult, build, type Metafile } from "esbuild";
import type { Readable } from "node:stream";
import { Miniflare } from "miniflare";

const require = createRequire(import.meta.url);
export const HOSTS = join(import.meta.dirname, "..", "hosts");
const EXAMPLE = join(import.meta.dirname, "..", "..", "..", "apps", "example", "src");

/** The entry points bundled, by output name. */
export const ENTRIES: Readonly<Record<string, string>> = {
  worker: join(EXAMPLE, "runtimes", "worker.ts"),
  bun: join(EXAMPLE, "runtimes", "bun.ts"),
  deno: join(EXAMPLE, "runtimes", "deno.ts"),
  "probe-worker": join(import.meta.dirname, "fixtures", "probe-worker.ts"),
  "probe-worker-signal": join(import.meta.dirname, "fixtures", "probe-worker-signal.ts"),
  client: join(import.meta.dirname, "fixtures", "client.ts"),
};

/** The platforms bundled for, with only the flags each needs. */
export const PLATFORMS: Readonly<Record<"neutral" | "browser", BuildOptions>> = {
  neutral: { platform: "neutral", mainFields: ["module", "main"] },
  browser: { platform: "browser" },
};

/** Bundles every entry, one file each, for a platform. Written to `outdir` when given. */
export async function bundle(platform: keyof typeof PLATFORMS, outdir?: string): Promise<BuildResult & { metafile: Metafile }> {
  const options: BuildOptions = {
    entryPoints: ENTRIES,
    bundle: true,
    format: "esm",
    ...PLATFORMS[platform],
    ...(outdir !== undefined ? { outdir } : { outdir: "/out", write: false }),
    metafile: true,
    logLevel: "silent",
  };
  return (await build(options)) as BuildResult & { metafile: Metafile };
}

/** Imports a bundle leaves to its host: Node built-ins, and anything left external. */
export function hostImports(metafile: Metafile): string[] {
  const builtins = new Set(builtinModules);
  const out: string[] = [];
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    for (const i of imports) {
      if (i.path === "<runtime>") continue; // esbuild's own helpers, in the bundle
      if (i.external || i.path.startsWith("node:") || builtins.has(i.path)) out.push(`${input} imports ${i.path}`);
    }
  }
  return out;
}

/** A runtime serving a bundle: its address, what it printed on stderr, and how to stop it. */
export interface Running {
  readonly url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** The binaries the npm packages bring. */
export const BUN = join(dirname(require.resolve("bun/package.json")), "bin", "bun.exe");
export const DENO: string = (require("deno/install_api.cjs") as { runInstall(): string }).runInstall();

/** A temp folder, by its real path (Deno and Miniflare name files by it). */
export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Environment for child runtimes: no colours, no update checks, Deno's cache in a folder of its own. */
export function runtimeEnv(denoDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, NO_COLOR: "1", DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1", ...extra };
}

/** Every runtime process started and not yet gone: ended with the test process, should a test leave one behind. */
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/** Starts a process that prints `http://host:port` on a line once it listens. */
export function startProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Running> {
  const child: ChildProcess = spawn(command, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let stdout = "";
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} ${args.join(" ")}: no address printed within 20 s\n${stdout}${stderr}`));
    }, 20_000);
    child.stdout!.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      const url = /(http:\/\/[\w.[\]:-]+:\d+)/.exec(stdout)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ url, stderr: () => stderr, stop });
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")} exited (${code}) before listening\n${stdout}${stderr}`));
    });
  });
}

/** Runs a process to its end and returns what it printed. */
export function runProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The compatibility date of the workerd that Miniflare brings. */
export const COMPATIBILITY_DATE = "2026-07-30";

/** A bundle served by workerd through Miniflare: offline, with `request.signal` for disconnects. */
export async function startWorkerd(scriptPath: string): Promise<Running & { readonly miniflare: Miniflare }> {
  let stderr = "";
  const miniflare = new Miniflare({
    modules: true,
    scriptPath,
    modulesRoot: dirname(scriptPath),
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: ["enable_request_signal"],
    cf: false,
    host: "127.0.0.1",
    port: 0,
    handleRuntimeStdio(stdout: Readable, err: Readable) {
      stdout.resume();
      err.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    },
  });
  const url = (await miniflare.ready).origin;
  return { url, miniflare, stderr: () => stderr, stop: () => miniflare.dispose() };
}

/** Removes a folder made by {@link tempDir}. */
export function removeDir(dir: string | undefined): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}
