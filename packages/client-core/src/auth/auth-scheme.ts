/**
 * Auth is pluggable: an {@link AuthScheme} signs a request for the auth trait
 * it stands for, and the client picks, per operation, the first scheme the
 * model lists (`@auth` on the operation, else the service's auth traits) that
 * the configuration provides.
 */
import type { HttpRequest, OperationSchema, ServiceSchema } from "@anvil/core";

/** What a scheme knows of the call it signs. */
export interface SigningContext {
  readonly service: ServiceSchema;
  readonly operation: OperationSchema;
  readonly endpoint: URL;
  readonly signal?: AbortSignal;
}

/** Signs requests for one auth trait. */
export interface AuthScheme {
  /** The auth trait's shape id, e.g. `aws.auth#sigv4` or `smithy.api#httpBearerAuth`. */
  readonly id: string;
  /** Returns the request to send: the one given with its credentials added. Called once per attempt. */
  sign(request: HttpRequest, context: SigningContext): Promise<HttpRequest>;
}

/** The scheme trait that turns auth off for an operation. */
const NO_AUTH = "smithy.api#noAuth";

/**
 * The scheme an operation is signed with: the first of the operation's
 * `@auth` list (or else the service's auth traits, in order) that `schemes`
 * has; `undefined` (sent unsigned) when none is configured or the list picks
 * `smithy.api#noAuth` first.
 */
export function selectAuthScheme(service: ServiceSchema, operation: OperationSchema, schemes: readonly AuthScheme[]): AuthScheme | undefined {
  const ids = operation.traits.auth ?? service.auth;
  for (const id of ids) {
    if (id === NO_AUTH) return undefined;
    const scheme = schemes.find((s) => s.id === id);
    if (scheme !== undefined) return scheme;
  }
  return undefined;
}

/** A secret given as a value or as a (possibly refreshing) provider. */
export type Provider<T> = T | (() => T | Promise<T>);

/** Resolves a {@link Provider}. */
export async function resolveProvider<T>(provider: Provider<T>): Promise<T> {
  return typeof provider === "function" ? (provider as () => T | Promise<T>)() : provider;
}

/** The request with other headers. */
export function withHeaders(request: HttpRequest, headers: Headers): HttpRequest {
  return { ...request, headers };
}
