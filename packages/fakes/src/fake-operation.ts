/**
 * From an operation's `@examples` (already runtime values) to the table a
 * fake answers from: examples completed with their required members, the
 * default output, and whether matching runs at all. `anvil generate`
 * writes this table into generated code as literals; `anvil serve --fake`
 * builds it at run time; both answer with core's `fakeAnswer`.
 */
import type { OperationSchema, StructSchema } from "@anvil/core";
import type { FakeExample, FakeOperation } from "@anvil/core/protocol";
import { completeStructure, synthesize } from "./synthesize.js";

/** One `@examples` entry of an operation, its values already in runtime form. */
export interface OperationExample {
  /** The example's title. */
  readonly title: string;
  /** The example input (absent: matches any input). */
  readonly input?: Readonly<Record<string, unknown>>;
  /** The example output (absent: an empty output, required members synthesized). */
  readonly output?: Readonly<Record<string, unknown>>;
  /** The modeled error the example describes. */
  readonly error?: { readonly shapeId: string; readonly content?: Readonly<Record<string, unknown>> };
}

/**
 * The fake table of one operation:
 * 1. with several examples, or any error example, every example is compared
 *    with the incoming input in model order (first match decides);
 * 2. a matched error example throws its modeled error, content completed;
 * 3. otherwise the first non-error example's output answers (required
 *    members it lacks synthesized, optional ones omitted);
 * 4. without one, a synthesized output.
 * A paginated operation's output token is left out of every output, so a
 * paginator stops after one page, unless another example's input carries
 * that very token: then the token stays, and examples whose input carries
 * a token are compared first, so a paginator follows the chain of pages
 * the examples describe (and still ends, as the last page has no token).
 *
 * @param operation - The operation's schema.
 * @param examples - Its `@examples`, in model order.
 * @param onWarning - Told about examples the fake cannot use (an error the operation does not declare): why, and which one.
 * @throws `UnterminatedRecursionError` when a required member cannot be synthesized.
 */
export function fakeOperation(
  operation: OperationSchema,
  examples: readonly OperationExample[],
  onWarning?: (message: string, example: { readonly operation: string; readonly title: string }) => void,
): FakeOperation {
  const usable = examples.filter((e) => {
    if (!e.error || operation.errors.some((s) => s.id === e.error!.shapeId)) return true;
    onWarning?.(
      `example ${JSON.stringify(e.title)} of \`${operation.id}\` names error \`${e.error.shapeId}\`, which the operation does not declare: the fake leaves it out`,
      {
        operation: operation.id,
        title: e.title,
      },
    );
    return false;
  });
  const chained = chainedTokens(operation, usable);
  const outputOf = (given: Readonly<Record<string, unknown>> | undefined) =>
    withoutOutputToken(operation, completeStructure(operation.output as StructSchema<unknown>, given ?? {}), chained);
  const table: FakeExample[] = usable.map((e) => {
    if (e.error) {
      const schema = operation.errors.find((s) => s.id === e.error!.shapeId)!;
      const content = completeStructure(schema as StructSchema<unknown>, e.error.content ?? {});
      return { title: e.title, input: e.input ?? {}, error: { shapeId: e.error.shapeId, content } };
    }
    return { title: e.title, input: e.input ?? {}, output: outputOf(e.output) };
  });
  const first = table.find((e) => e.error === undefined);
  const match = table.length > 1 || table.some((e) => e.error !== undefined);
  const output = first ? first.output : withoutOutputToken(operation, synthesize(operation.output, operation.name) as Record<string, unknown>, chained);
  // A later page's example is more specific than the first page's (whose input has no token, so matches any): it goes first.
  const ordered =
    chained.size === 0 ? table : [...table.filter((e) => hasInputToken(operation, e.input)), ...table.filter((e) => !hasInputToken(operation, e.input))];
  return first ? { examples: match ? ordered : [], output, outputFrom: first.title } : { examples: match ? ordered : [], output };
}

/** The path of an operation's input token, when it is paginated. */
function inputTokenPath(operation: OperationSchema): string[] | undefined {
  return operation.traits.paginated?.inputToken?.split(".");
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const key of path) v = v !== null && typeof v === "object" && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

function hasInputToken(operation: OperationSchema, input: unknown): boolean {
  const path = inputTokenPath(operation);
  return path !== undefined && typeof valueAt(input, path) === "string";
}

/** The (string) tokens some example's input carries: an output token among them links two pages. */
function chainedTokens(operation: OperationSchema, examples: readonly OperationExample[]): Set<string> {
  const path = inputTokenPath(operation);
  const out = new Set<string>();
  if (!path) return out;
  for (const e of examples) {
    const token = valueAt(e.input, path);
    if (typeof token === "string" && token !== "") out.add(token);
  }
  return out;
}

/** The output without the pagination output token (one page only), when the token is optional and no example's input carries it. */
function withoutOutputToken(operation: OperationSchema, output: Record<string, unknown>, chained: ReadonlySet<string>): Record<string, unknown> {
  const path = operation.traits.paginated?.outputToken?.split(".");
  if (!path) return output;
  const strip = (schema: StructSchema<unknown>, value: Record<string, unknown>, i: number): Record<string, unknown> => {
    const member = schema.members.find((m) => m.name === path[i]);
    if (!member || value[member.name] === undefined) return value;
    const out = { ...value };
    if (i === path.length - 1) {
      if (!member.traits.required && !chained.has(value[member.name] as string)) delete out[member.name];
    } else if (member.target.kind === "structure") {
      out[member.name] = strip(member.target, value[member.name] as Record<string, unknown>, i + 1);
    }
    return out;
  };
  return strip(operation.output as StructSchema<unknown>, output, 0);
}
