/**
 * `@aws.protocols#awsQueryCompatible`: services moved off awsQuery keep their
 * old error codes. Servers name an error's `@awsQueryError` code in
 * `x-amzn-query-error: <code>;<Sender|Receiver>`; clients map that code back
 * to the modeled error. Shared by every protocol that supports the trait.
 */
import type { ServiceSchema, StructSchema } from "../schema/schema.js";

/** The trait that marks a service as awsQuery-compatible. */
export const AWS_QUERY_COMPATIBLE = "aws.protocols#awsQueryCompatible";

/** The trait that gives an error its awsQuery code. */
export const AWS_QUERY_ERROR = "aws.protocols#awsQueryError";

/** Whether the service is `@awsQueryCompatible` (clients then send `x-amzn-query-mode: true`). */
export function isQueryCompatible(service: ServiceSchema): boolean {
  return service.traits[AWS_QUERY_COMPATIBLE] !== undefined;
}

/** The awsQuery code of an error structure (`@awsQueryError`), if it has one. */
export function queryErrorCode(schema: StructSchema): string | undefined {
  const trait = schema.traits.custom?.[AWS_QUERY_ERROR] as { code?: unknown } | undefined;
  return typeof trait?.code === "string" ? trait.code : undefined;
}

/** The `x-amzn-query-error` header a server sends for an error of an awsQuery-compatible service, if the error has a code. */
export function queryErrorHeader(schema: StructSchema, fault: "client" | "server", service: ServiceSchema): Record<string, string> | undefined {
  if (!isQueryCompatible(service)) return undefined;
  const code = queryErrorCode(schema);
  return code === undefined ? undefined : { "x-amzn-query-error": `${code};${fault === "server" ? "Receiver" : "Sender"}` };
}

/** The awsQuery code a response names in `x-amzn-query-error: <code>;<fault>`, for an awsQuery-compatible service. */
export function responseQueryCode(headers: Headers, service: ServiceSchema): string | undefined {
  if (!isQueryCompatible(service)) return undefined;
  const code = headers.get("x-amzn-query-error")?.split(";")[0]?.trim();
  return code === "" ? undefined : code;
}

/** The error among `errors` whose `@awsQueryError` code is `code`. */
export function findErrorByQueryCode(errors: readonly StructSchema[], code: string): StructSchema | undefined {
  return errors.find((e) => queryErrorCode(e) === code);
}
