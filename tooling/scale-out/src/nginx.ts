/**
 * Debian's nginx running the example's shipped configuration
 * (`apps/example/deploy/nginx.conf`): the test changes only the addresses
 * (its listen ports and the upstream servers, for free loopback ports) and
 * runs it under a temp prefix, so what is shipped is what is tested.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXAMPLE } from "./instances.js";

/** Where `npm test` installs Debian's nginx (tooling/system-packages.mjs). */
export const NGINX = "/usr/sbin/nginx";
/** The shipped configuration. */
export const SHIPPED_CONF = join(EXAMPLE, "deploy", "nginx.conf");

/** The addresses the test gives the shipped configuration. */
export interface NginxPorts {
  /** nginx's REST (HTTP/1.1) listener. */
  readonly rest: number;
  /** nginx's gRPC (h2c) listener. */
  readonly grpc: number;
  /** The instances' REST ports, for `upstream weather_rest`. */
  readonly restUpstreams: readonly number[];
  /** The instances' gRPC ports, for `upstream weather_grpc`. */
  readonly grpcUpstreams: readonly number[];
}

/**
 * The shipped configuration with the test's ports: each `listen` and each
 * upstream `server` address is replaced, nothing else. Throws when the file
 * no longer has the shape this expects (two listeners, the REST one plain and
 * the gRPC one `http2`; two upstreams of as many servers as given; no other
 * address), so that a change to the file cannot leave part of it untested.
 */
export function renderConfig(shipped: string, ports: NginxPorts): string {
  const listens = [...shipped.replace(/#.*$/gm, "").matchAll(/^(\s*listen\s+)127\.0\.0\.1:\d+(\s+http2)?;/gm)];
  if (listens.length !== 2 || listens[0]![2] !== undefined || listens[1]![2] === undefined)
    throw new Error("nginx.conf: expected a plain `listen 127.0.0.1:PORT;` then a `listen 127.0.0.1:PORT http2;`");
  let next = 0;
  let out = shipped.replace(/^(\s*listen\s+)127\.0\.0\.1:\d+/gm, (_, head: string) => `${head}127.0.0.1:${next++ === 0 ? ports.rest : ports.grpc}`);
  for (const [name, upstreams] of [
    ["weather_rest", ports.restUpstreams],
    ["weather_grpc", ports.grpcUpstreams],
  ] as const) {
    const block = new RegExp(`upstream ${name} \\{[^}]*\\}`).exec(out);
    if (block === null) throw new Error(`nginx.conf: no upstream ${name}`);
    const servers = block[0].match(/^\s*server\s+127\.0\.0\.1:\d+/gm) ?? [];
    if (servers.length !== upstreams.length) throw new Error(`nginx.conf: upstream ${name} has ${servers.length} servers, the test runs ${upstreams.length}`);
    let i = 0;
    const replaced = block[0].replace(/^(\s*server\s+)127\.0\.0\.1:\d+/gm, (_, head: string) => `${head}127.0.0.1:${upstreams[i++]}`);
    out = out.slice(0, block.index) + replaced + out.slice(block.index + block[0].length);
  }
  const all = new Set([ports.rest, ports.grpc, ...ports.restUpstreams, ...ports.grpcUpstreams].map(String));
  const directives = out.replace(/#.*$/gm, "");
  const others = [...directives.matchAll(/\b(?:\d{1,3}\.){3}\d{1,3}:(\d+)/g)].filter((m) => !all.has(m[1]!));
  if (others.length > 0) throw new Error(`nginx.conf: addresses the test does not replace: ${others.map((m) => m[0]).join(", ")}`);
  return out;
}

/** nginx running the rendered configuration. */
export interface Nginx {
  readonly restUrl: string;
  readonly grpcUrl: string;
  /** The access log so far (the shipped `upstreams` format). */
  accessLog(): string;
  /** The error log so far. */
  errorLog(): string;
  /** Graceful stop (SIGQUIT), SIGKILL if that takes more than 5 s; removes the prefix. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Resolves once something accepts connections on 127.0.0.1:`port`, or rejects after `ms`. */
export async function listening(port: number, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Starts nginx (in the foreground, `daemon off`) on the shipped
 * configuration with the given ports, under a fresh prefix holding its logs,
 * pid and temp files; resolves once both listeners accept connections.
 */
export async function startNginx(ports: NginxPorts): Promise<Nginx> {
  const prefix = mkdtempSync(join(tmpdir(), "anvil-nginx-"));
  // Started as root, nginx runs its workers as `nobody`, which must reach the temp folders it makes there.
  chmodSync(prefix, 0o755);
  for (const dir of ["logs", "temp"]) mkdirSync(join(prefix, dir), { mode: 0o755 });
  const conf = join(prefix, "nginx.conf");
  writeFileSync(conf, renderConfig(readFileSync(SHIPPED_CONF, "utf8"), ports));
  const child = spawn(NGINX, ["-p", `${prefix}/`, "-c", conf, "-e", "stderr", "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  running.add(child);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      running.delete(child);
      resolve();
    }),
  );
  const read = (file: string) => (existsSync(join(prefix, "logs", file)) ? readFileSync(join(prefix, "logs", file), "utf8") : "");
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGQUIT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    const failed = exited.then(() => {
      throw new Error(`nginx exited at start:\n${stderr}${read("error.log")}`);
    });
    await Promise.race([Promise.all([listening(ports.rest), listening(ports.grpc)]), failed]);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    restUrl: `http://127.0.0.1:${ports.rest}`,
    grpcUrl: `http://127.0.0.1:${ports.grpc}`,
    accessLog: () => read("access.log"),
    errorLog: () => `${stderr}${read("error.log")}`,
    stop,
  };
}

/** One line of the shipped `upstreams` access log format. */
export interface AccessLine {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The request id nginx sent on (the caller's `X-Request-Id`, or its own). */
  readonly requestId: string;
  /** Every instance tried, in order (`host:port`). */
  readonly upstreams: readonly string[];
  /** Each one's answer (`502` when none came). */
  readonly upstreamStatuses: readonly string[];
}

/** Parses the `upstreams` access log format. */
export function parseAccessLog(text: string): AccessLine[] {
  const lines: AccessLine[] = [];
  for (const line of text.split("\n")) {
    const match = /"(\S+) (\S+) [^"]*" (\d{3}) \d+ request_id="([^"]*)" upstream="([^"]*)" upstream_status="([^"]*)"/.exec(line);
    if (match === null) continue;
    const list = (value: string) => value.split(/, | : /).filter((v) => v !== "-");
    lines.push({
      method: match[1]!,
      path: match[2]!,
      status: Number(match[3]),
      requestId: match[4]!,
      upstreams: list(match[5]!),
      upstreamStatuses: list(match[6]!),
    });
  }
  return lines;
}
