import { modelToJsonAst, type Model } from "@anvil/model";
import { diffJsonAst } from "../../json-ast-compare.js";
import { describeError } from "../../runner.js";

/**
 * The semantic differences between two models, compared through their JSON
 * AST without the prelude (see `json-ast-compare.ts`). Empty when equal.
 */
export function diffModels(expected: Model, actual: Model, leftLabel: string, rightLabel: string): string[] {
  try {
    const left = modelToJsonAst(expected, { includePrelude: false });
    const right = modelToJsonAst(actual, { includePrelude: false });
    return diffJsonAst(left, right, { leftLabel, rightLabel, limit: 8 });
  } catch (error) {
    return [`modelToJsonAst threw ${describeError(error)}`];
  }
}
