/**
 * `anvil serve --model <files|dirs>... --fake [--service <id>]... [--host H]
 * [--port 8080] [--grpc-port 8081] [--bearer-token T]... [--api-key K]...
 * [--basic USER:PASS]... [--sigv4 AKID:SECRET]... [--json-logs]`: serves fakes for a model until Ctrl-C, enforcing
 * the model's auth for the schemes given credentials, and logs every call (one line each, or one JSON object each).
 */
import { UnterminatedRecursionError } from "@anvil/fakes";
import { loadModel, type ValidationEvent } from "@anvil/model";
import type { ParsedArgs } from "./args.js";
import { formatAccessLog } from "@anvil/server";
import { closeOnSignal } from "@anvil/server/node";
import { formatDiagnostic, type Io } from "./commands.js";
import { type FakeCredentials, startFakeServe, type FakeServe } from "./serve.js";
import { unusableExampleNote } from "./unusable-example.js";

/** How `serve` waits to stop: resolves on the first SIGINT or SIGTERM. Tests pass their own. */
export type StopSignal = Promise<void>;

/** The first SIGTERM or SIGINT ends the wait (serve then closes gracefully); a second ends the process at once, as `closeOnSignal` has it. */
function processStop(): StopSignal {
  return new Promise((resolve) => {
    closeOnSignal({ close: async () => resolve() });
  });
}

function portOf(args: ParsedArgs, flag: string, fallback: number, io: Io): number | undefined {
  const raw = args.flags.get(flag);
  if (raw === undefined) return fallback;
  const port = Number(raw);
  if (raw === true || !Number.isInteger(port) || port < 0 || port > 65_535) {
    io.err(`error: ${flag} must be a port number (0-65535), not ${raw === true ? "nothing" : JSON.stringify(raw)}`);
    return undefined;
  }
  return port;
}

/** `--body-limit`: bytes, or KiB/MiB with a `k`/`m` suffix (`6m`); undefined when not given, null when invalid (reported). */
function bodyLimitOf(args: ParsedArgs, io: Io): number | undefined | null {
  const raw = args.flags.get("--body-limit");
  if (raw === undefined) return undefined;
  const match = typeof raw === "string" ? /^(\d+)([kKmM]?)$/.exec(raw.trim()) : null;
  const bytes = match === null ? NaN : Number(match[1]) * (match[2] === "" ? 1 : match[2]!.toLowerCase() === "k" ? 1024 : 1024 * 1024);
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    io.err(`error: --body-limit must be a size in bytes, or with k or m for KiB or MiB (e.g. 6m), not ${raw === true ? "nothing" : JSON.stringify(raw)}`);
    return null;
  }
  return bytes;
}

/** A refused request in a word or two: the ValidationException's first problem, or the error's message. */
function rejectionOf(error: unknown): string {
  const fields = (error as { fieldList?: readonly { path: string; message: string }[] }).fieldList;
  if (fields?.length) return `${fields.length} validation error${fields.length > 1 ? "s" : ""}: ${fields[0]!.message}${fields.length > 1 ? ", …" : ""}`;
  return error instanceof Error ? error.message : String(error);
}

const isError = (e: ValidationEvent) => e.severity === "ERROR" || e.severity === "DANGER";

/**
 * Runs `anvil serve`. Resolves with the exit code once `stop` settles (by
 * default the first SIGINT or SIGTERM): 0 after a clean stop, 1 when the
 * model has errors or no fake can be built, 2 on bad arguments.
 */
export async function serveCommand(args: ParsedArgs, io: Io, stop: () => StopSignal = processStop): Promise<number> {
  if (!args.flags.has("--fake")) {
    io.err("error: anvil serve answers from a model's examples only: pass --fake (a real implementation is a handler you register on @anvil/server)");
    return 2;
  }
  if (args.models.length === 0) {
    io.err("error: no model given; pass --model <files or directories>");
    return 2;
  }
  const port = portOf(args, "--port", 8080, io);
  const grpcPort = portOf(args, "--grpc-port", 8081, io);
  const bodyLimit = bodyLimitOf(args, io);
  const credentials = credentialsOf(args, io);
  if (port === undefined || grpcPort === undefined || bodyLimit === null || credentials === undefined) return 2;
  const host = typeof args.flags.get("--host") === "string" ? (args.flags.get("--host") as string) : "127.0.0.1";
  const { model, events } = loadModel({
    paths: args.models,
    allowUnknownTraits: args.flags.has("--allow-unknown-traits"),
    bundledTraits: !args.flags.has("--no-bundled-traits"),
  });
  if (events.some(isError)) {
    for (const e of events.filter(isError)) io.err(formatDiagnostic(e));
    io.err("✗ the model has errors; nothing served");
    return 1;
  }
  // The fakes answer from the examples: one that does not fit its operation is worth hearing about here.
  const examplesWarnings = events.filter((e) => e.id === "ExamplesTrait" && e.severity !== "SUPPRESSED");
  for (const e of examplesWarnings) io.err(formatDiagnostic(e));
  const warnedAbout = new Set(examplesWarnings.map((e) => e.shapeId));
  const services = args.lists.get("--service") ?? [];
  const known = [...model.shapesOfType("service")].filter((s) => !model.isBuiltin(s.id)).map((s) => s.id);
  const missing = services.filter((s) => !known.includes(s));
  if (missing.length || known.length === 0) {
    io.err(
      `error: ${known.length === 0 ? "the model has no service" : `no service ${missing.map((m) => `\`${m}\``).join(", ")} in the model (services: ${known.join(", ")})`}`,
    );
    return 1;
  }
  // People read one line per call; `--json-logs` writes one JSON object per line instead (for jq, pino tools, a log
  // shipper), and the startup and stopping notes go to stderr so that stdout stays JSON.
  const json = args.flags.has("--json-logs");
  const note = json ? io.err : io.out;
  const time = () => new Date().toISOString();
  let serve: FakeServe;
  try {
    serve = await startFakeServe(model, {
      services,
      host,
      port,
      grpcPort,
      docs: !args.flags.has("--no-docs"),
      health: !args.flags.has("--no-health"),
      ...(bodyLimit !== undefined ? { bodyLimit } : {}),
      credentials,
      accessLog: json ? (entry) => io.out(JSON.stringify(entry)) : (entry) => io.out(formatAccessLog(entry)),
      onCall: json
        ? (service, call) =>
            io.out(
              JSON.stringify({
                time: time(),
                msg: "fake answered",
                service: service.id,
                operation: call.operation,
                protocol: call.protocol,
                source: call.source,
                modeledError: call.error === true,
              }),
            )
        : (service, call) => io.out(`${service.name}.${call.operation} via ${call.protocol ?? "?"}: ${call.source}${call.error ? " (modeled error)" : ""}`),
      // The validator's warning above says what is wrong with the example, where it is; the fake adds what it does about it.
      onWarning: (message, example) => io.err(warnedAbout.has(example.operation) ? `note: ${unusableExampleNote(example)}` : `warning: ${message}`),
      onRejected: json
        ? (service, { operation, protocol, error }) =>
            io.out(JSON.stringify({ time: time(), msg: "rejected", service: service.id, operation, protocol, reason: rejectionOf(error) }))
        : (service, { operation, protocol, error }) => io.out(`${service.name}.${operation} via ${protocol}: rejected (${rejectionOf(error)})`),
      onInternalError: (error) => io.err(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    });
  } catch (e) {
    if (e instanceof UnterminatedRecursionError) {
      io.err(`error: ${e.message}`);
      return 1;
    }
    io.err(`error: ${(e as Error).message}`);
    return 1;
  }
  serve.listening.forEach((l, i) => {
    note(`${l.service} (${l.protocols.join(", ")}${l.grpc ? ", h2c" : ""})  ${l.url}`);
    if (!l.grpc && !args.flags.has("--no-docs")) note(`  explorer ${l.url}/openapi   reference ${l.url}/docs/`);
    if (!l.grpc && !args.flags.has("--no-health")) note(`  health   ${l.url}/healthz   ready ${l.url}/readyz`);
    if (l.grpc) {
      const address = l.url.replace("http://", "");
      note(`  reflection  grpcurl -plaintext ${address} list`);
      if (!args.flags.has("--no-health")) note(`  health      grpcurl -plaintext ${address} grpc.health.v1.Health/Check`);
    }
    // Once per service, after its last server.
    const last = !serve.listening.slice(i + 1).some((other) => other.service === l.service);
    if (last && l.auth.declared.length > 0) note(`  ${authLine(l.auth.declared, l.auth.enforced)}`);
  });
  const declared = new Set(serve.listening.flatMap((l) => l.auth.declared));
  for (const [flag, scheme] of SCHEME_FLAGS) {
    if (args.lists.has(flag) && !declared.has(scheme)) io.err(`note: ${flag} given, but no served service declares ${scheme}; it changes nothing`);
  }
  for (const [service, protocols] of serve.unserved) {
    if (protocols.length === 0) io.err(`note: ${service} declares no protocol; it is not served`);
    for (const protocol of protocols) io.err(`note: ${service} declares ${protocol}, which anvil serve does not implement; it is not served`);
  }
  if (serve.listening.length === 0) {
    io.err("✗ no declared protocol can be served");
    await serve.close(0);
    return 1;
  }
  note("Fakes answer from @examples (else synthesized values). Ctrl-C stops.");
  await stop();
  note("stopping…");
  await serve.close();
  return 0;
}

/** The flag that gives credentials of each auth scheme. */
const SCHEME_FLAGS: readonly (readonly [string, string])[] = [
  ["--bearer-token", "smithy.api#httpBearerAuth"],
  ["--api-key", "smithy.api#httpApiKeyAuth"],
  ["--basic", "smithy.api#httpBasicAuth"],
  ["--sigv4", "aws.auth#sigv4"],
];

/** What the startup log says of a service's auth: which schemes are enforced, and how to enforce the others. */
function authLine(declared: readonly string[], enforced: readonly string[]): string {
  const open = declared.filter((id) => !enforced.includes(id));
  const flags = open.map((id) => SCHEME_FLAGS.find(([, scheme]) => scheme === id)?.[0]).filter((f): f is string => f !== undefined);
  const hint =
    flags.length > 0
      ? ` (enforce with ${flags.map((f) => `${f} ${f === "--basic" ? "USER:PASS" : f === "--sigv4" ? "AKID:SECRET" : "VALUE"}`).join(", ")})`
      : "";
  if (enforced.length === 0) return `auth: not enforced: the model declares ${declared.join(", ")}${hint}`;
  const rest = open.length > 0 ? `; not enforced: ${open.join(", ")}${hint}` : "";
  return `auth: enforced: ${enforced.join(", ")}${rest}`;
}

/** `--bearer-token`, `--api-key`, `--basic USER:PASS` and `--sigv4 AKID:SECRET` (each repeatable); undefined when one is malformed (reported). */
function credentialsOf(args: ParsedArgs, io: Io): FakeCredentials | undefined {
  const basic: { user: string; password: string }[] = [];
  for (const value of args.lists.get("--basic") ?? []) {
    const colon = value.indexOf(":");
    if (colon <= 0) {
      io.err(`error: --basic takes USER:PASS (a user name, a colon, a password), not ${JSON.stringify(value)}`);
      return undefined;
    }
    basic.push({ user: value.slice(0, colon), password: value.slice(colon + 1) });
  }
  const sigv4: { accessKeyId: string; secretAccessKey: string }[] = [];
  for (const value of args.lists.get("--sigv4") ?? []) {
    const colon = value.indexOf(":");
    if (colon <= 0 || colon === value.length - 1) {
      io.err(`error: --sigv4 takes AKID:SECRET (an access key id, a colon, its secret access key), not ${JSON.stringify(value)}`);
      return undefined;
    }
    sigv4.push({ accessKeyId: value.slice(0, colon), secretAccessKey: value.slice(colon + 1) });
  }
  for (const flag of ["--bearer-token", "--api-key"]) {
    if ((args.lists.get(flag) ?? []).some((v) => v === "")) {
      io.err(`error: ${flag} needs a non-empty value`);
      return undefined;
    }
  }
  return { bearerTokens: args.lists.get("--bearer-token") ?? [], apiKeys: args.lists.get("--api-key") ?? [], basic, sigv4 };
}
