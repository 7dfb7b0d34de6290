/**
 * A small SigV4-signed awsJson1_0 service for the tests, and what AWS's
 * SigV4 test suite signs with.
 *
 * @internal
 */
import type { HttpRequest, ServiceSchema, SigningContext } from "@anvil/core";
import { member, operation, service, string, struct } from "@anvil/core/codegenv1";

const Thing = struct<{ id: string; name?: string }>("test.sigv4#Thing", [member("id", string, { required: true }), member("name", string)]);
const IdInput = struct<{ id: string }>("test.sigv4#IdInput", [member("id", string, { required: true })]);

/** `@aws.auth#sigv4(name: "things")` over awsJson1_0. */
export const Things = service("test.sigv4#Things", {
  version: "2024-01-01",
  protocols: ["aws.protocols#awsJson1_0"],
  auth: ["aws.auth#sigv4"],
  traits: { "aws.auth#sigv4": { name: "things" } },
  operations: {
    getThing: operation("test.sigv4#GetThing", { input: () => IdInput, output: () => Thing, traits: { readonly: true } }),
  },
});

/** The credentials of AWS's SigV4 test suite. */
export const EXAMPLE_CREDENTIALS = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
/** The signing time of AWS's SigV4 test suite. */
export const AUGUST_30 = () => new Date("2015-08-30T12:36:00Z");

/** A signing context for `service` (signing name `service`, as in AWS's test suite, unless the service says otherwise). */
export function contextFor(service: ServiceSchema, endpoint = "https://example.amazonaws.com"): SigningContext {
  return { service, operation: Things.operations.getThing, endpoint: new URL(endpoint), signal: new AbortController().signal };
}

/** A request to sign. */
export function request(init: Partial<HttpRequest> = {}): HttpRequest {
  return { method: "GET", path: "/", query: [], headers: new Headers(), body: undefined, ...init };
}
