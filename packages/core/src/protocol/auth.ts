/**
 * Auth schemes are values, like protocols: `client-core` takes objects
 * implementing {@link AuthScheme} and never imports a scheme package. The
 * interface lives here so that a scheme (`@anvil/auth-sigv4`, or your own)
 * needs only `@anvil/core`.
 */
import type { OperationSchema, ServiceSchema } from "../schema/schema.js";
import type { HttpBody, HttpRequest, HttpResponse } from "./http.js";

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
  /**
   * Looks at an attempt that failed: returns true when the answer showed
   * the scheme signing wrongly and it has corrected itself, so that the
   * same request signed again should pass (SigV4 sets its clock by the
   * server's `Date` after a `RequestTimeTooSkewed`). The client then signs
   * and sends the request once more at once, once per call, whatever its
   * retry strategy says: the server refused it before acting on it. Absent
   * for schemes that never learn from an answer.
   */
  recoverFrom?(error: unknown, response: HttpResponse | undefined): boolean;
}

/** A secret given as a value or as a (possibly refreshing) provider. */
export type Provider<T> = T | (() => T | Promise<T>);

/** What a verifier knows of the call besides the credentials. */
export interface AuthCall {
  /** The service being called. */
  readonly service: ServiceSchema;
  /** The operation being called. */
  readonly operation: OperationSchema;
  /** The protocol trait id the request came in with. */
  readonly protocol: string;
  /** The request; its body is not read yet. */
  readonly request: HttpRequest;
  /**
   * Puts another body in place of the request's: a scheme that checks a
   * streamed body as it is read (SigV4's signed event streams) gives the
   * protocol its checking stream. Absent where the body cannot be replaced.
   */
  readonly replaceBody?: (body: HttpBody) => void;
}

/**
 * An auth scheme the server verifies, given as a value (as protocols are):
 * `sigv4Verifier()` from `@anvil/auth-sigv4`, or your own for a custom auth
 * trait. The built-in HTTP schemes (bearer, API key, basic) are configured
 * by their verifier functions in `@anvil/server`'s `auth` option instead.
 */
export interface ServerAuthScheme<Id = unknown> {
  /** The auth trait it verifies, e.g. `aws.auth#sigv4`. */
  readonly id: string;
  /** Whether the request carries credentials of this scheme at all (a cheap look at its headers or query; no verification). */
  carries(request: HttpRequest): boolean;
  /**
   * Verifies the credentials: resolves with the caller's identity, or
   * undefined when they are not valid (a 401 that says nothing of why).
   * `body` is the request body's bytes when {@link ServerAuthScheme.needsBody}
   * and the operation's body is buffered; undefined when there is none or it
   * streams.
   */
  verify(request: HttpRequest, body: Uint8Array | undefined, call: AuthCall): Id | undefined | Promise<Id | undefined>;
  /** Whether verification needs the body (read first, within the operation's body limit), as a signature over the payload does. */
  readonly needsBody?: boolean;
  /** The `WWW-Authenticate` challenge of a 401, when the scheme has one. */
  challenge?(service: ServiceSchema): string | undefined;
}

/** The value of `@httpApiKeyAuth`: where the API key goes. */
export interface HttpApiKeyTrait {
  /** The header or query parameter that carries the key. */
  readonly name: string;
  /** Where: `header` or `query`. */
  readonly in: "header" | "query";
  /** In a header, the scheme written before the key (`Authorization: ApiKey <key>`). */
  readonly scheme?: string;
}

/** A service's `@httpApiKeyAuth`, when it has a well-formed one. */
export function httpApiKeyTrait(service: ServiceSchema): HttpApiKeyTrait | undefined {
  const value = service.traits["smithy.api#httpApiKeyAuth"] as Partial<HttpApiKeyTrait> | undefined;
  if (value === undefined || typeof value.name !== "string" || (value.in !== "header" && value.in !== "query")) return undefined;
  return { name: value.name, in: value.in, ...(typeof value.scheme === "string" ? { scheme: value.scheme } : {}) };
}

/** The trait that stands for "no authentication" in an auth list. */
export const NO_AUTH = "smithy.api#noAuth";

/** The auth an operation takes, as the model says: the schemes in order of preference, and whether a call may come without any. */
export interface EffectiveAuth {
  /** Auth scheme trait ids, most preferred first; empty for an anonymous operation. */
  readonly schemes: readonly string[];
  /** Whether a call without credentials is served too: `@optionalAuth`, `smithy.api#noAuth` in the list, or no scheme at all. */
  readonly optional: boolean;
}

/**
 * The auth schemes of an operation, following Smithy's rules: the
 * operation's `@auth` list, else the service's `@auth` list, else every auth
 * scheme trait on the service in alphabetical order of shape id. A list
 * stops at `smithy.api#noAuth`, which makes the schemes before it optional;
 * `@auth([])` makes the operation anonymous.
 */
export function effectiveAuth(service: ServiceSchema, operation: OperationSchema): EffectiveAuth {
  const serviceAuth = service.traits["smithy.api#auth"];
  const listed = operation.traits.auth ?? (Array.isArray(serviceAuth) ? (serviceAuth as readonly string[]) : [...service.auth].sort());
  const stop = listed.indexOf(NO_AUTH);
  const schemes = stop < 0 ? listed : listed.slice(0, stop);
  return { schemes, optional: stop >= 0 || schemes.length === 0 || operation.traits.optionalAuth === true };
}
