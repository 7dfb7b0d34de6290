/**
 * Compilation of selector syntax trees into evaluation steps, and the
 * push-based evaluator. Evaluation is continuation-passing: each step hands
 * the shapes it yields to the rest of the chain, and a receiver returning
 * `true` stops the whole evaluation (used to stop at the first match).
 * Filters (type checks, attributes, `:test`, `:not`, ...) allocate nothing.
 * @internal
 */
import type { Model } from "../model.js";
import { SIMPLE_TYPES } from "../shape.js";
import type { SelectorComparator, SelectorExpression, SelectorPathSegment, SelectorScopedValue } from "./ast.js";
import { compareScalars, compareValues, isPresent, nodeToString, resolvePath, type AttributeValue } from "./attributes.js";
import { collectDirected, getNeighborIndex, type NeighborIndex, type SelectorShape } from "./neighbors.js";

/** Evaluation state for one starting shape. @internal */
export interface Context {
  readonly model: Model;
  readonly index: NeighborIndex;
  vars: Map<string, ReadonlySet<SelectorShape>> | undefined;
  /** The shape an enclosing `:in` is looking for. */
  inTarget: SelectorShape | undefined;
}

/** Receives a yielded shape; returns true to stop evaluation. @internal */
export type Receiver = (ctx: Context, shape: SelectorShape) => boolean;

/** A compiled selector expression. @internal */
export type Step =
  | { readonly k: "filter"; readonly test: (ctx: Context, shape: SelectorShape) => boolean }
  | { readonly k: "undirected"; readonly forward: boolean }
  | { readonly k: "directed"; readonly forward: boolean; readonly types: ReadonlySet<string> }
  | { readonly k: "closure" }
  | { readonly k: "is"; readonly alts: readonly (readonly Step[])[] }
  | { readonly k: "varGet"; readonly name: string }
  | { readonly k: "root"; readonly steps: readonly Step[] }
  | { readonly k: "topdown"; readonly qualifier: readonly Step[]; readonly disqualifier: readonly Step[] | undefined }
  | { readonly k: "recursive"; readonly steps: readonly Step[] };

type RootStep = Extract<Step, { k: "root" }>;

/**
 * How `matchesSelector` decides membership for one shape:
 * `filter` — every step is a filter, so evaluate from the shape itself;
 * `backward` — walk the chain backwards from the shape through reverse edges;
 * `full` — select the whole model once (cached per model) and test membership.
 * @internal
 */
export type MatchMode = "filter" | "backward" | "full";

/** Stops at the first shape. @internal */
export const STOP: Receiver = () => true;

/** Creates an evaluation context. @internal */
export function createContext(model: Model): Context {
  return { model, index: getNeighborIndex(model), vars: undefined, inTarget: undefined };
}

// ---------------------------------------------------------------- compile

const NUMBER_TYPES = ["byte", "short", "integer", "intEnum", "long", "float", "double", "bigInteger", "bigDecimal"];
const TYPE_SETS: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(["string", "enum"]),
  integer: new Set(["integer", "intEnum"]),
  number: new Set(NUMBER_TYPES),
  simpleType: new Set([...SIMPLE_TYPES, "enum", "intEnum"]),
  collection: new Set(["list", "set"]),
  // Shapes that hold data: everything but members, services, resources and operations.
  dataType: new Set([...SIMPLE_TYPES, "enum", "intEnum", "list", "set", "map", "structure", "union"]),
  list: new Set(["list", "set"]),
  set: new Set(["list", "set"]),
};

const literalValue = (value: string): AttributeValue => ({ t: "literal", value });

/** Compiles a selector's expressions. @internal */
export function compile(exprs: readonly SelectorExpression[]): Step[] {
  const steps: Step[] = [];
  for (const expr of exprs) {
    const step = compileExpression(expr);
    if (step) steps.push(step);
  }
  return steps;
}

const isFilterChain = (steps: readonly Step[]): boolean => steps.every((s) => s.k === "filter");

function allPass(steps: readonly Step[], ctx: Context, shape: SelectorShape): boolean {
  for (const s of steps) if (s.k !== "filter" || !s.test(ctx, shape)) return false;
  return true;
}

/** Whether `steps` yields at least one shape from `shape`. */
function yields(steps: readonly Step[], ctx: Context, shape: SelectorShape): boolean {
  return run(steps, 0, ctx, shape, STOP);
}

function compileExpression(expr: SelectorExpression): Step | undefined {
  switch (expr.kind) {
    case "shapeType": {
      const t = expr.shapeType;
      if (t === "*") return undefined;
      const set = TYPE_SETS[t];
      if (set) return { k: "filter", test: (_c, s) => set.has(s.type) };
      return { k: "filter", test: (_c, s) => s.type === t };
    }
    case "attribute":
      return { k: "filter", test: compileAttribute(expr) };
    case "scopedAttribute":
      return { k: "filter", test: compileScoped(expr) };
    case "neighbor":
      return expr.relationships
        ? { k: "directed", forward: expr.direction === "forward", types: new Set(expr.relationships) }
        : { k: "undirected", forward: expr.direction === "forward" };
    case "recursiveNeighbor":
      return { k: "closure" };
    case "variableGet":
      return { k: "varGet", name: expr.name };
    case "variableSet": {
      const inner = compile(expr.selector);
      const name = expr.name;
      return {
        k: "filter",
        test: (ctx, shape) => {
          const found = new Set<SelectorShape>();
          run(inner, 0, ctx, shape, (_c, s) => {
            found.add(s);
            return false;
          });
          (ctx.vars ??= new Map()).set(name, found);
          return true;
        },
      };
    }
    case "function":
      return compileFunction(expr.name, expr.args.map(compile));
  }
}

function compileFunction(name: string, args: readonly Step[][]): Step {
  switch (name) {
    case "not": {
      const inner = args[0];
      return { k: "filter", test: (ctx, shape) => !yields(inner, ctx, shape) };
    }
    case "test":
      if (args.length === 1) {
        const inner = args[0];
        return { k: "filter", test: (ctx, shape) => yields(inner, ctx, shape) };
      }
      return {
        k: "filter",
        test: (ctx, shape) => {
          for (const arg of args) if (yields(arg, ctx, shape)) return true;
          return false;
        },
      };
    case "is":
    case "each":
      if (args.every(isFilterChain)) {
        return {
          k: "filter",
          test: (ctx, shape) => {
            for (const arg of args) if (allPass(arg, ctx, shape)) return true;
            return false;
          },
        };
      }
      return { k: "is", alts: args };
    case "in": {
      const inner = args[0];
      const only = inner.length === 1 ? inner[0] : undefined;
      if (only?.k === "root") return { k: "filter", test: (ctx, shape) => rootResult(ctx.model, only).has(shape) };
      if (only?.k === "varGet") return { k: "filter", test: (ctx, shape) => ctx.vars?.get(only.name)?.has(shape) === true };
      return {
        k: "filter",
        test: (ctx, shape) => {
          const saved = ctx.inTarget;
          ctx.inTarget = shape;
          const found = run(inner, 0, ctx, shape, IN_RECEIVER);
          ctx.inTarget = saved;
          return found;
        },
      };
    }
    case "root":
      return { k: "root", steps: args[0] };
    case "topdown":
      return { k: "topdown", qualifier: args[0], disqualifier: args[1] };
    case "recursive":
      return { k: "recursive", steps: args[0] };
    default:
      // Unknown functions parse, and yield nothing (spec).
      return { k: "filter", test: () => false };
  }
}

const IN_RECEIVER: Receiver = (ctx, shape) => shape === ctx.inTarget;

const STRING_COMPARATORS: ReadonlySet<SelectorComparator> = new Set(["=", "!=", "^=", "$=", "*=", ">", ">=", "<", "<="]);

function compileAttribute(expr: Extract<SelectorExpression, { kind: "attribute" }>): (ctx: Context, shape: SelectorShape) => boolean {
  const { path, comparison } = expr;
  const head = path[0].name;
  const second = path[1];
  // Fast paths for the forms trait definitions use: [trait|x], [trait|x = a, b], [id = x].
  if (head === "trait" && path.length === 2 && second.kind === "property") {
    const traitId = second.traitId;
    if (!comparison) {
      return (_c, shape) => {
        const v = shape.traits.get(traitId);
        return v !== undefined && v !== null;
      };
    }
    const { comparator, values, caseInsensitive } = comparison;
    if (STRING_COMPARATORS.has(comparator)) {
      return (_c, shape) => {
        const v = shape.traits.get(traitId);
        if (v === undefined || v === null) return false;
        const s = nodeToString(v);
        for (const b of values) if (compareScalars(comparator, s, b, caseInsensitive)) return true;
        return false;
      };
    }
  }
  if (head === "id" && path.length === 1 && comparison && STRING_COMPARATORS.has(comparison.comparator)) {
    const { comparator, values, caseInsensitive } = comparison;
    return (_c, shape) => {
      for (const b of values) if (compareScalars(comparator, shape.id, b, caseInsensitive)) return true;
      return false;
    };
  }
  if (!comparison) {
    return (ctx, shape) => isPresent(resolvePath({ t: "shape", shape }, path, ctx.vars));
  }
  const { comparator, caseInsensitive } = comparison;
  const rhs = comparison.values.map(literalValue);
  return (ctx, shape) => compareValues(comparator, resolvePath({ t: "shape", shape }, path, ctx.vars), rhs, caseInsensitive);
}

function compileScoped(expr: Extract<SelectorExpression, { kind: "scopedAttribute" }>): (ctx: Context, shape: SelectorShape) => boolean {
  type Resolver = (scope: AttributeValue, ctx: Context) => AttributeValue | undefined;
  const resolver = (v: SelectorScopedValue): Resolver => {
    if (v.kind === "literal") {
      const value = literalValue(v.value);
      return () => value;
    }
    const path: readonly SelectorPathSegment[] = v.path;
    return (scope, ctx) => resolvePath(scope, path, ctx.vars);
  };
  const assertions = expr.assertions.map((a) => ({
    left: resolver(a.left),
    right: a.right.map(resolver),
    comparator: a.comparator,
    caseInsensitive: a.caseInsensitive,
  }));
  const scopePath = expr.scope;
  const check = (scope: AttributeValue, ctx: Context): boolean => {
    for (const a of assertions) {
      const lhs = a.left(scope, ctx);
      const rhs = a.right.map((r) => r(scope, ctx));
      if (!compareValues(a.comparator, lhs, rhs, a.caseInsensitive)) return false;
    }
    return true;
  };
  return (ctx, shape) => {
    const shapeValue: AttributeValue = { t: "shape", shape };
    const scope = scopePath.length ? resolvePath(shapeValue, scopePath, ctx.vars) : shapeValue;
    if (!isPresent(scope)) return false;
    if (scope.t === "projection") {
      for (const item of scope.items) if (check(item, ctx)) return true;
      return false;
    }
    return check(scope, ctx);
  };
}

/** Decides how `matchesSelector` evaluates a compiled selector. @internal */
export function matchMode(exprs: readonly SelectorExpression[], steps: readonly Step[]): MatchMode {
  if (isFilterChain(steps)) return "filter";
  if (usesVariables(exprs)) return "full";
  return steps.every(isReversible) ? "backward" : "full";
}

function isReversible(step: Step): boolean {
  switch (step.k) {
    case "filter":
    case "undirected":
    case "directed":
    case "closure":
      return true;
    case "is":
      return step.alts.every((alt) => alt.every(isReversible));
    default:
      return false;
  }
}

function usesVariables(exprs: readonly SelectorExpression[]): boolean {
  const pathUsesVar = (path: readonly SelectorPathSegment[]): boolean => path[0]?.name === "var";
  return exprs.some((e) => {
    switch (e.kind) {
      case "variableGet":
      case "variableSet":
        return true;
      case "attribute":
        return pathUsesVar(e.path);
      case "scopedAttribute":
        return pathUsesVar(e.scope) || e.assertions.some((a) => [a.left, ...a.right].some((v) => v.kind === "context" && pathUsesVar(v.path)));
      case "function":
        return e.args.some(usesVariables);
      default:
        return false;
    }
  });
}

// ---------------------------------------------------------------- evaluate

/**
 * Pushes `shape` through `steps[i..]`, handing every yielded shape to `next`.
 * Returns true if `next` asked to stop. @internal
 */
export function run(steps: readonly Step[], i: number, ctx: Context, shape: SelectorShape, next: Receiver): boolean {
  for (; i < steps.length; i++) {
    const s = steps[i];
    const j = i + 1;
    switch (s.k) {
      case "filter":
        if (!s.test(ctx, shape)) return false;
        continue;
      case "undirected": {
        const list = s.forward ? ctx.index.undirectedForward(shape) : ctx.index.undirectedReverse(shape);
        for (const n of list) if (run(steps, j, ctx, n, next)) return true;
        return false;
      }
      case "directed": {
        const index = ctx.index;
        const types = s.types;
        for (const rel of s.forward ? index.forward(shape) : index.structuralReverse(shape)) {
          if (rel.type !== "target" && types.has(rel.type) && run(steps, j, ctx, rel.shape, next)) return true;
        }
        if (!s.forward && types.has("trait")) {
          for (const rel of index.traitReverse(shape)) if (run(steps, j, ctx, rel.shape, next)) return true;
        }
        if (s.forward && types.has("trait")) {
          for (const rel of index.traitRelationships(shape)) if (run(steps, j, ctx, rel.shape, next)) return true;
        }
        if (types.has("bound")) {
          for (const rel of s.forward ? index.boundRelationships(shape) : index.reverseBound(shape)) {
            if (run(steps, j, ctx, rel.shape, next)) return true;
          }
        }
        return false;
      }
      case "closure": {
        const visited = new Set<SelectorShape>([shape]);
        const stack: SelectorShape[] = [shape];
        while (stack.length) {
          for (const n of ctx.index.undirectedForward(stack.pop()!)) {
            if (visited.has(n)) continue;
            visited.add(n);
            if (run(steps, j, ctx, n, next)) return true;
            stack.push(n);
          }
        }
        return false;
      }
      case "is": {
        const rest: Receiver = (c, sh) => run(steps, j, c, sh, next);
        for (const alt of s.alts) if (run(alt, 0, ctx, shape, rest)) return true;
        return false;
      }
      case "varGet": {
        const set = ctx.vars?.get(s.name);
        if (set) for (const sh of set) if (run(steps, j, ctx, sh, next)) return true;
        return false;
      }
      case "root":
        for (const sh of rootResult(ctx.model, s)) if (run(steps, j, ctx, sh, next)) return true;
        return false;
      case "topdown":
        if (shape.type !== "service" && shape.type !== "resource" && shape.type !== "operation") return false;
        return topDown(s.qualifier, s.disqualifier, false, ctx, shape, (c, sh) => run(steps, j, c, sh, next), new Set());
      case "recursive": {
        const visited = new Set<SelectorShape>();
        const queue: SelectorShape[] = [shape];
        const receive: Receiver = (c, sh) => {
          if (visited.has(sh)) return false;
          visited.add(sh);
          if (run(steps, j, c, sh, next)) return true;
          queue.push(sh);
          return false;
        };
        for (let q = 0; q < queue.length; q++) if (run(s.steps, 0, ctx, queue[q], receive)) return true;
        return false;
      }
    }
  }
  return next(ctx, shape);
}

function topDown(
  qualifier: readonly Step[],
  disqualifier: readonly Step[] | undefined,
  qualified: boolean,
  ctx: Context,
  shape: SelectorShape,
  next: Receiver,
  visited: Set<SelectorShape>,
): boolean {
  if (visited.has(shape)) return false;
  visited.add(shape);
  if (!qualified && yields(qualifier, ctx, shape)) qualified = true;
  if (qualified && disqualifier && yields(disqualifier, ctx, shape)) qualified = false;
  if (qualified && next(ctx, shape)) return true;
  for (const rel of ctx.index.forward(shape)) {
    if ((rel.type === "operation" || rel.type === "resource") && rel.shape !== shape) {
      if (topDown(qualifier, disqualifier, qualified, ctx, rel.shape, next, visited)) return true;
    }
  }
  return false;
}

const rootCache = new WeakMap<Model, Map<RootStep, ReadonlySet<SelectorShape>>>();

/** The result of a `:root` subexpression, evaluated at most once per model. */
function rootResult(model: Model, step: RootStep): ReadonlySet<SelectorShape> {
  let perModel = rootCache.get(model);
  if (!perModel) rootCache.set(model, (perModel = new Map()));
  let result = perModel.get(step);
  if (!result) {
    result = selectAll(model, step.steps);
    perModel.set(step, result);
  }
  return result;
}

/** Evaluates `steps` against every shape of the model, each with fresh variables. @internal */
export function selectAll(model: Model, steps: readonly Step[]): Set<SelectorShape> {
  const result = new Set<SelectorShape>();
  const ctx = createContext(model);
  const collect: Receiver = (_c, shape) => {
    result.add(shape);
    return false;
  };
  for (const shape of model.allShapes()) {
    ctx.vars = undefined;
    run(steps, 0, ctx, shape, collect);
  }
  return result;
}

/**
 * Whether some starting shape makes `steps[0..i]` yield `shape`: walks the
 * chain backwards through reverse edges. Only for chains where every step
 * is reversible (see {@link matchMode}). @internal
 */
export function runBackward(steps: readonly Step[], i: number, ctx: Context, shape: SelectorShape, done: Receiver): boolean {
  for (; i >= 0; i--) {
    const s = steps[i];
    const j = i - 1;
    switch (s.k) {
      case "filter":
        if (!s.test(ctx, shape)) return false;
        continue;
      case "undirected": {
        const preds = s.forward ? ctx.index.undirectedReverse(shape) : ctx.index.undirectedForward(shape);
        for (const p of preds) if (runBackward(steps, j, ctx, p, done)) return true;
        return false;
      }
      case "directed":
        return collectDirected(ctx.index, shape, s.types, s.forward ? "reverse" : "forward", (p) => runBackward(steps, j, ctx, p, done));
      case "closure": {
        const visited = new Set<SelectorShape>([shape]);
        const stack: SelectorShape[] = [shape];
        while (stack.length) {
          for (const p of ctx.index.undirectedReverse(stack.pop()!)) {
            if (visited.has(p)) continue;
            visited.add(p);
            if (runBackward(steps, j, ctx, p, done)) return true;
            stack.push(p);
          }
        }
        return false;
      }
      case "is": {
        const rest: Receiver = (c, p) => runBackward(steps, j, c, p, done);
        for (const alt of s.alts) if (runBackward(alt, alt.length - 1, ctx, shape, rest)) return true;
        return false;
      }
      default:
        throw new Error(`selector step '${s.k}' cannot be evaluated backwards`);
    }
  }
  return done(ctx, shape);
}
