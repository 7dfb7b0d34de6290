/**
 * The hooks this package returns are typed structurally, so that it needs
 * neither @anvil/server nor @anvil/client-core: these checks fail to compile
 * (`tsc --noEmit`) when either side's interface drifts from them.
 */
import type { Interceptor } from "@anvil/client-core";
import type { RequestHooks, ServerOptions } from "@anvil/server";
import type { ServiceSchema } from "@anvil/core";
import { describe, expectTypeOf, it } from "vitest";
import { type ClientTelemetry, clientTelemetry, type ServerTelemetry, serverTelemetry } from "./index.js";

describe("the hooks' types", () => {
  it("serverTelemetry() is request hooks for any server, whatever its identity type", () => {
    expectTypeOf<ServerTelemetry>().toExtend<RequestHooks>();
    expectTypeOf<ServerTelemetry>().toExtend<RequestHooks<{ id: string }>>();
    expectTypeOf(serverTelemetry()).toExtend<NonNullable<ServerOptions<ServiceSchema>["interceptors"]>[number]>();
  });

  it("clientTelemetry() is attempt hooks", () => {
    expectTypeOf<ClientTelemetry>().toExtend<Interceptor>();
    expectTypeOf(clientTelemetry()).toExtend<Interceptor>();
  });
});
