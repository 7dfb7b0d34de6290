/** Smithy's built-in HTTP auth schemes: `@httpBearerAuth` and `@httpApiKeyAuth`. */
import type { AuthScheme, HttpRequest, Provider, SigningContext } from "@anvil/core";
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

interface ApiKeyTrait {
  readonly name: string;
  readonly in: "header" | "query";
  readonly scheme?: string;
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
      const trait = context.service.traits[id] as ApiKeyTrait | undefined;
      if (trait === undefined) throw new TypeError(`httpApiKeyAuth: service ${context.service.id} has no @httpApiKeyAuth trait`);
      const key = await resolveProvider(options.apiKey);
      if (trait.in === "query") return { ...request, query: [...request.query, [trait.name, key]] };
      const headers = new Headers(request.headers);
      headers.set(trait.name, trait.scheme === undefined ? key : `${trait.scheme} ${key}`);
      return withHeaders(request, headers);
    },
  });
}
