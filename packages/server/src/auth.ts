/**
 * Authentication from the model. The service's auth traits say which
 * schemes each operation takes (`effectiveAuth`); the server's options give
 * a verifier per scheme, which turns the credentials a request carries into
 * the caller's identity. Calls are authenticated after routing and before
 * the body is read or the input validated.
 */
import { type AuthCall, type HttpRequest, type OperationSchema, ProtocolError, type ServerAuthScheme, type ServiceSchema } from "@anvil/core";
import { effectiveAuth, type HttpApiKeyTrait, httpApiKeyTrait } from "@anvil/core/protocol";

/** `@httpBearerAuth`: `Authorization: Bearer <token>`. */
export const HTTP_BEARER_AUTH = "smithy.api#httpBearerAuth";
/** `@httpApiKeyAuth`: a key in a header (optionally after a scheme) or a query parameter. */
export const HTTP_API_KEY_AUTH = "smithy.api#httpApiKeyAuth";
/** `@httpBasicAuth`: `Authorization: Basic <base64(user:password)>`. */
export const HTTP_BASIC_AUTH = "smithy.api#httpBasicAuth";

/**
 * Checks one kind of credential: resolves with the caller's identity, or
 * `undefined` when the credential is not valid (the caller gets a 401 that
 * does not say why). Throwing is a server failure (a 500).
 */
export type Verifier<C, Id> = (credential: C, call: AuthCall) => Id | undefined | Promise<Id | undefined>;

/** A user name and password, as `@httpBasicAuth` sends them. */
export interface BasicCredentials {
  /** The user name: what comes before the first colon. */
  readonly user: string;
  /** The password: everything after the first colon (it may hold colons). */
  readonly password: string;
}

/**
 * The verifiers of the auth schemes a server accepts. An operation is
 * authenticated when the model gives it a scheme with a verifier here; the
 * first of its schemes (in the model's order of preference) whose
 * credentials the request carries is the one checked.
 */
export interface AuthOptions<Id> {
  /** `@httpBearerAuth`: the token of `Authorization: Bearer <token>`. */
  readonly bearer?: Verifier<string, Id>;
  /** `@httpApiKeyAuth`: the key, from the header or query parameter the trait names (without its `scheme` prefix). */
  readonly apiKey?: Verifier<string, Id>;
  /** `@httpBasicAuth`: the user and password of `Authorization: Basic ...`. */
  readonly basic?: Verifier<BasicCredentials, Id>;
  /** Other schemes, as values: `sigv4Verifier()` from `@anvil/auth-sigv4` for `aws.auth#sigv4`, or your own. */
  readonly schemes?: readonly ServerAuthScheme<Id>[];
  /**
   * Serve operations whose schemes all lack a verifier here without
   * authentication, instead of refusing to start. For tools (`anvil serve`
   * enforces only the schemes it is given credentials for); a service
   * should configure every scheme its model declares.
   */
  readonly allowUnverified?: boolean;
}

/** The error type of a 401: the call carries no valid credentials for the operation. */
export const UNAUTHENTICATED = "UnauthenticatedException";
/** The error type of a 403: the caller is known and may not make this call. */
export const ACCESS_DENIED = "AccessDeniedException";

/**
 * The error that refuses a call as not authenticated (401, gRPC
 * UNAUTHENTICATED). Its message says nothing of why.
 */
export function unauthenticated(): ProtocolError {
  return new ProtocolError(UNAUTHENTICATED, 401, "the request is not authenticated");
}

/**
 * The error an interceptor throws to refuse an authenticated caller (403,
 * gRPC PERMISSION_DENIED). The message goes to the caller: keep reasons out
 * of it.
 */
export function accessDenied(message = "access denied"): ProtocolError {
  return new ProtocolError(ACCESS_DENIED, 403, message);
}

/** What a credential extractor found: nothing of its scheme, credentials, or something of its scheme that is not well formed. */
type Found<C> = { readonly credential: C } | "absent" | "malformed";

/** One scheme of an operation, compiled: where its credentials are and who checks them. */
interface CompiledScheme {
  readonly id: string;
  readonly extract: (request: HttpRequest) => Found<unknown>;
  readonly verify: Verifier<unknown, unknown>;
  /** A scheme value that verifies with the body, after it is read. */
  readonly withBody?: ServerAuthScheme<unknown>;
}

/** How one operation is authenticated. */
export interface OperationAuth {
  readonly schemes: readonly CompiledScheme[];
  /** Calls without any credentials are served, with no identity. */
  readonly optional: boolean;
  /** The `WWW-Authenticate` challenges of a 401, one per scheme that has one. */
  readonly challenges: string | undefined;
}

/**
 * The verification of a call whose scheme needs the body: run once the body
 * is read (its bytes, or undefined for none or a stream).
 */
export class BodyCheck {
  constructor(
    private readonly scheme: ServerAuthScheme<unknown>,
    private readonly call: AuthCall,
  ) {}

  /** Verifies the call with its body; rejects with a 401 when the credentials are not valid. */
  run(body: Uint8Array | undefined): Promise<{ readonly identity: unknown }> {
    try {
      return Promise.resolve(this.scheme.verify(this.call.request, body, this.call)).then(checked);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

/** The result of authenticating a call: its identity (undefined for an anonymous call), now or later, or a check to run with the body. */
export type Authenticated = { readonly identity: unknown } | Promise<{ readonly identity: unknown }> | BodyCheck;

const ANONYMOUS = Object.freeze({ identity: undefined });

/**
 * Compiles how each operation of a service is authenticated, by operation;
 * an operation served without authentication has no entry. Throws when an
 * operation needs a scheme no verifier is given for (unless
 * `allowUnverified`).
 */
export function compileAuth(service: ServiceSchema, options: AuthOptions<unknown>): Map<OperationSchema, OperationAuth> {
  const out = new Map<OperationSchema, OperationAuth>();
  const missing: string[] = [];
  for (const [key, operation] of Object.entries(service.operations)) {
    const { schemes, optional } = effectiveAuth(service, operation);
    if (schemes.length === 0) continue;
    const compiled = schemes.flatMap((id) => {
      const scheme = compileScheme(id, service, options);
      return scheme === undefined ? [] : [scheme];
    });
    if (compiled.length === 0) {
      if (!optional) missing.push(`${key} (${schemes.join(", ")})`);
      continue;
    }
    const challenges = compiled
      .flatMap((s) => challengeOf(s.id, service) ?? options.schemes?.find((given) => given.id === s.id)?.challenge?.(service) ?? [])
      .join(", ");
    out.set(operation, { schemes: compiled, optional, challenges: challenges === "" ? undefined : challenges });
  }
  if (missing.length > 0 && options.allowUnverified !== true) {
    throw new Error(
      `${service.id}: no verifier is configured for the auth schemes of ${missing.join("; ")}; ` +
        "give one in options.auth (bearer, apiKey, basic, or a scheme value in schemes), or allowUnverified: true to serve them without authentication",
    );
  }
  return out;
}

/** The operations of a service that {@link compileAuth} would serve without authentication although the model gives them schemes. */
export function unverifiedOperations(service: ServiceSchema, auth: ReadonlyMap<OperationSchema, OperationAuth>): string[] {
  return Object.entries(service.operations)
    .filter(([, operation]) => !auth.has(operation) && effectiveAuth(service, operation).schemes.length > 0)
    .map(([key]) => key);
}

/**
 * Authenticates a call: the first scheme whose credentials the request
 * carries decides (well-formed and verified: the identity; else a 401);
 * with none, an optional operation is served anonymously and any other is
 * refused with a 401.
 */
export function authenticate(auth: OperationAuth, call: AuthCall): Authenticated {
  for (const scheme of auth.schemes) {
    const found = scheme.extract(call.request);
    if (found === "absent") continue;
    if (found === "malformed") throw unauthenticated();
    if (scheme.withBody !== undefined) return new BodyCheck(scheme.withBody, call);
    const identity = scheme.verify(found.credential, call);
    if (identity instanceof Promise) return identity.then(checked);
    return checked(identity);
  }
  if (auth.optional) return ANONYMOUS;
  throw unauthenticated();
}

/** An identity, or a 401 when the verifier said no. */
function checked(identity: unknown): { readonly identity: unknown } {
  if (identity === undefined || identity === null || identity === false) throw unauthenticated();
  return { identity };
}

function compileScheme(id: string, service: ServiceSchema, options: AuthOptions<unknown>): CompiledScheme | undefined {
  switch (id) {
    case HTTP_BEARER_AUTH:
      return options.bearer && { id, extract: bearerToken, verify: options.bearer as Verifier<unknown, unknown> };
    case HTTP_BASIC_AUTH:
      return options.basic && { id, extract: basicCredentials, verify: options.basic as Verifier<unknown, unknown> };
    case HTTP_API_KEY_AUTH: {
      const trait = httpApiKeyTrait(service);
      return options.apiKey && trait && { id, extract: apiKeyExtractor(trait), verify: options.apiKey as Verifier<unknown, unknown> };
    }
    default: {
      const given = options.schemes?.find((s) => s.id === id);
      if (given === undefined) return undefined;
      return {
        id,
        extract: (request) => (given.carries(request) ? { credential: request } : "absent"),
        verify: (request, call) => given.verify(request as HttpRequest, undefined, call),
        ...(given.needsBody === true ? { withBody: given } : {}),
      };
    }
  }
}

/** The `WWW-Authenticate` challenge of a scheme (RFC 7235), when it has one. */
function challengeOf(id: string, service: ServiceSchema): string | undefined {
  const realm = `realm="${service.name}"`;
  switch (id) {
    case HTTP_BEARER_AUTH:
      return `Bearer ${realm}`;
    case HTTP_BASIC_AUTH:
      return `Basic ${realm}, charset="UTF-8"`;
    case HTTP_API_KEY_AUTH: {
      const scheme = httpApiKeyTrait(service)?.scheme;
      return scheme === undefined ? undefined : `${scheme} ${realm}`;
    }
    default:
      return undefined;
  }
}

/** The credentials of a `<scheme> <credentials>` header value, the scheme compared case-insensitively (RFC 7235); undefined for another scheme. */
function credentialsOf(header: string, scheme: string): string | undefined {
  const space = header.indexOf(" ");
  const name = space < 0 ? header : header.slice(0, space);
  if (name.toLowerCase() !== scheme.toLowerCase()) return undefined;
  return space < 0 ? "" : header.slice(space + 1).trim();
}

/** The credentials of `Authorization: <scheme> <credentials>`; undefined without the header or for another scheme. */
function authorizationOf(request: HttpRequest, scheme: string): string | undefined {
  const header = request.headers.get("authorization");
  return header === null ? undefined : credentialsOf(header, scheme);
}

/** A token68 (RFC 7235 §2.1), as bearer tokens are written. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

function bearerToken(request: HttpRequest): Found<string> {
  const token = authorizationOf(request, "Bearer");
  if (token === undefined) return "absent";
  return TOKEN68.test(token) ? { credential: token } : "malformed";
}

function basicCredentials(request: HttpRequest): Found<BasicCredentials> {
  const encoded = authorizationOf(request, "Basic");
  if (encoded === undefined) return "absent";
  if (!TOKEN68.test(encoded)) return "malformed";
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return "malformed";
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return "malformed";
  return { credential: { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) } };
}

function apiKeyExtractor(trait: HttpApiKeyTrait): (request: HttpRequest) => Found<string> {
  if (trait.in === "query") {
    return (request) => {
      const pair = request.query.find(([name]) => name === trait.name);
      if (pair === undefined) return "absent";
      return pair[1] === "" ? "malformed" : { credential: pair[1] };
    };
  }
  const scheme = trait.scheme;
  // Authorization may carry another scheme's credentials (a bearer token next to an API key scheme): those are not this scheme's.
  const shared = trait.name.toLowerCase() === "authorization";
  return (request) => {
    const header = request.headers.get(trait.name);
    if (header === null) return "absent";
    const key = scheme === undefined ? header : credentialsOf(header, scheme);
    if (key === undefined) return shared ? "absent" : "malformed";
    return key === "" ? "malformed" : { credential: key };
  };
}
