/**
 * Auth schemes are values, like protocols: `client-core` takes objects
 * implementing {@link AuthScheme} and never imports a scheme package. The
 * interface lives here so that a scheme (`@anvil/auth-sigv4`, or your own)
 * needs only `@anvil/core`.
 */
import type { OperationSchema, ServiceSchema } from "../schema/schema.js";
import type { HttpRequest } from "./http.js";

/** What a scheme knows of the call it signs. */
export interface SigningContext {
  /** The service being called. */
  readonly service: ServiceSchema;
  /** The operation being called. */
  readonly operation: OperationSchema;
  /** The endpoint the request goes to, e.g. `https://api.example.com/base`. */
  readonly endpoint: URL;
  /** The call's abort signal, when it has one; a scheme that fetches credentials should honour it. */
  readonly signal?: AbortSignal;
}

/** Signs requests for one auth trait. */
export interface AuthScheme {
  /** The auth trait's shape id, e.g. `aws.auth#sigv4` or `smithy.api#httpBearerAuth`. */
  readonly id: string;
  /** Returns the request to send: the one given with its credentials added. Called once per attempt. */
  sign(request: HttpRequest, context: SigningContext): Promise<HttpRequest>;
}

/** A secret given as a value or as a (possibly refreshing) provider. */
export type Provider<T> = T | (() => T | Promise<T>);
