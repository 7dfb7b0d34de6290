/**
 * Routes of RPC protocols: every operation is one `POST`, told apart by its
 * path (RPC v2) or a header (AWS JSON's `X-Amz-Target`).
 */
import type { OperationSchema, ServiceSchema } from "../schema/schema.js";
import { ProtocolError } from "../errors/errors.js";
import type { Route } from "./protocol.js";

/** Where one operation's POST route is: its path and the exact headers it needs. */
export interface PostRoute {
  /** The route's path, e.g. `/service/Weather/operation/GetForecast` (see {@link rpcV2Path}). */
  readonly path: string;
  /** Headers a request must carry with exactly these values (AWS JSON's `X-Amz-Target`); empty for none. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * A `ServerProtocol.routes` for an RPC protocol: one `POST` route per
 * operation, placed by `routeOf`, built once per service.
 */
export function postRoutes(routeOf: (service: ServiceSchema, operation: OperationSchema) => PostRoute): (service: ServiceSchema) => readonly Route[] {
  const cache = new WeakMap<ServiceSchema, readonly Route[]>();
  return (service) => {
    let routes = cache.get(service);
    if (routes === undefined) {
      routes = Object.freeze(
        Object.values(service.operations).map((operation): Route => {
          const { path, headers } = routeOf(service, operation);
          return Object.freeze({ operation, method: "POST", path, headers: Object.freeze({ ...headers }) });
        }),
      );
      cache.set(service, routes);
    }
    return routes;
  };
}

/** The Smithy RPC v2 path of an operation: `/service/<Service>/operation/<Operation>`. */
export function rpcV2Path(service: ServiceSchema, operation: OperationSchema): string {
  return `/service/${service.name}/operation/${operation.name}`;
}

/**
 * Refuses an RPC v2 request that carries AWS JSON's `X-Amz-Target` or
 * `X-Amzn-Target`: the RPC v2 specifications say such requests MUST be
 * rejected (a 400 naming the header).
 */
export function refuseTargetHeaders(protocol: string, headers: Headers): void {
  const name = headers.has("x-amz-target") ? "X-Amz-Target" : headers.has("x-amzn-target") ? "X-Amzn-Target" : undefined;
  if (name !== undefined) throw new ProtocolError("BadRequestException", 400, `${protocol}: requests must not carry ${name} (it belongs to awsJson)`);
}
