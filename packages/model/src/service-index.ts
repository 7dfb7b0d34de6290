import type { Model } from "./model.js";
import type { Shape } from "./shape.js";

/** What a service contains: its operations, resources and errors, and every shape they reach. */
export interface ServiceClosure {
  /** The service shape itself. */
  readonly service: Shape;
  /** Operations bound to the service directly or through resources, in model order. */
  readonly operations: Shape[];
  /** Resources bound to the service directly or through other resources. */
  readonly resources: Shape[];
  /** Errors of the service and of its operations. */
  readonly errors: Shape[];
  /** Every shape id reachable from the service (members excluded), including prelude shapes. */
  readonly shapes: Set<string>;
}

const closureCache = new WeakMap<Model, Map<string, ServiceClosure>>();

/** Computes (and caches) the closure of a service. Throws if the id is not a service. */
export function serviceClosure(model: Model, serviceId: string): ServiceClosure {
  let perModel = closureCache.get(model);
  if (!perModel) closureCache.set(model, (perModel = new Map()));
  const cached = perModel.get(serviceId);
  if (cached) return cached;
  const service = model.getShape(serviceId);
  if (!service || service.type !== "service") throw new Error(`serviceClosure: \`${serviceId}\` is not a service in the model`);
  const operations = new Map<string, Shape>();
  const resources = new Map<string, Shape>();
  const errors = new Map<string, Shape>();
  const addOps = (ids: readonly string[] | undefined) => {
    for (const id of ids ?? []) {
      const op = model.getShape(id);
      if (op?.type === "operation") operations.set(id, op);
    }
  };
  const visitResource = (id: string) => {
    const r = model.getShape(id);
    if (!r || r.type !== "resource" || resources.has(id)) return;
    resources.set(id, r);
    addOps([r.create, r.put, r.read, r.update, r.delete, r.list].filter((x): x is string => !!x));
    addOps(r.operations);
    addOps(r.collectionOperations);
    for (const child of r.resources ?? []) visitResource(child);
  };
  addOps(service.operations);
  for (const r of service.resources ?? []) visitResource(r);
  for (const e of service.errors ?? []) {
    const s = model.getShape(e);
    if (s) errors.set(e, s);
  }
  for (const op of operations.values()) {
    for (const e of op.errors ?? []) {
      const s = model.getShape(e);
      if (s) errors.set(e, s);
    }
  }
  const shapes = new Set<string>([serviceId]);
  const stack: string[] = [...operations.keys(), ...resources.keys(), ...errors.keys()];
  for (const r of resources.values()) stack.push(...Object.values(r.identifiers ?? {}), ...Object.values(r.properties ?? {}));
  while (stack.length) {
    const id = stack.pop()!;
    if (shapes.has(id)) continue;
    const shape = model.getShape(id);
    if (!shape) continue;
    shapes.add(id);
    if (shape.input) stack.push(shape.input);
    if (shape.output) stack.push(shape.output);
    for (const e of shape.errors ?? []) stack.push(e);
    for (const m of shape.members.values()) stack.push(m.target);
  }
  const closure: ServiceClosure = {
    service,
    operations: [...operations.values()],
    resources: [...resources.values()],
    errors: [...errors.values()],
    shapes,
  };
  perModel.set(serviceId, closure);
  return closure;
}

/** The protocol traits a service declares (traits whose definition has `@protocolDefinition`), in order. */
export function serviceProtocols(model: Model, service: Shape): string[] {
  return [...service.traits.keys()].filter((t) => model.getShape(t)?.traits.has("smithy.api#protocolDefinition"));
}
