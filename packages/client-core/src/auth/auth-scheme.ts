/**
 * Auth is pluggable: an `AuthScheme` (core's interface) signs a request for
 * the auth trait it stands for, and the client picks, per operation, the
 * first scheme the model lists (`@auth` on the operation, else the service's
 * auth traits) that the configuration provides.
 */
import type { AuthScheme, HttpRequest, OperationSchema, Provider, ServiceSchema } from "@anvil/core";
import { effectiveAuth } from "@anvil/core/protocol";
/** AWS Signature Version 4, whose scheme is `sigv4()` from `@anvil/auth-sigv4`. */
const SIGV4 = "aws.auth#sigv4";

/**
 * The scheme an operation is signed with: the first of its effective auth
 * schemes (`effectiveAuth`: the operation's `@auth`, else the service's,
 * else the service's auth traits) that `schemes` has; `undefined` (sent
 * unsigned) when none is configured or the list picks `smithy.api#noAuth`
 * first.
 */
export function selectAuthScheme(service: ServiceSchema, operation: OperationSchema, schemes: readonly AuthScheme[]): AuthScheme | undefined {
  for (const id of effectiveAuth(service, operation).schemes) {
    const scheme = schemes.find((s) => s.id === id);
    if (scheme !== undefined) return scheme;
  }
  return undefined;
}

/**
 * Throws a TypeError when an operation the model says to sign with SigV4
 * would go unsigned: no configured scheme is picked for it, `aws.auth#sigv4`
 * is the only scheme of its auth list (before any `smithy.api#noAuth`) and
 * it is not `@optionalAuth`. AWS rejects unsigned requests, so a client
 * without `sigv4()` is a configuration mistake, reported when the client is
 * made. An operation that offers other schemes too may be called without
 * one (the caller may send its own `Authorization`).
 */
export function assertSigV4Configured(service: ServiceSchema, schemes: readonly AuthScheme[]): void {
  if (schemes.some((s) => s.id === SIGV4)) return;
  for (const [name, operation] of Object.entries(service.operations)) {
    const auth = effectiveAuth(service, operation);
    if (auth.optional || selectAuthScheme(service, operation, schemes) !== undefined) continue;
    // Only where SigV4 is the one way in (as for AWS services): with other schemes offered, an unsigned call may be meant.
    if (auth.schemes.length === 1 && auth.schemes[0] === SIGV4) {
      throw new TypeError(
        `createClient: ${service.id} signs ${name} with ${SIGV4}, and no scheme for it is configured; ` +
          `pass auth: [sigv4({ region })] from @anvil/auth-sigv4`,
      );
    }
  }
}

/** Resolves a {@link Provider}. */
export async function resolveProvider<T>(provider: Provider<T>): Promise<T> {
  return typeof provider === "function" ? (provider as () => T | Promise<T>)() : provider;
}

/** The request with other headers. */
export function withHeaders(request: HttpRequest, headers: Headers): HttpRequest {
  return { ...request, headers };
}
