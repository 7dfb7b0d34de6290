/**
 * AWS Lambda over the fetch handler: each event becomes a `Request`, the
 * server answers it as it answers any fetch host, and the `Response`
 * becomes the result in the event's own format (API Gateway HTTP API 2.0
 * and REST API 1.0, function URLs, Application Load Balancer), or, for
 * response streaming, a stream written as the answer is made.
 */
import { ProtocolError } from "@anvil/core";
import { fetchHandler, type FetchHandler } from "./fetch.js";
import { type EventFormat, eventFormat, eventRequest, type RequestSettings } from "./lambda-request.js";
import { lambdaResult, streamPrelude } from "./lambda-response.js";
import type {
  AwsLambdaRuntime,
  LambdaContext,
  LambdaHandler,
  LambdaHttpEvent,
  LambdaHttpResult,
  LambdaResponseStream,
  StreamingLambdaHandler,
} from "./lambda-types.js";
import type { Server } from "./server.js";

/** Options of {@link lambdaHandler} and {@link streamingLambdaHandler}. */
export interface LambdaOptions {
  /**
   * How long before the Lambda's own timeout the call's deadline falls, in
   * milliseconds (default 500): by then the handler's signal has aborted
   * and the call is answered with the protocol's deadline error, while the
   * invocation still has the time to return it. The deadline is
   * `context.deadline` for the handler, to pass on to the calls it makes.
   */
  readonly timeoutMarginMs: number;
  /**
   * A prefix taken off every request path before routing (default none):
   * the base path of a REST API's custom domain mapping (which API Gateway
   * leaves in the path), or the prefix a load balancer rule forwards.
   */
  readonly basePath: string;
}

/** Options of {@link streamingLambdaHandler}. */
export interface StreamingLambdaOptions extends LambdaOptions {
  /**
   * The Lambda Node.js runtime's `awslambda` global (`streamifyResponse`,
   * `HttpResponseStream`). Default: the global, looked up when
   * {@link streamingLambdaHandler} is called (never when this module loads).
   */
  readonly awslambda: AwsLambdaRuntime;
}

const DEFAULTS: Readonly<LambdaOptions> = Object.freeze({ timeoutMarginMs: 500, basePath: "" });

/**
 * The server as a buffered Lambda handler: for API Gateway HTTP APIs
 * (payload 2.0 or 1.0), REST APIs (Lambda proxy integration), function URLs
 * and Application Load Balancer targets, each answered in its own format.
 * Starts the server (route conflicts and missing handlers throw here, in
 * the Lambda's init phase).
 *
 * ```ts
 * export const handler = lambdaHandler(server);
 * ```
 *
 * A malformed HTTP event (no method, a header value or base64 body no
 * request can hold) is answered 400 in its format. An event of no format
 * the adapter serves (a WebSocket API's, a queue's) is refused by throwing a
 * `ProtocolError` (code `UnsupportedLambdaEvent`): there is no answer to
 * write, and a queue's message must not pass for handled.
 */
export function lambdaHandler(server: Server<any, any>, options: Partial<LambdaOptions> = {}): LambdaHandler {
  const settings = settingsOf(options);
  const handle = fetchHandler(server);
  return (async (event: LambdaHttpEvent, context?: LambdaContext): Promise<LambdaHttpResult> => {
    const format = eventFormat(event);
    return lambdaResult(await answer(handle, event, format, context, settings), format);
  }) as LambdaHandler;
}

/**
 * The server as a response-streaming Lambda handler, for function URLs
 * with the `RESPONSE_STREAM` invoke mode: the status and headers go out
 * first, then the body as the server makes it (event streams, large
 * downloads), at the pace the stream takes it. It is what the Lambda
 * Node.js runtime's `awslambda.streamifyResponse` makes of the handler, so
 * it throws when there is no such runtime (outside Lambda, pass
 * `options.awslambda`).
 *
 * ```ts
 * export const handler = streamingLambdaHandler(server);
 * ```
 *
 * A body that fails half-way rejects the invocation, which the runtime
 * reports at the end of the stream: the caller sees a cut answer.
 */
export function streamingLambdaHandler(server: Server<any, any>, options: Partial<StreamingLambdaOptions> = {}): StreamingLambdaHandler {
  const runtime = options.awslambda ?? (globalThis as { awslambda?: AwsLambdaRuntime }).awslambda;
  if (runtime === undefined || typeof runtime.streamifyResponse !== "function" || typeof runtime.HttpResponseStream?.from !== "function") {
    throw new Error(
      "streamingLambdaHandler: there is no awslambda runtime global (streamifyResponse, HttpResponseStream.from): response streaming runs in the Lambda Node.js runtime; elsewhere pass options.awslambda",
    );
  }
  const settings = settingsOf(options);
  const handle = fetchHandler(server);
  return runtime.streamifyResponse(async (event, responseStream, context) => {
    const response = await answer(handle, event, eventFormat(event), context, settings);
    await writeStream(response, runtime.HttpResponseStream.from(responseStream, streamPrelude(response)));
  });
}

function settingsOf(options: Partial<LambdaOptions>): RequestSettings {
  const settings = { ...DEFAULTS, ...options };
  if (!(settings.timeoutMarginMs >= 0)) throw new RangeError(`lambda: timeoutMarginMs must be 0 or more milliseconds (got ${settings.timeoutMarginMs})`);
  if (typeof settings.basePath !== "string") throw new TypeError("lambda: basePath must be a string");
  return { timeoutMarginMs: settings.timeoutMarginMs, basePath: settings.basePath };
}

/** The server's answer to an event, or a 400 naming what makes a malformed event no request. */
async function answer(
  handle: FetchHandler,
  event: unknown,
  format: EventFormat,
  context: LambdaContext | undefined,
  settings: RequestSettings,
): Promise<Response> {
  let converted: ReturnType<typeof eventRequest>;
  try {
    converted = eventRequest(event as Readonly<Record<string, unknown>>, format, context, settings);
  } catch (error) {
    if (!ProtocolError.is(error)) throw error;
    return new Response(`${error.message}\n`, {
      status: error.status,
      headers: { "content-type": "text/plain; charset=utf-8", "x-amzn-errortype": error.code },
    });
  }
  return handle(converted.request, converted.info);
}

/**
 * Writes a body to the response stream as it is read, waiting for `drain`
 * when the stream is full, and ends it. A stream that closes early (the
 * caller went away) cancels the body, which aborts the call.
 */
async function writeStream(response: Response, stream: LambdaResponseStream): Promise<void> {
  const body = response.body;
  if (body === null) {
    // The runtime writes the prelude on the first write: without one, the status and headers would never go out.
    stream.write(new Uint8Array(0));
    await end(stream);
    return;
  }
  const reader = body.getReader();
  let closed = false;
  const onClose = (): void => {
    closed = true;
    void reader.cancel(new Error("lambda: the response stream closed before the answer was written"));
  };
  stream.once("close", onClose);
  stream.once("error", onClose);
  try {
    let wrote = false;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      wrote = true;
      if (!stream.write(read.value) && !closed) await drained(stream);
      if (closed) return;
    }
    if (!wrote) stream.write(new Uint8Array(0));
  } finally {
    stream.off("close", onClose);
    stream.off("error", onClose);
  }
  await end(stream);
}

/** Resolves when the stream takes more (or closes, which the writer then sees). */
function drained(stream: LambdaResponseStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off("drain", done);
      stream.off("close", done);
      stream.off("error", done);
      resolve();
    };
    stream.once("drain", done);
    stream.once("close", done);
    stream.once("error", done);
  });
}

function end(stream: LambdaResponseStream): Promise<void> {
  return new Promise((resolve) => void stream.end(() => resolve()));
}
