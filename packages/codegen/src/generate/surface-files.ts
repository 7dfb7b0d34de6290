/**
 * The server and client surfaces of a service: names for core's mapped
 * types over the service descriptor. The service's handler type
 * (`HandlersOf<typeof Weather, Ctx>`, one object registered for every
 * operation), one per operation (the handler type picked down to that
 * operation, to register it alone), and the client type
 * (`ClientOf<typeof Weather>`). Their methods carry the operations'
 * documentation from the service file's operations type.
 */
import { nameOf } from "@anvil/model";
import { docsOf } from "./docs.js";
import { header, type Provenance } from "./header.js";
import { Imports } from "./imports.js";
import { NameScope } from "./names.js";
import type { ServicePlan } from "./plan.js";

/** Writes the server file: handler types. `serviceModule` is the service file's import specifier. */
export function serverFile(plan: ServicePlan, serviceModule: string, provenance: Provenance): string {
  const imports = new Imports();
  const scope = new NameScope();
  scope.both(plan.serviceName);
  const service = imports.from(serviceModule, plan.serviceName, "type");
  const handlersOf = imports.type("HandlersOf");
  const handler = scope.type(`${plan.serviceName}Handler`);
  const name = nameOf(plan.service.id);
  const out: string[] = [];
  out.push(
    docsOf(plan.service, "", undefined, [
      `The handler of the \`${name}\` service: one method per operation. \`Ctx\` is the context the server passes to every call.`,
    ]),
  );
  out.push(`export type ${handler}<Ctx = unknown> = ${handlersOf}<typeof ${service}, Ctx>;\n`);
  for (const op of plan.operations) {
    const opHandler = scope.type(`${op.name}Handler`);
    out.push(`\n/** Handles \`${nameOf(op.shape.id)}\` alone: {@link ${handler}} picked down to \`${op.method}\`, to register one operation. */\n`);
    out.push(`export type ${opHandler}<Ctx = unknown> = Pick<${handler}<Ctx>, ${JSON.stringify(op.method)}>;\n`);
  }
  return `${header(provenance, `${plan.service.id}: server handler types`)}\n${imports.render()}\n${out.join("")}`;
}

/** Writes the client file: the typed client type. `serviceModule` is the service file's import specifier. */
export function clientFile(plan: ServicePlan, serviceModule: string, provenance: Provenance): string {
  const imports = new Imports();
  const scope = new NameScope();
  scope.both(plan.serviceName);
  const service = imports.from(serviceModule, plan.serviceName, "type");
  const clientOf = imports.type("ClientOf");
  const client = scope.type(`${plan.serviceName}Client`);
  const doc = docsOf(plan.service, "", undefined, [
    `A typed client of the \`${nameOf(plan.service.id)}\` service: each method sends its input and returns the output, or throws the operation's modeled error class. \`createClient\` of \`@anvil/client-core\` makes one.`,
  ]);
  return `${header(provenance, `${plan.service.id}: client type`)}\n${imports.render()}\n${doc}export type ${client} = ${clientOf}<typeof ${service}>;\n`;
}
