/**
 * The server and client surfaces of a service: one handler interface per
 * operation plus the service's handler interface (which extends them all, so
 * one object can be registered for every operation), and the typed client
 * interface. Both build on the operation constants of the model file.
 */
import { type Model, nameOf } from "@anvil/model";
import { docsOf } from "./docs.js";
import { Imports } from "./imports.js";
import { header } from "./model-file.js";
import { NameScope, propertyKey } from "./names.js";
import { UNIT, type ServicePlan } from "./plan.js";

/** Writes the server file: handler interfaces. `modelModule` is the model file's import specifier. */
export function serverFile(plan: ServicePlan, modelModule: string): string {
  const imports = new Imports();
  const scope = new NameScope();
  const out: string[] = [];
  const handlerOf = imports.type("HandlerOf");
  const opHandlers: string[] = [];
  for (const op of plan.operations) scope.both(op.name);
  for (const op of plan.operations) {
    const name = scope.type(`${op.name}Handler`);
    opHandlers.push(name);
    const opConst = imports.from(modelModule, op.name, "type");
    out.push(docsOf(undefined, "", `Handles \`${nameOf(op.shape.id)}\`. A service handler implements it with the other operations' interfaces.`));
    out.push(`export interface ${name}<Ctx = unknown> {\n`);
    out.push(docsOf(op.shape, "  ", `The \`${nameOf(op.shape.id)}\` operation.`, errorsLine(plan, op.shape.errors)));
    out.push(`  readonly ${propertyKey(op.method)}: ${handlerOf}<typeof ${opConst}, Ctx>;\n}\n\n`);
  }
  const serviceHandler = scope.type(`${plan.serviceName}Handler`);
  out.push(
    docsOf(plan.service, "", undefined, [
      `The handler of the \`${nameOf(plan.service.id)}\` service: one method per operation. \`Ctx\` is the context the server passes to every call.`,
    ]),
  );
  out.push(
    opHandlers.length
      ? `export interface ${serviceHandler}<Ctx = unknown>\n  extends ${opHandlers.map((h) => `${h}<Ctx>`).join(",\n    ")} {}\n`
      : `export interface ${serviceHandler}<Ctx = unknown> {}\n`,
  );
  return `${header(plan.service.id, "server handler interfaces")}\n${imports.render()}\n${out.join("")}`;
}

/** Writes the client file: the typed client interface. */
export function clientFile(plan: ServicePlan, modelModule: string): string {
  const imports = new Imports();
  const scope = new NameScope();
  for (const op of plan.operations) for (const id of [op.shape.input, op.shape.output]) if (id && id !== UNIT) scope.both(plan.names.get(id)!.type);
  const client = scope.type(`${plan.serviceName}Client`);
  const typeRef = (id: string | undefined) => {
    if (id === undefined || id === UNIT) return "Record<string, never>";
    return imports.from(modelModule, plan.names.get(id)!.type, "type");
  };
  const callOptions = imports.type("CallOptions");
  // An input with a streaming blob is sent from whole bytes or text too, as the client runtime accepts.
  const inputRef = (id: string | undefined) => (hasStreamingBlob(plan.model, id) ? `${imports.type("Sendable")}<${typeRef(id)}>` : typeRef(id));
  const methods = plan.operations.map((op) => {
    const unit = op.shape.input === undefined || op.shape.input === UNIT;
    const doc = docsOf(op.shape, "  ", `Calls \`${nameOf(op.shape.id)}\`.`, errorsLine(plan, op.shape.errors));
    return `${doc}  ${propertyKey(op.method)}(input${unit ? "?" : ""}: ${inputRef(op.shape.input)}, options?: ${callOptions}): Promise<${typeRef(op.shape.output)}>;\n`;
  });
  const doc = docsOf(plan.service, "", undefined, [
    `A typed client of the \`${nameOf(plan.service.id)}\` service: each method sends its input and returns the output, or throws the operation's modeled error class.`,
  ]);
  return `${header(plan.service.id, "client interface")}\n${imports.render()}\n${doc}export interface ${client} {\n${methods.join("\n")}}\n`;
}

/** Whether a structure has a `@streaming` blob member. */
function hasStreamingBlob(model: Model, id: string | undefined): boolean {
  const shape = id === undefined || id === UNIT ? undefined : model.getShape(id);
  for (const member of shape?.members.values() ?? []) {
    const target = model.getShape(member.target);
    if (target?.type === "blob" && target.traits.has("smithy.api#streaming")) return true;
  }
  return false;
}

/** A TSDoc line listing the errors an operation may throw (its own, then the service's). */
function errorsLine(plan: ServicePlan, opErrors: readonly string[] | undefined): string[] {
  const all = [...(opErrors ?? []), ...(plan.service.errors ?? [])];
  if (all.length === 0) return [];
  return [`@throws ${all.map((id) => `\`${plan.names.get(id)?.value ?? nameOf(id)}\``).join(", ")}`];
}
