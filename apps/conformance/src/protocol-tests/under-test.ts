/**
 * Where protocol implementations plug into the protocol suites. A protocol
 * package contributes a {@link ProtocolUnderTest} (its client and/or server
 * side, the `@anvil/core` protocol interfaces) under its protocol trait id in
 * {@link PROTOCOLS_UNDER_TEST}. A side that is absent has its cases skipped
 * with a reason, so the counts stay visible until it exists.
 */
import { type ClientProtocol, type RequestCustomization, type ServerProtocol, withRequestCustomizations } from "@anvil/core";
import { AWS_CUSTOMIZATIONS } from "@anvil/aws-customizations";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { rpcv2Json } from "@anvil/protocol-rpcv2json";
import type { Side } from "./cases.js";

/** One protocol's implementations, as the suites run them. */
export interface ProtocolUnderTest {
  /** Runs the `request/client`, `response/client` and `eventstream/client` parts. */
  readonly client?: ClientProtocol;
  /** Runs the `request/server`, `response/server`, `malformed/server` and `eventstream/server` parts. */
  readonly server?: ServerProtocol;
}

/** Implementations by protocol trait id (`aws.protocols#restJson1`, `alloy#simpleRestJson`, ...). */
export type ProtocolsUnderTest = ReadonlyMap<string, ProtocolUnderTest>;

/**
 * The registered implementations: add `[protocolId, { client: ..., server: ... }]`
 * entries here as the protocols arrive (issue 4).
 */
export const PROTOCOLS_UNDER_TEST: ProtocolsUnderTest = withClientCustomizations(
  new Map<string, ProtocolUnderTest>([
    ["aws.protocols#awsJson1_0", awsJson1_0()],
    ["aws.protocols#awsJson1_1", awsJson1_1()],
    ["aws.protocols#restJson1", restJson1()],
    ["alloy#simpleRestJson", simpleRestJson()],
    ["smithy.protocols#rpcv2Cbor", rpcv2Cbor()],
    ["smithy.protocols#rpcv2Json", rpcv2Json()],
  ]),
  AWS_CUSTOMIZATIONS,
);

/**
 * The implementations with every client side wrapped in the request
 * customizations, registered as a client will register them (client-core,
 * later). The AWS ones apply only to their own services' cases (Glacier,
 * Machine Learning); the compliance tests expect AWS clients to have them.
 */
export function withClientCustomizations(protocols: ProtocolsUnderTest, customizations: readonly RequestCustomization[]): ProtocolsUnderTest {
  const out = new Map<string, ProtocolUnderTest>();
  for (const [id, entry] of protocols) {
    out.set(id, entry.client === undefined ? entry : { ...entry, client: withRequestCustomizations(entry.client, customizations) });
  }
  return out;
}

/** The skip reason when a protocol has no implementation registered at all. */
export const NOT_IMPLEMENTED = "protocol not implemented yet (issue 4)";

/**
 * The implementation of one side of a protocol, or why its cases are skipped:
 * {@link NOT_IMPLEMENTED} when the protocol has no entry, `no <side>
 * implementation of <protocol> yet` when the entry lacks the side.
 */
export function implementationFor(
  protocols: ProtocolsUnderTest,
  protocol: string,
  side: Side,
): { readonly ok: true; readonly protocol: ClientProtocol | ServerProtocol } | { readonly ok: false; readonly reason: string } {
  const entry = protocols.get(protocol);
  if (entry === undefined) return { ok: false, reason: NOT_IMPLEMENTED };
  const impl = side === "client" ? entry.client : entry.server;
  if (impl === undefined) return { ok: false, reason: `no ${side} implementation of ${protocol} yet` };
  return { ok: true, protocol: impl };
}
