import type { StructSchema } from "../schema/schema.js";

/** A fresh idempotency token (a random UUID v4). */
export function newIdempotencyToken(): string {
  return globalThis.crypto.randomUUID();
}

type Filler = (input: Record<string, unknown>, newToken: () => string) => Record<string, unknown>;

const fillers = new WeakMap<StructSchema<any>, Filler>();

/**
 * Fills `@idempotencyToken` members that the caller left out with fresh
 * tokens from `newToken` (default {@link newIdempotencyToken}), returning a
 * new object (the input is not changed). Compiled once per structure;
 * structures without such members return the input as is.
 */
export function fillIdempotencyTokens<T extends object>(schema: StructSchema<T>, input: T, newToken: () => string = newIdempotencyToken): T {
  let fill = fillers.get(schema);
  if (!fill) {
    const names = schema.members.filter((m) => m.traits.idempotencyToken).map((m) => m.name);
    fill =
      names.length === 0
        ? (value) => value
        : (value, token) => {
            let out: Record<string, unknown> | undefined;
            for (const name of names) {
              if (value[name] !== undefined) continue;
              out ??= { ...value };
              out[name] = token();
            }
            return out ?? value;
          };
    fillers.set(schema, fill);
  }
  return fill(input as Record<string, unknown>, newToken) as T;
}
