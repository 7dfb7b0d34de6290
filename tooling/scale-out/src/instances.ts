/**
 * Instances of the example as `npm start` runs them (`apps/example/dist/main.js`,
 * built by `turbo run test` first), each a process of its own on free loopback
 * ports (`PORT=0`), with JSON access logs so that the test can see which
 * calls each one served.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

export const EXAMPLE = join(import.meta.dirname, "..", "..", "..", "apps", "example");
/** What `npm start` runs, relative to {@link EXAMPLE}. */
export const MAIN_FILE = "dist/main.js";
const MAIN = join(EXAMPLE, MAIN_FILE);

/** One call an instance logged (a subset of the server's access log entry). */
export interface LoggedCall {
  readonly operation?: string;
  readonly protocol?: string;
  readonly method: string;
  readonly status: number;
  readonly grpcStatus?: number;
  readonly error?: string;
  /** The request id (the caller's `X-Request-Id`, which nginx passes on). */
  readonly requestId?: string;
  /** When the instance logged it (this process's clock). */
  readonly at: number;
}

/** A running instance of the example. */
export interface Instance {
  readonly name: string;
  /** Weather (restJson1, awsJson1_1, rpcv2Cbor) over HTTP/1.1. */
  readonly restPort: number;
  /** WeatherGrpc, gRPC health and reflection over h2c. */
  readonly grpcPort: number;
  /** Every call it logged so far. */
  readonly calls: readonly LoggedCall[];
  /** What it printed that is not an access log line. */
  output(): string;
  /** Resolves once a line containing `text` was printed. */
  printed(text: string): Promise<void>;
  /** How the process ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL if it is still there after `ms`; resolves when it has ended. */
  stop(ms?: number): Promise<void>;
}

/** Every process started and not yet ended: killed with the test process, should a test leave one behind. */
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/** How to start an instance. */
export interface InstanceOptions {
  /** Arguments after the main file. Default `--json-logs`. */
  readonly args?: readonly string[];
  /** Weather's port (WeatherGrpc gets the next, SimpleWeather the one after); 0, the default, picks free ports for each. */
  readonly port?: number;
}

/** Starts an instance (on free ports unless told otherwise); resolves once all its listeners are up. */
export function startInstance(name: string, options: InstanceOptions = {}): Promise<Instance> {
  const child = spawn(process.execPath, [MAIN, ...(options.args ?? ["--json-logs"])], {
    cwd: EXAMPLE,
    env: { ...process.env, PORT: String(options.port ?? 0), HOST: "127.0.0.1", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  const calls: LoggedCall[] = [];
  let text = "";
  let partial = "";
  const waiting: { text: string; resolve: () => void }[] = [];
  const onLine = (line: string): void => {
    if (line.startsWith("{")) {
      const entry = JSON.parse(line) as Omit<LoggedCall, "at">;
      calls.push({ ...entry, at: Date.now() });
      return;
    }
    text += `${line}\n`;
    for (let i = waiting.length - 1; i >= 0; i--) {
      if (!line.includes(waiting[i]!.text)) continue;
      waiting[i]!.resolve();
      waiting.splice(i, 1);
    }
  };
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop()!;
    for (const line of lines) onLine(line);
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  const printed = (wanted: string): Promise<void> =>
    text.includes(wanted) ? Promise.resolve() : new Promise((resolve) => waiting.push({ text: wanted, resolve }));

  const stop = async (ms = 10_000): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), ms);
      await exited;
      clearTimeout(timer);
    }
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(0);
      reject(new Error(`instance ${name} did not start within 20 s:\n${text}`));
    }, 20_000);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`instance ${name} ended (${code ?? signal}) before it started:\n${text}`));
    });
    void printed("Ctrl-C stops").then(() => {
      clearTimeout(timer);
      const port = (label: string): number => {
        const match = new RegExp(`^${label}\\s+http://127\\.0\\.0\\.1:(\\d+)$`, "m").exec(text);
        if (match === null) throw new Error(`instance ${name}: no address for ${label} in\n${text}`);
        return Number(match[1]);
      };
      resolve({
        name,
        restPort: port("Weather service \\(restJson1, awsJson1_1, rpcv2Cbor\\)"),
        grpcPort: port("WeatherGrpc service \\(alloy\\.proto#grpc, h2c\\)"),
        calls,
        output: () => text,
        printed,
        exited,
        signal: (signal) => child.kill(signal),
        stop,
      });
    });
  });
}

/** `count` consecutive ports free on 127.0.0.1 at the time of the call (the example takes PORT, PORT + 1 and PORT + 2). */
export async function freePortRun(count: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    // Below Linux's ephemeral range (32768 and up), where outgoing connections take their ports.
    const first = 20_000 + Math.floor(Math.random() * 12_000);
    let ok = true;
    for (let i = 0; i < count && ok; i++) ok = await free(first + i);
    if (ok) return first;
  }
  throw new Error(`no ${count} consecutive free ports on 127.0.0.1 in 50 tries`);
}
