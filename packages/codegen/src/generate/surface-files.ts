/**
 * The server and client surfaces of a service: names for core's mapped
 * types over the service descriptor. The service's handler type
 * (`HandlersOf<typeof Weather, Ctx>`, one object registered for every
 * operation), one per operation (the handler type picked down to that
 * operation, to register it alone), and the client type
 * (`ClientOf<typeof Weather>`). Their methods carry the operations'
 * documentation from the service file's operations type. Beside the client
 * type, its paginators and waiters: thin typed wrappers over
 * `@anvil/client-core`'s `paginate` and `waitUntil`, which read the
 * operation schema's `@paginated` and `smithy.waiters#waitable`.
 */
import { getPaginated, isNodeObject, nameOf, type NodeValue, type Paginated } from "@anvil/model";
import { docComment } from "./code.js";
import { docsOf } from "./docs.js";
import { header, type Provenance } from "./header.js";
import { Imports } from "./imports.js";
import { isPropertyName, NameScope } from "./names.js";
import { type PlannedOperation, type ServicePlan, UNIT } from "./plan.js";
import { ShapeRefs } from "./shapes-plan.js";

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

/** Writes the client file: the typed client type, its paginators and its waiters. `serviceModule` is the service file's import specifier. */
export function clientFile(plan: ServicePlan, serviceModule: string, provenance: Provenance): string {
  const imports = new Imports();
  const scope = new NameScope();
  scope.both(plan.serviceName);
  const client = scope.type(`${plan.serviceName}Client`);
  // The runtime's names first: a shape of the same name is then imported under another.
  for (const name of RUNTIME_NAMES) scope.both(name);
  const helpers = clientHelpers(plan, scope);
  // The operation constants they import from the service file.
  for (const name of new Set(helpers.map((h) => h.op.name))) scope.value(name);
  const refs = new ShapeRefs(plan.shapes, imports, scope);
  const service = imports.from(serviceModule, plan.serviceName, "type");
  const clientOf = imports.type("ClientOf");
  const doc = docsOf(plan.service, "", undefined, [
    `A typed client of the \`${nameOf(plan.service.id)}\` service: each method sends its input and returns the output, or throws the operation's modeled error class. \`createClient\` of \`@anvil/client-core\` makes one.`,
  ]);
  const out: string[] = [`${doc}export type ${client} = ${clientOf}<typeof ${service}>;\n`];
  for (const h of helpers)
    out.push(h.kind === "paginator" ? paginatorCode(plan, h, client, imports, refs, serviceModule) : waiterCode(h, client, imports, refs, serviceModule));
  const what = helpers.length ? "client type, paginators and waiters" : "client type";
  return `${header(provenance, `${plan.service.id}: ${what}`)}\n${imports.render()}\n${out.join("")}`;
}

/** Names the client file imports from the client runtime, and the globals its signatures use (a shape of the same name is imported under another). */
const RUNTIME_NAMES = [
  "paginate",
  "Paginator",
  "ItemPaginator",
  "PaginateOptions",
  "waitUntil",
  "WaiterOptions",
  "WaiterResult",
  "Pick",
  "Omit",
  "NonNullable",
] as const;

/** A paginator or a waiter of an operation, named. */
type ClientHelper =
  | { readonly kind: "paginator"; readonly op: PlannedOperation; readonly name: string; readonly paginated: Paginated }
  | { readonly kind: "waiter"; readonly op: PlannedOperation; readonly name: string; readonly waiter: string; readonly definition: Record<string, NodeValue> };

/**
 * The paginators (`paginate<Operation>`, for every operation whose
 * `@paginated`, merged with the service's, names both tokens) and waiters
 * (`waitUntil<Waiter>`, for every entry of `smithy.waiters#waitable`) of a
 * service, in operation order.
 */
function clientHelpers(plan: ServicePlan, scope: NameScope): ClientHelper[] {
  const out: ClientHelper[] = [];
  for (const op of plan.operations) {
    // The operation's name in the service (its `rename` applied), not its constant's (which may be escaped: `_Object`).
    const opName = plan.service.rename?.[op.shape.id] ?? nameOf(op.shape.id);
    const paginated = getPaginated(op.shape, plan.service);
    if (paginated?.inputToken && paginated.outputToken) out.push({ kind: "paginator", op, name: scope.value(`paginate${opName}`), paginated });
    const waitable = op.shape.traits.get("smithy.waiters#waitable");
    if (!isNodeObject(waitable)) continue;
    for (const [waiter, definition] of Object.entries(waitable)) {
      if (isNodeObject(definition)) out.push({ kind: "waiter", op, name: scope.value(`waitUntil${waiter}`), waiter, definition });
    }
  }
  return out;
}

/** The type of an operation's input or output. */
function ioType(refs: ShapeRefs, id: string | undefined): string {
  return id === undefined || id === UNIT ? "Record<string, never>" : refs.type(id);
}

/** Whether an operation may be called without input: no member of its input is required. */
function inputOptional(plan: ServicePlan, op: PlannedOperation): boolean {
  const input = op.shape.input === undefined ? undefined : plan.model.getShape(op.shape.input);
  if (!input) return true;
  for (const m of input.members.values()) if (m.traits.has("smithy.api#required") && !m.traits.has("smithy.api#clientOptional")) return false;
  return true;
}

/** `client.method`, or `client["method"]` for a name that is no identifier. */
function methodRef(method: string): string {
  return isPropertyName(method) ? `client.${method}` : `client[${JSON.stringify(method)}]`;
}

/**
 * The type of one item of a paginated operation's `items` (a path of
 * member names from the output), as a type over the output's type:
 * `NonNullable<ListCitiesOutput["items"]>[number]`, or `[string, V]` for a
 * map. `unknown` when the path does not lead to a list or a map.
 */
function itemType(plan: ServicePlan, op: PlannedOperation, output: string, items: string): string {
  let shape = op.shape.output === undefined ? undefined : plan.model.getShape(op.shape.output);
  let type = output;
  for (const [i, name] of items.split(".").entries()) {
    const member = shape?.members.get(name);
    if (!shape || shape.type !== "structure" || !member) return "unknown";
    type = i === 0 ? `${type}[${JSON.stringify(name)}]` : `NonNullable<${type}>[${JSON.stringify(name)}]`;
    shape = plan.model.getShape(member.target);
  }
  if (shape?.type === "list" || shape?.type === "set") return `NonNullable<${type}>[number]`;
  if (shape?.type === "map") return `[string, NonNullable<${type}>[string]]`;
  return "unknown";
}

function paginatorCode(
  plan: ServicePlan,
  h: ClientHelper & { kind: "paginator" },
  client: string,
  imports: Imports,
  refs: ShapeRefs,
  serviceModule: string,
): string {
  const { op, paginated } = h;
  const input = ioType(refs, op.shape.input);
  const output = ioType(refs, op.shape.output);
  const operation = imports.from(serviceModule, op.name, "value");
  const paginate = imports.client("@anvil/client-core", "paginate", "value");
  const options = paginated.pageSize
    ? imports.client("@anvil/client-core", "PaginateOptions", "type")
    : `Omit<${imports.client("@anvil/client-core", "PaginateOptions", "type")}, "pageSize">`;
  const item = paginated.items === undefined ? undefined : itemType(plan, op, output, paginated.items);
  const result =
    item === undefined
      ? `${imports.client("@anvil/client-core", "Paginator", "type")}<${output}>`
      : `${imports.client("@anvil/client-core", "ItemPaginator", "type")}<${output}, ${item}>`;
  const opName = nameOf(op.shape.id);
  const lines = [
    `The pages of \`${opName}\`, one call per page, as an \`AsyncIterable\`: each call sends \`input\` with the last page's \`${paginated.outputToken}\` as \`${paginated.inputToken}\`, until a page comes without one.${
      item === undefined ? "" : ` \`items()\` iterates the \`${paginated.items}\` of every page instead.`
    }${paginated.pageSize ? ` \`options.pageSize\` is sent as \`${paginated.pageSize}\`.` : ""} \`options.signal\` stops it.`,
    `@param client - A client of the service (or anything with its \`${op.method}\` method).`,
    `@param input - The input of the first call.`,
    `@param options - ${paginated.pageSize ? "Page size, cancellation" : "Cancellation"}, what a repeated token means.`,
    `@throws \`PaginationError\` (\`RepeatedToken\`) when the service sends a token again, and whatever a call throws.`,
  ];
  if (op.shape.traits.has("smithy.api#deprecated")) lines.push("@deprecated The operation is deprecated.");
  const doc = docComment([lines[0], lines.slice(1).join("\n")]);
  const inputParam = inputOptional(plan, op) ? `input: ${input} = {}` : `input: ${input}`;
  return `\n${doc}export function ${h.name}(client: Pick<${client}, ${JSON.stringify(op.method)}>, ${inputParam}, options?: ${options}): ${result} {\n  return ${paginate}<${input}, ${output}${
    item === undefined ? "" : `, ${item}`
  }>(${operation}, (i, o) => ${methodRef(op.method)}(i, o), input, options);\n}\n`;
}

function waiterCode(h: ClientHelper & { kind: "waiter" }, client: string, imports: Imports, refs: ShapeRefs, serviceModule: string): string {
  const { op, definition } = h;
  const input = ioType(refs, op.shape.input);
  const output = ioType(refs, op.shape.output);
  const operation = imports.from(serviceModule, op.name, "value");
  const waitUntil = imports.client("@anvil/client-core/waiters", "waitUntil", "value");
  const options = imports.client("@anvil/client-core/waiters", "WaiterOptions", "type");
  const result = imports.client("@anvil/client-core/waiters", "WaiterResult", "type");
  const documentation = typeof definition.documentation === "string" ? definition.documentation : `Waits for the \`${h.waiter}\` state.`;
  const minDelay = typeof definition.minDelay === "number" ? definition.minDelay : 2;
  const maxDelay = typeof definition.maxDelay === "number" ? definition.maxDelay : 120;
  const lines = [
    documentation,
    `Calls \`${nameOf(op.shape.id)}\` until the \`${h.waiter}\` waiter's acceptors say it succeeded or failed, at most \`options.maxWaitTime\` seconds, between ${minDelay} and ${maxDelay} s apart (exponential backoff with jitter).`,
    `@param client - A client of the service (or anything with its \`${op.method}\` method).`,
    `@param input - The input of every call.`,
    `@param options - \`maxWaitTime\` in seconds (required), delays, a signal.`,
    `@returns The last output (or the error an acceptor accepted) and the number of attempts.`,
    `@throws \`WaiterError\` when the waiter fails, times out or is aborted, with the last output or error.`,
  ];
  if (definition.deprecated === true) lines.push("@deprecated The model marks this waiter deprecated.");
  const doc = docComment([lines[0], lines[1], lines.slice(2).join("\n")]);
  return `\n${doc}export function ${h.name}(client: Pick<${client}, ${JSON.stringify(op.method)}>, input: ${input}, options: ${options}): Promise<${result}<${output}>> {\n  return ${waitUntil}<${input}, ${output}>(${operation}, ${JSON.stringify(h.waiter)}, (i, o) => ${methodRef(op.method)}(i, o), input, options);\n}\n`;
}
