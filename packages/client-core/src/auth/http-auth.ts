/** Smithy's built-in HTTP auth schemes: `@httpBearerAuth`, `@httpApiKeyAuth` and `@httpBasicAuth`. */
import type { AuthScheme, HttpRequest, Provider, SigningContext } from "@anvil/core";
import { httpApiKeyTrait } from "@anvil/core/protocol";
import { resolveProvider, withHeaders } from "./auth-scheme.js";

/** Settings of {@link httpBearerAuth}. */
export interface BearerAuthOptions {
  /** The bearer token, or a function returning the current one. */
  readonly token: Provider<string>;
}

/** `smithy.api#httpBearerAuth`: sends `Authorization: Bearer <token>`. */
export function httpBearerAuth(options: BearerAuthOptions): AuthScheme {
  return Object.freeze({
    id: "smithy.api#httpBearerAuth",
    async sign(request: HttpRequest): Promise<HttpRequest> {
      const headers = new Headers(request.headers);
      headers.set("authorization", `Bearer ${await resolveProvider(options.token)}`);
      return withHeaders(request, headers);
    },
  });
}

/** Settings of {@link httpApiKeyAuth}. */
export interface ApiKeyAuthOptions {
  /** The API key, or a function returning the current one. */
  readonly apiKey: Provider<string>;
}

/**
 * `smithy.api#httpApiKeyAuth`: sends the key where the service's trait says
 * (a header, with the trait's `scheme` before it, or a query parameter).
 */
export function httpApiKeyAuth(options: ApiKeyAuthOptions): AuthScheme {
  const id = "smithy.api#httpApiKeyAuth";
  return Object.freeze({
    id,
    async sign(request: HttpRequest, context: SigningContext): Promise<HttpRequest> {
      const trait = httpApiKeyTrait(context.service);
      if (trait === undefined) throw new TypeError(`httpApiKeyAuth: service ${context.service.id} has no @httpApiKeyAuth trait`);
      const key = await resolveProvider(options.apiKey);
      if (trait.in === "query") return { ...request, query: [...request.query, [trait.name, key]] };
      const headers = new Headers(request.headers);
      headers.set(trait.name, trait.scheme === undefined ? key : `${trait.scheme} ${key}`);
      return withHeaders(request, headers);
    },
  });
}

/** Settings of {@link httpBasicAuth}. */
export interface BasicAuthOptions {
  /** The user name and password, or a function returning the current ones. */
  readonly credentials: Provider<{ readonly user: string; readonly password: string }>;
}

/** `smithy.api#httpBasicAuth`: sends `Authorization: Basic <base64(user:password)>` (RFC 7617, UTF-8). */
export function httpBasicAuth(options: BasicAuthOptions): AuthScheme {
  return Object.freeze({
    id: "smithy.api#httpBasicAuth",
    async sign(request: HttpRequest): Promise<HttpRequest> {
      const { user, password } = await resolveProvider(options.credentials);
      if (user.includes(":")) throw new TypeError("httpBasicAuth: a user name cannot contain a colon");
      const bytes = new TextEncoder().encode(`${user}:${password}`);
      let binary = "";
      for (const byte of bytes) binary += String.fromCharCode(byte);
      const headers = new Headers(request.headers);
      headers.set("authorization", `Basic ${btoa(binary)}`);
      return withHeaders(request, headers);
    },
  });
}
