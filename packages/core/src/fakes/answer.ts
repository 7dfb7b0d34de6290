/**
 * How a fake answers one call: from a table of examples compiled into
 * generated code (or built at run time by `@anvil/fakes`). The rules that
 * pick an answer live here once, so a generated fake and `anvil serve
 * --fake` answer the same input the same way.
 */
import { BODY_EXCERPT_LENGTH, createModeledError, type ModeledError, UnmodeledError, ValidationError, type ValidationField } from "../errors/errors.js";
import { VALIDATION_EXCEPTION_ID } from "../protocol/error-type.js";
import { encodeUtf8 } from "../values/utf8.js";
import type { InputOf, OutputOf, Sendable } from "../schema/mapped-types.js";
import type { OperationSchema, StructSchema } from "../schema/schema.js";
import { compileValidator, type Validator } from "../validation/validator.js";
import { fillIdempotencyTokens } from "../values/idempotency.js";
import { compileExampleMatcher } from "./match.js";

/** One `@examples` entry of an operation, in runtime value form. */
export interface FakeExample {
  /** The example's title (for logs). */
  readonly title: string;
  /** The example input: members it lists must equal the incoming ones; absent ones match anything. */
  readonly input: unknown;
  /** The output answered when the input matches (required members already filled in). */
  readonly output?: unknown;
  /** The modeled error thrown when the input matches, with its members (`message` among them). */
  readonly error?: { readonly shapeId: string; readonly content: unknown };
}

/** What a fake knows about one operation. */
export interface FakeOperation {
  /**
   * Examples compared with the incoming input in model order; the first
   * match decides. Empty when the operation always answers {@link output}
   * (a single non-error example, or none).
   */
  readonly examples: readonly FakeExample[];
  /** The answer when no example matches: the first non-error example's output, or a synthesized one. */
  readonly output: unknown;
  /** The title of the example {@link output} comes from; absent when it is synthesized. */
  readonly outputFrom?: string;
}

/** A fake's answer to one call, and where it comes from (`example "title"` or `synthesized`). */
export type FakeAnswer = { readonly output: unknown; readonly source: string } | { readonly error: ModeledError; readonly source: string };

interface CompiledOperation {
  readonly matchInput: (example: unknown, input: unknown) => boolean;
  readonly materialize: (output: unknown) => unknown;
}

const compiled = new WeakMap<OperationSchema, CompiledOperation>();

function compileOperation(operation: OperationSchema): CompiledOperation {
  let c = compiled.get(operation);
  if (!c) {
    const matcher = compileExampleMatcher(operation.input);
    c = { matchInput: (example, input) => matcher(example ?? {}, input ?? {}), materialize: outputMaterializer(operation.output) };
    compiled.set(operation, c);
  }
  return c;
}

/** What a fake client does before answering: the server's input validator and the rejection it stands for. */
interface CompiledClientCheck {
  readonly validate: Validator<unknown>;
  readonly reject: (fieldList: readonly ValidationField[]) => Error;
}

const clientChecks = new WeakMap<OperationSchema, CompiledClientCheck>();

function compileClientCheck(operation: OperationSchema): CompiledClientCheck {
  let c = clientChecks.get(operation);
  if (!c) {
    c = { validate: compileValidator(operation.input) as Validator<unknown>, reject: validationRejection(operation) };
    clientChecks.set(operation, c);
  }
  return c;
}

/**
 * The error a real client rejects with when a server answers invalid input
 * with ValidationException (400): the modeled
 * `smithy.framework#ValidationException` (members `message` and
 * `fieldList`) when the operation or its service declares it (an
 * operation's `errors` hold its service's too), else an UnmodeledError
 * with code `ValidationException` and the server's message. Its
 * `bodyExcerpt` is the restJson1 body, `{"message": ...}` (the wire body,
 * hence the excerpt, differs a little per protocol: awsJson adds `__type`).
 */
function validationRejection(operation: OperationSchema): (fieldList: readonly ValidationField[]) => Error {
  const schema = operation.errors.find((e) => e.id === VALIDATION_EXCEPTION_ID);
  if (schema !== undefined) {
    const $metadata = { httpStatus: schema.traits.httpError ?? 400 };
    return (fieldList) =>
      createModeledError(
        schema,
        { message: ValidationError.summary(fieldList), fieldList: fieldList.map((f) => ({ path: f.path, message: f.message })) },
        { $metadata },
      );
  }
  return (fieldList) => {
    const message = ValidationError.summary(fieldList);
    return new UnmodeledError("ValidationException", message, {
      $metadata: { httpStatus: 400 },
      bodyExcerpt: JSON.stringify({ message }).slice(0, BODY_EXCERPT_LENGTH),
    });
  };
}

/**
 * Streamed output members are stored as data (bytes, a list of events) and
 * handed out as fresh streams on every call; the rest of the output is
 * copied shallowly, so a caller that changes it leaves the table intact.
 */
function outputMaterializer(output: StructSchema): (value: unknown) => unknown {
  const streamed = output.members.filter((m) => m.target.traits.streaming).map((m) => m.name);
  // A member bound to Content-Length (an S3-style download) must state the body actually sent: the payload's size
  // when the fake holds it as bytes or text, else nothing (the transport states the length, or streams).
  const length = output.members.find((m) => m.traits.httpHeader?.toLowerCase() === "content-length")?.name;
  const payload = output.members.find((m) => m.traits.httpPayload === true)?.name;
  return (value) => {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    if (length !== undefined) {
      const body = payload === undefined ? undefined : out[payload];
      const size = body instanceof Uint8Array ? body.byteLength : typeof body === "string" ? encodeUtf8(body).byteLength : undefined;
      if (size === undefined) delete out[length];
      else out[length] = size;
    }
    for (const name of streamed) {
      const data = out[name];
      if (data === undefined) continue;
      out[name] = Array.isArray(data) ? streamOf(data) : streamOf([data]);
    }
    return out;
  };
}

async function* streamOf(items: readonly unknown[]): AsyncIterable<unknown> {
  for (const item of items) yield item;
}

const sourceOf = (title: string | undefined): string => (title === undefined ? "synthesized" : `example ${JSON.stringify(title)}`);

/**
 * The answer of a fake operation to an input: the first example whose input
 * matches (its output, or its modeled error), else the default output.
 *
 * @param operation - The operation's schema.
 * @param fake - The operation's examples and default output.
 * @param input - The incoming (decoded, validated) input.
 */
export function fakeAnswer(operation: OperationSchema, fake: FakeOperation, input: unknown): FakeAnswer {
  const c = compileOperation(operation);
  for (const example of fake.examples) {
    if (!c.matchInput(example.input, input)) continue;
    const source = sourceOf(example.title);
    if (example.error) {
      const schema = operation.errors.find((e) => e.id === example.error!.shapeId);
      if (!schema)
        throw new TypeError(
          `fake ${operation.id}: example ${JSON.stringify(example.title)} names error ${example.error.shapeId}, which the operation does not declare`,
        );
      return { error: createModeledError(schema, example.error.content as Record<string, unknown>), source };
    }
    return { output: c.materialize(example.output ?? {}), source };
  }
  return { output: c.materialize(fake.output), source: sourceOf(fake.outputFrom) };
}

/**
 * Answers a call as a fake: resolves with the output, or rejects with the
 * matched example's modeled error. The input is not validated: generated
 * fake handlers call it from every operation method, behind a server that
 * validated the input already (fake clients call {@link fakeClientCall}).
 *
 * @example
 * ```ts
 * getCity(input: GetCityInput): Promise<GetCityOutput> {
 *   return fakeCall(GetCity, FAKES.getCity, input);
 * }
 * ```
 */
export async function fakeCall<Op extends OperationSchema<any, any>>(operation: Op, fake: FakeOperation, input: InputOf<Op>): Promise<OutputOf<Op>> {
  const answer = fakeAnswer(operation, fake, input);
  if ("error" in answer) throw answer.error;
  return answer.output as OutputOf<Op>;
}

/**
 * Answers a call as a fake client, the way a real client talking to a fake
 * server would: `@idempotencyToken` members left out are filled, the input
 * is validated with the server's validator (`@required`, `@length`,
 * `@range`, `@pattern`, enum values, `@uniqueItems`; compiled once per
 * operation), and invalid input rejects as the client would reject the
 * server's 400 ValidationException: with the modeled
 * `smithy.framework#ValidationException` (its `message` and `fieldList`)
 * when the operation or its service declares it, else with an
 * UnmodeledError of code `ValidationException`; either way `$metadata.httpStatus`
 * is 400 and the message names every violating field. Valid input is
 * answered as {@link fakeCall} answers it. Generated fake clients call it
 * from every operation method, with the input as a client takes it (left
 * out when no member is required; a streaming blob as whole bytes or text too).
 *
 * @example
 * ```ts
 * getCity(input: GetCityInput, _options?: CallOptions): Promise<GetCityOutput> {
 *   return fakeClientCall(GetCity, FAKES.getCity, input);
 * }
 * ```
 */
export async function fakeClientCall<Op extends OperationSchema<any, any>>(
  operation: Op,
  fake: FakeOperation,
  input: Sendable<InputOf<Op>> | undefined,
): Promise<OutputOf<Op>> {
  const check = compileClientCheck(operation);
  const filled = fillIdempotencyTokens(operation.input as StructSchema<object>, (input ?? {}) as object);
  const violations = check.validate(filled);
  if (violations.length > 0) throw check.reject(violations);
  const answer = fakeAnswer(operation, fake, filled);
  if ("error" in answer) throw answer.error;
  return answer.output as OutputOf<Op>;
}
