/**
 * Routes a case's request the way an Anvil server does: through
 * `@anvil/server`'s router over the one protocol under test, compiled once
 * per service and protocol.
 */
import type { HttpRequest, ServerProtocol, ServiceSchema } from "@anvil/core";
import { compileRouter, type RouteMatch, type Router } from "@anvil/server";

export type { RouteMatch };

const routers = new WeakMap<ServiceSchema, WeakMap<ServerProtocol, Router>>();

/** The most specific route of the service under the protocol matching the request, or undefined. */
export function matchRoute(service: ServiceSchema, server: ServerProtocol, request: HttpRequest): RouteMatch | undefined {
  let byProtocol = routers.get(service);
  if (byProtocol === undefined) routers.set(service, (byProtocol = new WeakMap()));
  let router = byProtocol.get(server);
  if (router === undefined) byProtocol.set(server, (router = compileRouter(service, [server])));
  return router.match(request);
}
