import type { ExampleRef } from "@anvil/dynamic";

/**
 * What the CLI says when a fake leaves an example out. The model's validator
 * has already warned about that example (`ExamplesTrait`, with the file,
 * line and column and the value at fault), so this only adds what the fake
 * does about it rather than say the same thing twice.
 */
export function unusableExampleNote(example: ExampleRef): string {
  return `the fake of \`${example.operation}\` leaves example ${JSON.stringify(example.title)} out (the ExamplesTrait warning on the operation says why)`;
}
