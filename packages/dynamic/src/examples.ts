/**
 * An operation's `@examples` in runtime value form: inputs, outputs and
 * error contents converted with {@link runtimeValue}, so timestamps are
 * `Date`s, blobs bytes and unions `{ $case, value }`. Fakes answer from
 * them (generated ones and `anvil serve --fake` alike).
 */
import type { Model, NodeValue, Shape } from "@anvil/model";
import { isNodeObject, validateExampleValue } from "@anvil/model";
import { NodeValueError, runtimeValue } from "./runtime-value.js";

/** One `@examples` entry, its values in runtime form. */
export interface RuntimeExample {
  /** The example's title (`#1`, `#2`, ... when the model gives none). */
  readonly title: string;
  /** Its documentation, if any. */
  readonly documentation?: string;
  /** The input, converted for the operation's input shape. */
  readonly input?: Readonly<Record<string, unknown>>;
  /** The output, converted for the operation's output shape (event stream members: a list of events). */
  readonly output?: Readonly<Record<string, unknown>>;
  /** The modeled error: its shape id and its content, converted for that shape. */
  readonly error?: { readonly shapeId: string; readonly content?: Readonly<Record<string, unknown>> };
}

/** Which example of which operation: the operation's shape id and the example's title (`#1`, ... when untitled). */
export interface ExampleRef {
  /** The operation's absolute shape id, e.g. `example.weather#GetForecast`. */
  readonly operation: string;
  /** The example's title (`#1`, `#2`, ... by its position when the model gives none). */
  readonly title: string;
}

const UNIT = "smithy.api#Unit";

/**
 * The `@examples` of an operation, in model order (empty without the trait).
 * An example whose output or error content holds a value of the wrong type
 * (an object for a string, ...) is left out, and `onUnusable` told why: a
 * fake could not write it. Throws a {@link NodeValueError} for another
 * example value that does not fit its shape.
 *
 * @param model - The model the operation belongs to.
 * @param operation - The operation shape.
 * @param onUnusable - Told about each example left out: why, and which one (the model's validator reports the same
 *   problem as an `ExamplesTrait` warning, which a caller that printed those may point to instead).
 */
export function operationExamples(model: Model, operation: Shape, onUnusable?: (message: string, example: ExampleRef) => void): RuntimeExample[] {
  const trait = operation.traits.get("smithy.api#examples");
  if (!Array.isArray(trait)) return [];
  const out: RuntimeExample[] = [];
  trait.filter(isNodeObject).forEach((e, i) => {
    const title = typeof e.title === "string" ? e.title : `#${i + 1}`;
    const where = `@examples of \`${operation.id}\` ("${title}")`;
    const unusable = wrongTypeIn(model, operation, e);
    if (unusable !== undefined) onUnusable?.(`${where} ${unusable}: the fake leaves it out`, { operation: operation.id, title });
    else out.push(runtimeExample(model, operation, e, title, where));
  });
  return out;
}

/**
 * Where an example's output or error content holds a value of the wrong type
 * (a fake answering with it could not write it), or undefined.
 */
function wrongTypeIn(model: Model, operation: Shape, e: { readonly [key: string]: NodeValue }): string | undefined {
  const first = (part: string, shapeId: string | undefined, value: NodeValue | undefined): string | undefined => {
    if (shapeId === undefined || value === undefined || value === null) return undefined;
    const problem = validateExampleValue(model, shapeId, value).find((p) => p.wrongType === true);
    return problem === undefined ? undefined : `${part}${problem.path ? ` at ${problem.path}` : ""}: ${problem.message}`;
  };
  const error = isNodeObject(e.error) ? e.error : undefined;
  return first("output", operation.output, e.output) ?? first("error content", typeof error?.shapeId === "string" ? error.shapeId : undefined, error?.content);
}

/** One example in runtime form. */
function runtimeExample(model: Model, operation: Shape, e: { readonly [key: string]: NodeValue }, title: string, where: string): RuntimeExample {
  const convert = (target: string | undefined, value: NodeValue | undefined, part: string) =>
    value === undefined || value === null
      ? undefined
      : (runtimeValue(model, target ?? UNIT, value, `${where} ${part}`, { blobText: true }) as Readonly<Record<string, unknown>>);
  const out: { -readonly [K in keyof RuntimeExample]: RuntimeExample[K] } = { title };
  if (typeof e.documentation === "string") out.documentation = e.documentation;
  const input = convert(operation.input, e.input, "input");
  if (input !== undefined) out.input = input;
  const output = withEvents(model, operation.output, e.output, convert(operation.output, e.output, "output"), `${where} output`);
  if (output !== undefined) out.output = output;
  if (isNodeObject(e.error)) {
    const shapeId = e.error.shapeId;
    if (typeof shapeId !== "string") throw new NodeValueError(`${where} error: missing shapeId`);
    const content = convert(shapeId, e.error.content, "error content");
    out.error = content === undefined ? { shapeId } : { shapeId, content };
  }
  return out;
}

/**
 * An event stream member of an example output may list its events (an
 * array of union values, answered in order); the shape-guided conversion
 * leaves arrays for a union alone, so they are converted here, event by event.
 */
function withEvents(
  model: Model,
  outputId: string | undefined,
  node: NodeValue | undefined,
  converted: Readonly<Record<string, unknown>> | undefined,
  where: string,
): Readonly<Record<string, unknown>> | undefined {
  const shape = outputId === undefined ? undefined : model.getShape(outputId);
  if (!shape || !converted || !isNodeObject(node)) return converted;
  let out: Record<string, unknown> | undefined;
  for (const [name, member] of shape.members) {
    const value = node[name];
    const target = model.getShape(member.target);
    if (!Array.isArray(value) || target?.type !== "union" || !target.traits.has("smithy.api#streaming")) continue;
    out ??= { ...converted };
    out[name] = Object.freeze(value.map((event, i) => runtimeValue(model, target.id, event, `${where}.${name}[${i}]`, { blobText: true })));
  }
  return out ? Object.freeze(out) : converted;
}
