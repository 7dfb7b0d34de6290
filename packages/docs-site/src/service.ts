import { formatLocation, nameOf, type Model, type Shape, type SourceLocation } from "@anvil/model";

/** A model that cannot be documented as asked, with where to look. Messages start with their context. */
export class DocsError extends Error {
  /** Always `"DocsError"`. */
  override readonly name = "DocsError";
  constructor(
    /** The message without the location (the `message` starts with `file:line:col` when there is one). */
    readonly detail: string,
    /** Where in the model the problem is, when it is somewhere. */
    readonly location?: SourceLocation,
    /** The shape the problem is about. */
    readonly shapeId?: string,
  ) {
    super(location?.file ? `${formatLocation(location)}: ${detail}` : detail);
  }
}

/** The services a person wrote (the prelude and bundled traits hold none), in model order. */
export function userServices(model: Model): Shape[] {
  return [...model.shapesOfType("service")].filter((s) => !model.isBuiltin(s.id));
}

/**
 * The service to document: the one with this id (or shape name), or the
 * model's only service. Throws a {@link DocsError} naming the choices otherwise.
 */
export function selectService(model: Model, id?: string): Shape {
  const services = userServices(model);
  if (id !== undefined) {
    const found = services.find((s) => s.id === id) ?? services.filter((s) => nameOf(s.id) === id).at(0);
    if (found === undefined) throw new DocsError(`openapi: no service ${id} in the model (it has ${services.map((s) => s.id).join(", ") || "none"})`);
    return found;
  }
  if (services.length === 1) return services[0]!;
  if (services.length === 0) throw new DocsError("openapi: the model has no service");
  throw new DocsError(`openapi: the model has ${services.length} services (${services.map((s) => s.id).join(", ")}); name one with --service`);
}
