/**
 * The service file of a service: its operation constants and the service
 * descriptor, built on the schemas of the shapes files. It imports only
 * `@anvil/core/codegen`, `@anvil/core` and the shapes files, and holds no logic.
 */
import { operationTraits, serviceTraits } from "@anvil/dynamic";
import { nameOf, serviceProtocols } from "@anvil/model";
import { code, literal, PURE } from "./code.js";
import { docsOf } from "./docs.js";
import { header, type Provenance } from "./header.js";
import { Imports } from "./imports.js";
import { NameScope, propertyKey } from "./names.js";
import { UNIT, type ServicePlan } from "./plan.js";
import { ShapeRefs } from "./shapes-plan.js";

/** Writes the service file of a planned service. */
export function serviceFile(plan: ServicePlan, provenance: Provenance): string {
  const { model } = plan;
  const imports = new Imports();
  const scope = new NameScope();
  scope.value(plan.serviceName);
  scope.type(plan.operationsName);
  scope.value(plan.baseName);
  for (const op of plan.operations) scope.value(op.name);
  const refs = new ShapeRefs(plan.shapes, imports, scope);
  const out: string[] = [];
  const typeOf = (id: string | undefined): string => (id === undefined || id === UNIT ? "Record<string, never>" : refs.type(id));
  const structRef = (id: string | undefined) => (id === undefined || id === UNIT ? imports.builder("unit") : refs.schema(id));

  const service = plan.service;
  const serviceErrors = service.errors ?? [];
  for (const op of plan.operations) {
    const s = op.shape;
    const input = typeOf(s.input);
    const output = typeOf(s.output);
    const errors = [...(s.errors ?? []), ...serviceErrors].map((e) => code(structRef(e)));
    const init: Record<string, unknown> = { input: code(structRef(s.input)), output: code(structRef(s.output)) };
    if (errors.length) init.errors = errors;
    const traits = operationTraits(s, service);
    if (Object.keys(traits).length) init.traits = traits;
    out.push(docsOf(s, "", `The \`${nameOf(s.id)}\` operation.`));
    const opType = `${imports.type("OperationSchema")}<${input}, ${output}>`;
    out.push(`export const ${op.name}: ${opType} = ${PURE}${imports.builder("operation")}(${JSON.stringify(s.id)}, ${literal(init)});\n\n`);
  }
  const { traits, auth } = serviceTraits(model, service);
  const operations: Record<string, unknown> = {};
  for (const op of plan.operations) operations[op.method] = code(op.name);
  const init: Record<string, unknown> = {
    version: service.version ?? "",
    operations: {},
    protocols: serviceProtocols(model, service),
    errors: serviceErrors.map((e) => code(structRef(e))),
    auth,
    traits,
  };
  // Explicit types on every export, so the file also compiles under `isolatedDeclarations`.
  // Each operation's documentation is on its key: the client and handler types map these keys, and carry it to their methods.
  const opsType = plan.operations
    .map((op) => {
      const doc = docsOf(op.shape, "  ", `The \`${nameOf(op.shape.id)}\` operation.`, throwsLine(plan, op.shape.errors));
      return `${doc}  readonly ${propertyKey(op.method)}: typeof ${op.name};\n`;
    })
    .join("");
  out.push(`/** The operations of {@link ${plan.serviceName}}, by client and handler method name. */\n`);
  // A type alias, not an interface: only object literal types fit the service's index signature constraint.
  out.push(`export type ${plan.operationsName} = {${opsType ? `\n${opsType}` : ""}};\n\n`);
  const serviceSchema = imports.type("ServiceSchema");
  // The base holds everything but the operations, so that a program can build a service of the few it calls and bundle only those.
  out.push(
    `/**\n * \`${plan.serviceName}\` without its operations. A program that calls only some of them builds its\n` +
      ` * service from this with \`withOperations\` of \`@anvil/core\`, e.g.\n` +
      ` * \`withOperations(${plan.baseName}, { ${exampleEntry(plan)} })\`, and a bundler leaves the others out.\n */\n`,
  );
  out.push(
    `export const ${plan.baseName}: ${serviceSchema}<Record<string, never>> = ${PURE}${imports.builder("service")}(${JSON.stringify(service.id)}, ${literal(init)});\n\n`,
  );
  out.push(
    docsOf(service, "", `The \`${nameOf(service.id)}\` service.`, [
      `Service descriptor of \`${service.id}\`${service.version ? ` (version ${service.version})` : ""}.`,
    ]),
  );
  out.push(
    `export const ${plan.serviceName}: ${serviceSchema}<${plan.operationsName}> = ${PURE}${imports.builder("withOperations")}(${plan.baseName}, ${literal(operations)});\n`,
  );

  return `${header(provenance, `${service.id}: the service descriptor and its operations`)}\n${imports.render()}\n${out.join("")}`;
}

/** An entry of the operations record for the base's documentation: the first operation's, or a placeholder. */
function exampleEntry(plan: ServicePlan): string {
  const op = plan.operations[0];
  return op === undefined ? "" : `${propertyKey(op.method)}: ${op.name}`;
}

/** A TSDoc line listing the errors an operation may throw (its own, then the service's). */
function throwsLine(plan: ServicePlan, opErrors: readonly string[] | undefined): string[] {
  const all = [...(opErrors ?? []), ...(plan.service.errors ?? [])];
  if (all.length === 0) return [];
  return [`@throws ${all.map((id) => `\`${plan.shapes.homes.get(id)?.names.value ?? nameOf(id)}\``).join(", ")}`];
}
