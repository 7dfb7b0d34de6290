/** Thrown by `parseSelector` when a selector is not valid selector syntax. */
export class SelectorSyntaxError extends Error {
  /** The error's name, `SelectorSyntaxError`. */
  override readonly name = "SelectorSyntaxError";

  constructor(
    /** What is wrong, without the position. */
    readonly reason: string,
    /** The selector text that failed to parse. */
    readonly selector: string,
    /** 0-based offset into `selector` where the problem was found. */
    readonly position: number,
  ) {
    super(`Invalid selector at position ${position}: ${reason}\n  ${selector.replace(/[\r\n\t]/g, " ")}\n  ${" ".repeat(position)}^`);
  }
}
