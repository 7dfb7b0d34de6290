import type { Model } from "../model.js";
import type { MemberShape, Shape } from "../shape.js";
import type { SelectorExpression } from "./ast.js";
import { compile, createContext, matchMode, run, runBackward, selectAll, STOP, type MatchMode, type Step } from "./evaluate.js";
import { parseSelectorExpressions } from "./parser.js";

/**
 * A parsed and compiled Smithy selector. Create one with {@link parseSelector};
 * evaluate it with {@link selectShapes} or {@link matchesSelector}.
 */
export class Selector {
  /** @internal Compiled evaluation steps. */
  readonly steps: readonly Step[];
  /** @internal How {@link matchesSelector} evaluates this selector for one shape. */
  readonly matchMode: MatchMode;

  /** @internal Use {@link parseSelector}. */
  constructor(
    /** The selector text as given. */
    readonly text: string,
    /** The parsed expressions, evaluated left to right. */
    readonly expressions: readonly SelectorExpression[],
  ) {
    this.steps = compile(expressions);
    this.matchMode = matchMode(expressions, this.steps);
  }

  /** The selector text. */
  toString(): string {
    return this.text;
  }
}

const MAX_CACHED = 2048;
const parsed = new Map<string, Selector>();

/**
 * Parses (and compiles) a selector. Results are cached by text, so calling
 * this repeatedly with the same few trait selectors is cheap.
 *
 * @throws {@link SelectorSyntaxError} if the text is not a valid selector.
 */
export function parseSelector(text: string): Selector {
  let selector = parsed.get(text);
  if (!selector) {
    selector = new Selector(text, parseSelectorExpressions(text));
    if (parsed.size >= MAX_CACHED) parsed.clear();
    parsed.set(text, selector);
  }
  return selector;
}

/**
 * Every shape and member the selector yields when each shape and member of the
 * model is used as a starting shape (variables reset per starting shape).
 */
export function selectShapes(model: Model, selector: Selector): Set<Shape | MemberShape> {
  return selectAll(model, selector.steps);
}

const fullResults = new WeakMap<Model, Map<Selector, ReadonlySet<Shape | MemberShape>>>();

/**
 * Whether `shape` is among the shapes `selectShapes(model, selector)` would
 * return, computed from that shape alone when possible:
 * selectors made only of filters (types, attributes, `:test`, `:not`, `:is`
 * of filters, `:in`, ...) are evaluated starting at `shape`; selectors whose
 * neighbor steps yield other shapes (`structure > member`) are walked
 * backwards from `shape` through the model's reverse edges. Selectors using
 * variables, `:root`, `:topdown` or `:recursive` as steps fall back to
 * selecting the whole model once per (model, selector) and caching the result.
 */
export function matchesSelector(model: Model, selector: Selector, shape: Shape | MemberShape): boolean {
  switch (selector.matchMode) {
    case "filter":
      return run(selector.steps, 0, createContext(model), shape, STOP);
    case "backward": {
      const steps = selector.steps;
      return runBackward(steps, steps.length - 1, createContext(model), shape, STOP);
    }
    case "full": {
      let perModel = fullResults.get(model);
      if (!perModel) fullResults.set(model, (perModel = new Map()));
      let result = perModel.get(selector);
      if (!result) {
        result = selectAll(model, selector.steps);
        perModel.set(selector, result);
      }
      return result.has(shape);
    }
  }
}
