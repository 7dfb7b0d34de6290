/**
 * gRPC's standard health service (`grpc.health.v1.Health`: `Check`,
 * `Watch`, `List`), as a service module a server serves next to its own
 * (`server.add(grpcHealth())`). It is an ordinary Anvil service: its schema
 * is built with core's builders and served by this package's `grpc()`,
 * byte for byte what grpc-js's and grpc-go's health clients read.
 *
 * Each service's status follows the server's life (NOT_SERVING while it
 * starts and from the moment it begins to close, SERVING in between), by
 * fully qualified gRPC name (`example.weather.WeatherGrpc`; `""` for the
 * whole server), unless the application sets it. Watches end, after their
 * last NOT_SERVING, when the server begins to close: they do not hold up
 * the drain.
 */
import type { EventStream, ServiceHost, ServiceModule, UnionValue } from "@anvil/core";
import { enumeration, map, member, operation, service, string, struct, union } from "@anvil/core/codegenv1";
import { grpcFailure } from "./frames.js";
import { grpc } from "./grpc.js";
import { protoFullName } from "./names.js";

/** A serving status, as `Check`, `Watch` and `List` report it (`SERVICE_UNKNOWN` only from `Watch`). */
export type GrpcServingStatus = "UNKNOWN" | "SERVING" | "NOT_SERVING" | "SERVICE_UNKNOWN";

/** A status the application may set for a service. */
export type GrpcHealthStatus = "SERVING" | "NOT_SERVING" | "UNKNOWN";

const ServingStatusSchema = enumeration<GrpcServingStatus>("grpc.health.v1#ServingStatus", [
  { name: "UNKNOWN", value: "UNKNOWN" },
  { name: "SERVING", value: "SERVING" },
  { name: "NOT_SERVING", value: "NOT_SERVING" },
  { name: "SERVICE_UNKNOWN", value: "SERVICE_UNKNOWN" },
]);

/** `grpc.health.v1.HealthCheckRequest`: the service asked about (`""` or absent: the whole server). */
export interface HealthCheckRequest {
  /** The fully qualified gRPC service name (`example.weather.Weather`); `""` or absent for the whole server. */
  service?: string;
}
/** `grpc.health.v1.HealthCheckResponse`: a service's status. */
export interface HealthCheckResponse {
  /** The service's status. */
  status?: GrpcServingStatus;
}
/** A message of `Watch`'s stream (a `HealthCheckResponse` on the wire). */
export type HealthWatchEvent = UnionValue<{ status: GrpcServingStatus }>;

const HealthCheckRequestSchema = struct<HealthCheckRequest>("grpc.health.v1#HealthCheckRequest", [member("service", string, { protoIndex: 1 })]);
const HealthCheckResponseSchema = struct<HealthCheckResponse>("grpc.health.v1#HealthCheckResponse", [member("status", ServingStatusSchema, { protoIndex: 1 })]);
// Watch streams HealthCheckResponse messages: a stream's messages are a union, this one of the one field.
const HealthUpdatesSchema = union<HealthWatchEvent>("grpc.health.v1#HealthUpdates", [member("status", ServingStatusSchema, { protoIndex: 1 })], {
  streaming: true,
});

/**
 * The schema of `grpc.health.v1.Health`, for an Anvil client of another
 * server's health service:
 * `createClient(HealthService, { endpoint, protocols: [grpc()] }).check({ service: "" })`.
 */
export const HealthService = service("grpc.health.v1#Health", {
  version: "v1",
  operations: {
    check: operation("grpc.health.v1#Check", { input: HealthCheckRequestSchema, output: HealthCheckResponseSchema }),
    watch: operation("grpc.health.v1#Watch", {
      input: HealthCheckRequestSchema,
      output: struct<{ updates?: EventStream<HealthWatchEvent> }>("grpc.health.v1#WatchOutput", [member("updates", HealthUpdatesSchema, { streaming: true })]),
    }),
    list: operation("grpc.health.v1#List", {
      input: struct<Record<string, never>>("grpc.health.v1#HealthListRequest", []),
      output: struct<{ statuses?: Record<string, HealthCheckResponse> }>("grpc.health.v1#HealthListResponse", [
        member("statuses", map("grpc.health.v1#StatusMap", member("key", string), member("value", HealthCheckResponseSchema)), { protoIndex: 1 }),
      ]),
    }),
  },
  protocols: ["alloy.proto#grpc"],
});

/** gRPC's health service for a server: add it with `server.add(health)`, set statuses with `health.setStatus`. */
export interface GrpcHealth extends ServiceModule {
  /**
   * Sets a service's status (by fully qualified gRPC name; `""` for the
   * whole server), as `Check` and `Watch` report it while the server
   * serves; a name the server does not serve becomes known. While the
   * server starts or closes, every status is NOT_SERVING whatever was set.
   * Watchers of the service hear of the change.
   */
  setStatus(service: string, status: GrpcHealthStatus): void;
  /** Forgets a status set with {@link GrpcHealth.setStatus}: the service follows the server again (or is unknown, if the server does not serve it). */
  clearStatus(service: string): void;
  /** A service's status as `Watch` would report it now (SERVICE_UNKNOWN for a name neither served nor set). */
  statusOf(service: string): GrpcServingStatus;
}

/**
 * gRPC's standard health service, `grpc.health.v1.Health`:
 *
 * - `Check` answers a service's status (`""`: the whole server), or
 *   NOT_FOUND for a service the server neither serves nor was told of;
 * - `Watch` sends the status at once, then every change; SERVICE_UNKNOWN
 *   for an unknown service (the call stays open: a status set later is
 *   sent); it ends (status OK) once the server begins to close, after
 *   sending NOT_SERVING;
 * - `List` answers every known service's status.
 *
 * Statuses follow the server: NOT_SERVING while it starts and from the
 * moment `close` is called (so load balancers stop sending first), SERVING
 * in between, unless set with {@link GrpcHealth.setStatus}. Health calls are
 * still answered while the server drains.
 *
 * ```ts
 * const health = grpcHealth();
 * const server = createServer(Weather, { protocols: [grpc()] }).register(handler).mapService().add(health);
 * health.setStatus("example.weather.Weather", "NOT_SERVING"); // e.g. while its database is down
 * ```
 */
export function grpcHealth(): GrpcHealth {
  let host: ServiceHost | undefined;
  let served: ReadonlySet<string> | undefined;
  const set = new Map<string, GrpcHealthStatus>();
  const watchers = new Set<() => void>();
  const changed = (): void => {
    for (const watcher of [...watchers]) watcher();
  };
  const servedNames = (): ReadonlySet<string> => {
    if (served !== undefined) return served;
    const names = new Set(host === undefined ? [] : host.services.map((s) => protoFullName(s.id)));
    // The list is final once the server has started (modules are added before).
    if (host !== undefined && host.state !== "starting") served = names;
    return names;
  };
  const known = (name: string): boolean => name === "" || set.has(name) || servedNames().has(name);
  /** The status `Check` reports, or undefined for an unknown service. */
  const statusNow = (name: string): GrpcServingStatus | undefined => {
    if (!known(name)) return undefined;
    if (host?.state !== "serving") return "NOT_SERVING";
    return set.get(name) ?? "SERVING";
  };

  async function* updates(name: string, signal: AbortSignal): AsyncGenerator<HealthWatchEvent, void, undefined> {
    let dirty = true;
    let wake: (() => void) | undefined;
    const watcher = (): void => {
      dirty = true;
      const resolve = wake;
      wake = undefined;
      resolve?.();
    };
    watchers.add(watcher);
    signal.addEventListener("abort", watcher);
    try {
      let last: GrpcServingStatus | undefined;
      for (;;) {
        if (!dirty) await new Promise<void>((resolve) => (wake = resolve));
        dirty = false;
        if (signal.aborted) return;
        const now = statusNow(name) ?? "SERVICE_UNKNOWN";
        if (now !== last) {
          last = now;
          yield { $case: "status", value: now };
        }
        if (host?.state === "closing") return;
      }
    } finally {
      watchers.delete(watcher);
      signal.removeEventListener("abort", watcher);
    }
  }

  const handlers = {
    check(input: HealthCheckRequest): HealthCheckResponse {
      const name = input.service ?? "";
      const status = statusNow(name);
      if (status === undefined) throw grpcFailure("NOT_FOUND", `health: unknown service ${JSON.stringify(name)}`);
      return { status };
    },
    watch(input: HealthCheckRequest, context: { readonly signal: AbortSignal }) {
      return { updates: updates(input.service ?? "", context.signal) };
    },
    list() {
      const statuses: Record<string, HealthCheckResponse> = {};
      for (const name of new Set(["", ...servedNames(), ...set.keys()])) statuses[name] = { status: statusNow(name)! };
      return { statuses };
    },
  };

  return Object.freeze({
    services: Object.freeze([{ service: HealthService, handlers }]),
    protocols: Object.freeze([grpc().server]),
    servesWhileClosing: true,
    attach(given: ServiceHost) {
      if (host !== undefined) throw new Error("grpcHealth: this health service is added to a server already (make one per server)");
      host = given;
      given.onStateChange(changed);
    },
    setStatus(name: string, status: GrpcHealthStatus) {
      if (typeof name !== "string") throw new TypeError(`grpcHealth.setStatus: the service name must be a string, got ${typeof name}`);
      if (status !== "SERVING" && status !== "NOT_SERVING" && status !== "UNKNOWN")
        throw new TypeError(`grpcHealth.setStatus: the status must be SERVING, NOT_SERVING or UNKNOWN, got ${String(status)}`);
      set.set(name, status);
      changed();
    },
    clearStatus(name: string) {
      if (set.delete(name)) changed();
    },
    statusOf(name: string): GrpcServingStatus {
      return statusNow(name) ?? "SERVICE_UNKNOWN";
    },
  });
}
