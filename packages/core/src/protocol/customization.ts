/**
 * Request customizations: opt-in, service-specific adjustments of what a
 * client sends, for services whose SDKs do more than their model says (AWS
 * Glacier's version and checksum headers, Machine Learning's per-call
 * endpoint). They sit around any {@link ClientProtocol}, so protocols stay
 * generic and a client that registers none pays nothing.
 */
import type { OperationSchema, ServiceSchema } from "../schema/schema.js";
import type { HttpRequest, HttpResponse } from "./http.js";
import type { ClientCallContext, ClientProtocol } from "./protocol.js";

/** What a customization sees of one call. */
export interface RequestCustomizationContext {
  /** The operation being called. */
  readonly operation: OperationSchema;
  /** The client protocol's context of the call (service, endpoint, signal). */
  readonly call: ClientCallContext;
}

/** One service-specific adjustment of client requests. */
export interface RequestCustomization {
  /** Names the customization in messages, e.g. `aws.glacier#checksums`. */
  readonly id: string;
  /** Whether it applies to calls of `service` (asked once per service). */
  appliesTo(service: ServiceSchema): boolean;
  /**
   * Adjusts the input before the protocol serializes it (a default for a
   * label, say). Returns the input to use; must not change the one given.
   */
  modifyInput?(input: unknown, context: RequestCustomizationContext): unknown;
  /**
   * Adjusts the serialized request (headers, host, ...). `input` is the
   * input as serialized. Returns the request to send.
   */
  modifyRequest?(request: HttpRequest, input: unknown, context: RequestCustomizationContext): HttpRequest | Promise<HttpRequest>;
}

/**
 * A client protocol that runs `protocol` with the customizations that apply
 * to each call's service, in the order given: every `modifyInput` before
 * serializing, every `modifyRequest` after. Responses pass through as they are.
 */
export function withRequestCustomizations(protocol: ClientProtocol, customizations: readonly RequestCustomization[]): ClientProtocol {
  if (customizations.length === 0) return protocol;
  const applicable = new WeakMap<ServiceSchema, readonly RequestCustomization[]>();
  const forService = (service: ServiceSchema): readonly RequestCustomization[] => {
    let list = applicable.get(service);
    if (list === undefined) {
      list = Object.freeze(customizations.filter((c) => c.appliesTo(service)));
      applicable.set(service, list);
    }
    return list;
  };
  return Object.freeze({
    id: protocol.id,
    async serializeRequest(operation: OperationSchema, input: unknown, call: ClientCallContext): Promise<HttpRequest> {
      const list = forService(call.service);
      if (list.length === 0) return protocol.serializeRequest(operation, input, call);
      const context: RequestCustomizationContext = { operation, call };
      let value = input;
      for (const c of list) if (c.modifyInput) value = c.modifyInput(value, context);
      let request = await protocol.serializeRequest(operation, value, call);
      for (const c of list) if (c.modifyRequest) request = await c.modifyRequest(request, value, context);
      return request;
    },
    deserializeResponse(operation: OperationSchema, response: HttpResponse, call: ClientCallContext): Promise<unknown> {
      return protocol.deserializeResponse(operation, response, call);
    },
  });
}
