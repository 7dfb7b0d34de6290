/**
 * Runs one `httpMalformedRequestTests` case: the case's request goes
 * through `@anvil/server`'s dispatcher (routing, deserialization,
 * validation) with the protocol under test, behind handlers that must never
 * be reached, and the answer is compared with the expected status, headers
 * and body (`contents` compared as the media type says, `messageRegex`
 * against the body's `message`). The result is a list of problems, empty
 * when the case passes.
 */
import type { HttpRequest, ServerProtocol, ServiceSchema } from "@anvil/core";
import { parseQuery } from "@anvil/core/protocol";
import type { Model } from "@anvil/model";
import { createDispatcher, type Dispatcher, type HandlerContext } from "@anvil/server";
import type { MalformedRequestCase, MalformedResponseBody } from "./cases.js";
import { bodyBytesOf, bodyProblems, caseBodyBytes, headerProblems } from "./http-compare.js";
import { targetOf } from "./run-case.js";

/** Requests whose handler ran (a malformed request must be rejected before it). */
const reached = new WeakMap<HttpRequest, unknown>();

/** Every operation's handler: records that it was reached. */
const unreachable = (input: unknown, context: HandlerContext): never => {
  reached.set(context.request, input);
  throw new Error("the handler of a malformed request was reached");
};

/** One dispatcher per service and protocol, as a server would compile it once. */
const dispatchers = new WeakMap<ServiceSchema, Map<ServerProtocol, Dispatcher>>();

function dispatcherFor(service: ServiceSchema, protocol: ServerProtocol): Dispatcher {
  let byProtocol = dispatchers.get(service);
  if (byProtocol === undefined) dispatchers.set(service, (byProtocol = new Map()));
  let dispatch = byProtocol.get(protocol);
  if (dispatch === undefined) {
    const handlers = Object.fromEntries(Object.keys(service.operations).map((key) => [key, unreachable]));
    dispatch = createDispatcher({ service, protocols: [protocol], handlers });
    byProtocol.set(protocol, dispatch);
  }
  return dispatch;
}

/** The request of a malformed case, as a transport would hand it to the server. */
export function malformedRequestOf(c: MalformedRequestCase): HttpRequest {
  const r = c.request;
  const q = r.uri.indexOf("?");
  const path = q < 0 ? r.uri : r.uri.slice(0, q);
  const search = q < 0 ? "" : r.uri.slice(q + 1);
  return {
    method: r.method,
    path,
    query: [...parseQuery(search), ...r.queryParams.flatMap((p) => parseQuery(p))],
    headers: new Headers(r.headers),
    body: r.body === undefined ? undefined : caseBodyBytes(r.body, r.bodyMediaType ?? r.headers["content-type"]),
    ...(r.host !== undefined ? { host: r.host } : {}),
  };
}

/** Runs a malformed-request case against a server protocol. */
export async function runMalformedCase(server: ServerProtocol, model: Model, c: MalformedRequestCase): Promise<string[]> {
  const { service } = targetOf(model, c);
  const request = malformedRequestOf(c);
  const response = await dispatcherFor(service, server)(request);
  const problems: string[] = [];
  if (reached.has(request)) problems.push(`the handler was reached with ${JSON.stringify(reached.get(request), jsonSafe)}`);
  if (response.status !== c.response.code) problems.push(`status: expected ${c.response.code}, got ${response.status}`);
  problems.push(...headerProblems(response.headers, c.response.headers, [], []));
  if (c.response.body !== undefined) problems.push(...malformedBodyProblems(await bodyBytesOf(response.body), c.response.body));
  return problems;
}

/** Problems with the body of a malformed-request answer. */
export function malformedBodyProblems(actual: Uint8Array, expected: MalformedResponseBody): string[] {
  const assertion = expected.assertion;
  if ("contents" in assertion) return bodyProblems(actual, assertion.contents, expected.mediaType);
  const text = new TextDecoder().decode(actual);
  let message: unknown;
  try {
    message = (JSON.parse(text) as { message?: unknown }).message;
  } catch {
    return [`body: expected JSON with a message matching /${assertion.messageRegex}/, got ${JSON.stringify(text.slice(0, 160))}`];
  }
  if (typeof message !== "string") return [`body: expected a message matching /${assertion.messageRegex}/, got ${JSON.stringify(text.slice(0, 160))}`];
  return new RegExp(assertion.messageRegex).test(message) ? [] : [`body message: expected /${assertion.messageRegex}/, got ${JSON.stringify(message)}`];
}

const jsonSafe = (_key: string, value: unknown): unknown => (typeof value === "bigint" ? `${value}n` : value);
