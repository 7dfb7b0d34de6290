/**
 * A fake service handler built at run time from fake tables: what
 * `anvil serve --fake` registers on a server. Generated fakes do the same
 * with tables compiled into code.
 */
import type { HandlersOf, ServiceSchema } from "@anvil/core";
import type { FakeOperation } from "@anvil/core/protocol";
import { fakeAnswer } from "@anvil/core/protocol";

/** One answered call, for logs. */
export interface FakeCall {
  /** The operation's key in the service (`getCity`). */
  readonly operation: string;
  /** The protocol the call came in with, when the server says (`aws.protocols#restJson1`). */
  readonly protocol?: string;
  /** Where the answer comes from: `example "title"` or `synthesized`. */
  readonly source: string;
  /** Whether the answer is a modeled error. */
  readonly error: boolean;
}

/** Options of {@link createFakeHandler}. */
export interface FakeHandlerOptions {
  /** Called once per call with what answered it. */
  readonly onCall?: (call: FakeCall) => void;
}

/**
 * A service handler answering every operation from its fake table.
 *
 * @param service - The service schema.
 * @param tables - Each operation's table, by operation key (see `fakeOperation`).
 * @param options - Logging.
 */
export function createFakeHandler<S extends ServiceSchema>(
  service: S,
  tables: { readonly [K in keyof S["operations"]]: FakeOperation },
  options: FakeHandlerOptions = {},
): HandlersOf<S, unknown> {
  const handler: Record<string, (input: unknown, context: unknown) => Promise<unknown>> = {};
  for (const key of Object.keys(service.operations)) {
    const operation = service.operations[key]!;
    const table = tables[key as keyof S["operations"]];
    handler[key] = async (input, context) => {
      const answer = fakeAnswer(operation, table, input);
      const protocol = (context as { protocol?: unknown } | undefined)?.protocol;
      options.onCall?.({ operation: key, ...(typeof protocol === "string" ? { protocol } : {}), source: answer.source, error: "error" in answer });
      if ("error" in answer) throw answer.error;
      return answer.output;
    };
  }
  return handler as HandlersOf<S, unknown>;
}
