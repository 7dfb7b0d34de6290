/**
 * The fakes file of a service: each operation's fake table (from
 * `@examples`, built by `@anvil/fakes` on the model's dynamic schemas, the
 * same tables `anvil serve --fake` answers from) written as literals, a fake
 * handler class (server surface) and a fake client class (client surface).
 * Both answer through core (`fakeCall`; the client's `fakeClientCall` first
 * validates the input as the server would), so the rules exist once.
 */
import type { FakeOperation } from "@anvil/core/protocol";
import { type ExampleRef, operationExamples, schemasFromModel, NodeValueError } from "@anvil/dynamic";
import { fakeOperation, UnterminatedRecursionError } from "@anvil/fakes";
import { nameOf, type Shape, type ValidationEvent } from "@anvil/model";
import { literal } from "./code.js";
import { docsOf } from "./docs.js";
import { Imports } from "./imports.js";
import { header, type Provenance } from "./header.js";
import { NameScope, propertyKey } from "./names.js";
import { UNIT, type ServicePlan } from "./plan.js";
import { isOptional } from "./shapes-file.js";
import { ShapeRefs } from "./shapes-plan.js";
import { runtimeValueCode } from "./traits.js";
import { unusableExampleNote } from "../unusable-example.js";

/**
 * Event id of the warning about an operation without `@examples` (a child of
 * `CodegenFakes`, so `@suppress(["CodegenFakes"])` silences it too).
 */
export const NO_EXAMPLES = "CodegenFakes.NoExamples";

/** Which classes the fakes file declares, and where the surfaces it implements live. */
export interface FakesFileOptions {
  readonly serviceModule: string;
  /** The server file's module, when the server surface is generated (the fake handler implements it). */
  readonly serverModule?: string;
  /** The client file's module, when the client surface is generated (the fake client implements it). */
  readonly clientModule?: string;
}

/**
 * The fake table of every operation of a planned service, built as
 * `anvil serve --fake` builds them. Problems go to `events`: a WARNING per
 * operation with output and no examples, a NOTE per example left out, an
 * ERROR for recursion no value can end (that operation is then missing from
 * the result).
 */
export function fakeTables(plan: ServicePlan, events: ValidationEvent[]): Map<string, FakeOperation> {
  const schemas = schemasFromModel(plan.model);
  const tables = new Map<string, FakeOperation>();
  for (const op of plan.operations) {
    const at = op.shape.location;
    const where = { shapeId: op.shape.id, ...(at.file ? { location: at } : {}) };
    // An example the fake leaves out: the model's validator has warned about it already.
    const leftOut = (_: string, example: ExampleRef) => events.push({ severity: "NOTE", id: "CodegenFakes", message: unusableExampleNote(example), ...where });
    try {
      const examples = operationExamples(plan.model, op.shape, leftOut);
      // An operation without output answers exactly what it would with examples: nothing to say.
      if (examples.length === 0 && op.shape.output !== undefined && op.shape.output !== UNIT) {
        // One warning per operation, at its own location, so an editor or CI annotation points at the line to add
        // @examples to; an operation bound to several services is reported once.
        if (!events.some((e) => e.id === NO_EXAMPLES && e.shapeId === op.shape.id)) {
          events.push({
            severity: "WARNING",
            id: NO_EXAMPLES,
            message: `operation \`${op.shape.id}\` has no @examples: its fake answers a synthesized output (add @examples for realistic answers)`,
            ...where,
          });
        }
      }
      tables.set(op.method, fakeOperation(schemas.operation(op.shape.id, plan.service.id), examples, leftOut));
    } catch (e) {
      if (e instanceof UnterminatedRecursionError) {
        events.push({
          severity: "ERROR",
          id: "CodegenFakes",
          message: `operation \`${op.shape.id}\`: no fake output can be synthesized: recursion through required members never ends: ${e.shapes.join(" -> ")}`,
          ...where,
        });
      } else if (e instanceof NodeValueError) {
        events.push({ severity: "ERROR", id: "CodegenFakes", message: e.reason, ...where });
      } else throw e;
    }
  }
  return tables;
}

/** Writes the fakes file of a planned service; problems go to `events`. */
export function fakesFile(plan: ServicePlan, options: FakesFileOptions, provenance: Provenance, events: ValidationEvent[]): string {
  const tables = fakeTables(plan, events);
  const imports = new Imports();
  const scope = new NameScope();
  // Names this file imports from the model file, so its own declarations cannot shadow them.
  scope.both(plan.operationsName);
  for (const op of plan.operations) scope.both(op.name);
  const out: string[] = [];
  const tablesName = scope.value(`${plan.serviceName}Fakes`);
  const fakeName = options.serverModule !== undefined ? scope.both(`${plan.serviceName}Fake`) : "";
  const fakeClient = options.clientModule !== undefined ? scope.both(`${plan.serviceName}FakeClient`) : "";
  const refs = new ShapeRefs(plan.shapes, imports, scope);
  const fakeOperationType = imports.type("FakeOperation");
  const opsType = imports.from(options.serviceModule, plan.operationsName, "type");
  out.push(
    docsOf(
      undefined,
      "",
      `What the fakes of \`${nameOf(plan.service.id)}\` answer, per operation: its \`@examples\` (compared with the input in model order) and the output answered when none matches. Compiled from the model: deterministic.`,
    ),
  );
  const entries = plan.operations
    .filter((op) => tables.has(op.method))
    .map((op) => `  ${propertyKey(op.method)}: ${literal(runtimeValueCode(tables.get(op.method), imports, false), "  ")},\n`);
  out.push(`export const ${tablesName}: { readonly [K in keyof ${opsType}]: ${fakeOperationType} } = {\n${entries.join("")}};\n`);
  const opConst = (name: string) => imports.from(options.serviceModule, name, "value");

  if (options.serverModule !== undefined) {
    const fakeCall = imports.value("fakeCall");
    const handler = imports.from(options.serverModule, `${plan.serviceName}Handler`, "type");
    const inputOf = imports.type("InputOf");
    const outputOf = imports.type("OutputOf");
    const methods = plan.operations.map((op) => {
      const c = opConst(op.name);
      const doc = docsOf(
        undefined,
        "  ",
        `Answers \`${nameOf(op.shape.id)}\` from \`${tablesName}.${op.method}\`. Override it to replace just this operation.`,
      );
      return `${doc}  ${propertyKey(op.method)}(input: ${inputOf}<typeof ${c}>, _context: Ctx): Promise<${outputOf}<typeof ${c}>> {\n    return ${fakeCall}(${c}, ${tablesName}.${op.method}, input);\n  }\n`;
    });
    out.push("\n");
    out.push(
      docsOf(undefined, "", undefined, [
        `A fake \`${nameOf(plan.service.id)}\` handler: every operation answers from \`${tablesName}\` (an example's output or modeled error, else a synthesized output). Register it like any handler; a subclass overrides single operations, and a per-operation handler registered after it wins.`,
      ]),
    );
    out.push(`export class ${fakeName}<Ctx = unknown> implements ${handler}<Ctx> {\n${methods.join("\n")}}\n`);
  }

  if (options.clientModule !== undefined) {
    const fakeClientCall = imports.value("fakeClientCall");
    const client = imports.from(options.clientModule, `${plan.serviceName}Client`, "type");
    const callOptions = imports.type("CallOptions");
    const typeRef = (id: string | undefined) => (id === undefined || id === UNIT ? "Record<string, never>" : refs.type(id));
    const methods = plan.operations.map((op) => {
      const c = opConst(op.name);
      // As `ClientOf` types it: left out when none of its members is required, streaming blobs also as whole bytes or text.
      const input = op.shape.input === undefined || op.shape.input === UNIT ? undefined : plan.model.getShape(op.shape.input);
      const unit = input === undefined || [...input.members.values()].every(isOptional);
      const inputType = hasStreamingBlob(plan, input) ? `${imports.type("Sendable")}<${typeRef(op.shape.input)}>` : typeRef(op.shape.input);
      const doc = docsOf(
        undefined,
        "  ",
        `Answers \`${nameOf(op.shape.id)}\` from \`${tablesName}.${op.method}\`, with no network and no serialization; invalid input rejects as the server's ValidationException would.`,
      );
      return `${doc}  ${propertyKey(op.method)}(input${unit ? "?" : ""}: ${inputType}, _options?: ${callOptions}): Promise<${typeRef(op.shape.output)}> {\n    return ${fakeClientCall}(${c}, ${tablesName}.${op.method}, input);\n  }\n`;
    });
    out.push("\n");
    out.push(
      docsOf(undefined, "", undefined, [
        `A fake \`${nameOf(plan.service.id)}\` client: the real client's interface, answered in memory from \`${tablesName}\` (paginated operations answer one page). Input is validated first, and invalid input rejects as a real client talking to the fake server would: with the modeled ValidationException when the service declares it, else an UnmodeledError.`,
      ]),
    );
    out.push(`export class ${fakeClient} implements ${client} {\n${methods.join("\n")}}\n`);
  }
  return `${header(provenance, `${plan.service.id}: fakes`)}\n${imports.render()}\n${out.join("")}`;
}

/** Whether a structure has a `@streaming` blob member. */
function hasStreamingBlob(plan: ServicePlan, shape: Shape | undefined): boolean {
  for (const member of shape?.members.values() ?? []) {
    const target = plan.model.getShape(member.target);
    if (target?.type === "blob" && target.traits.has("smithy.api#streaming")) return true;
  }
  return false;
}
