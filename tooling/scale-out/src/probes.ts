/**
 * Probes that talk to one instance directly, not through nginx, to see what
 * it does while it drains. Its listeners stop taking connections the moment
 * it is told to stop, so these hold connections open from before: an
 * HTTP/1.1 request to `/readyz` whose head is not finished yet (a connection
 * with a request under way is not idle, so it is not closed with the idle
 * ones), an upload under way (a call in flight, which the drain waits for),
 * and an HTTP/2 session with a gRPC health `Watch` on it.
 */
import * as http2 from "node:http2";
import { connect, type Socket } from "node:net";

/** An answer read off a raw socket. */
export interface RawAnswer {
  /** The final status (a `100 Continue` before it left out). */
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Whether the server closed the connection after the answer. */
  readonly closed: boolean;
}

/** A request sent all but its end; `finish()` sends the rest and reads the answer, until the server closes. */
export interface HeldRequest {
  finish(): Promise<RawAnswer>;
}

/**
 * Opens a connection to 127.0.0.1:`port`, writes `head`, and resolves once
 * `ready` (if given) appears in what the server sent back. `rest` is what
 * `finish()` writes.
 */
async function holdRequest(port: number, head: string, rest: string, ready?: string): Promise<HeldRequest> {
  const socket: Socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let received = "";
  let serverClosed = false;
  let onData = (): void => undefined;
  socket.setEncoding("latin1").on("data", (chunk: string) => {
    received += chunk;
    onData();
  });
  socket.once("end", () => (serverClosed = true));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.on("error", () => undefined);
  socket.write(head);
  if (ready !== undefined) {
    await Promise.race([
      new Promise<void>((resolve) => {
        onData = () => {
          if (received.includes(ready)) resolve();
        };
      }),
      closed.then(() => {
        throw new Error(`127.0.0.1:${port} closed before answering ${JSON.stringify(ready)}: ${JSON.stringify(received)}`);
      }),
    ]);
  }
  return {
    async finish() {
      socket.write(rest);
      // The server closes after the answer (`Connection: close`); a bound in case it does not.
      const timer = setTimeout(() => socket.destroy(), 5_000);
      await closed;
      clearTimeout(timer);
      const answer = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, "");
      const split = answer.indexOf("\r\n\r\n");
      const [statusLine = "", ...fields] = (split < 0 ? answer : answer.slice(0, split)).split("\r\n");
      const headers: Record<string, string> = {};
      for (const field of fields) {
        const colon = field.indexOf(":");
        headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
      }
      const body = split < 0 ? "" : answer.slice(split + 4);
      return { status: Number(statusLine.split(" ")[1]), headers, body: dechunk(body, headers), closed: serverClosed };
    },
  };
}

/**
 * A `GET /readyz` short of the empty line that ends its head: the server has
 * a request under way on the connection, so it does not close it as idle,
 * and routes it only once `finish()` sends that line.
 */
export function holdReadinessRequest(port: number): Promise<HeldRequest> {
  return holdRequest(port, "GET /readyz HTTP/1.1\r\nHost: probe\r\n", "\r\n");
}

/**
 * A photo upload (`PutCityPhoto`, restJson1) with half its body sent:
 * resolves once the server said `100 Continue`, that is once its handler
 * reads the body, so the call is under way and holds the drain open (up to
 * the grace period) until `finish()` sends the other half.
 */
export function holdUpload(port: number): Promise<HeldRequest> {
  const head = [
    "PUT /cities/paris/photos/drain/probe.png HTTP/1.1",
    "Host: probe",
    "Content-Type: image/png",
    "Content-Length: 8",
    "Expect: 100-continue",
    "",
    "",
  ].join("\r\n");
  return holdRequest(port, `${head}half`, "more", "100 Continue");
}

function dechunk(body: string, headers: Record<string, string>): string {
  if (headers["transfer-encoding"] !== "chunked") return body;
  let out = "";
  let rest = body;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** gRPC health statuses (grpc.health.v1.HealthCheckResponse.ServingStatus). */
const SERVING_STATUS = ["UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"] as const;

/** A gRPC health `Watch` on a session of its own. */
export interface HealthWatch {
  /** The statuses heard so far. */
  readonly statuses: readonly string[];
  /** The GOAWAY frames the session got (error code, last stream id). */
  readonly goaways: readonly { readonly code: number; readonly lastStreamId: number }[];
  /** How many PINGs the server sent. */
  readonly pings: number;
  /** The call's grpc-status once it ended. */
  readonly ended: Promise<string | undefined>;
  close(): void;
}

/**
 * Watches the overall health of the gRPC server on 127.0.0.1:`port`
 * (`grpc.health.v1.Health/Watch` with an empty service name), over raw
 * HTTP/2 frames so that the session's GOAWAYs are seen too. Resolves once
 * the first status arrived.
 */
export async function watchHealth(port: number): Promise<HealthWatch> {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on("error", () => undefined);
  const goaways: { code: number; lastStreamId: number }[] = [];
  session.on("goaway", (code, lastStreamId) => goaways.push({ code, lastStreamId }));
  let pings = 0;
  session.on("ping", () => pings++);
  const stream = session.request({ ":method": "POST", ":path": "/grpc.health.v1.Health/Watch", "content-type": "application/grpc", te: "trailers" });
  stream.on("error", () => undefined);
  // One gRPC message: not compressed, 0 bytes (HealthCheckRequest with no service named).
  stream.end(Buffer.alloc(5));
  const statuses: string[] = [];
  let first: () => void = () => undefined;
  const heard = new Promise<void>((resolve) => (first = resolve));
  let pending = Buffer.alloc(0);
  stream.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 5 && pending.length >= 5 + pending.readUInt32BE(1)) {
      const message = pending.subarray(5, 5 + pending.readUInt32BE(1));
      pending = pending.subarray(5 + message.length);
      // HealthCheckResponse { status = 1 (varint) }: absent means 0.
      statuses.push(SERVING_STATUS[message.length >= 2 && message[0] === 0x08 ? message[1]! : 0] ?? "UNKNOWN");
      first();
    }
  });
  const ended = new Promise<string | undefined>((resolve) => {
    stream.on("trailers", (trailers) => resolve(String(trailers["grpc-status"])));
    stream.on("close", () => resolve(undefined));
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no health status from 127.0.0.1:${port} within 5 s`)), 5_000);
  });
  try {
    await Promise.race([heard, late]);
  } catch (error) {
    session.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    statuses,
    goaways,
    get pings() {
      return pings;
    },
    ended,
    close: () => session.destroy(),
  };
}

/** What a new connection to 127.0.0.1:`port` meets: `connected`, or the error code (ECONNREFUSED). */
export function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/**
 * `grpc.health.v1.Health/Check` on 127.0.0.1:`port` for `service` ("" for
 * the server as a whole), as Kubernetes' `grpc` probe makes it: the status
 * answered (`SERVING`, ...), or the gRPC status name of a failed call.
 */
export async function checkHealth(port: number, service: string): Promise<string> {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on("error", () => undefined);
  try {
    const name = Buffer.from(service, "utf8");
    // HealthCheckRequest { service = 1 (string) }, left out when empty (proto3).
    const message = name.length === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.from([0x0a, name.length]), name]);
    const frame = Buffer.alloc(5 + message.length);
    frame.writeUInt32BE(message.length, 1);
    message.copy(frame, 5);
    const stream = session.request({ ":method": "POST", ":path": "/grpc.health.v1.Health/Check", "content-type": "application/grpc", te: "trailers" });
    stream.on("error", () => undefined);
    stream.end(frame);
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    const grpcStatus = await new Promise<string>((resolve) => {
      stream.on("trailers", (trailers) => resolve(String(trailers["grpc-status"])));
      stream.on("response", (headers) => {
        if (headers["grpc-status"] !== undefined) resolve(String(headers["grpc-status"]));
      });
      stream.on("close", () => resolve("closed without a status"));
    });
    if (grpcStatus !== "0") return `grpc-status ${grpcStatus}`;
    const body = Buffer.concat(chunks).subarray(5);
    return SERVING_STATUS[body.length >= 2 && body[0] === 0x08 ? body[1]! : 0] ?? "UNKNOWN";
  } finally {
    session.destroy();
  }
}
