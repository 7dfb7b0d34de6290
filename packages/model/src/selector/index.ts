export type {
  SelectorComparator,
  SelectorExpression,
  SelectorPathSegment,
  SelectorScopedAssertion,
  SelectorScopedValue,
} from "./ast.js";
export { SELECTOR_COMPARATORS } from "./ast.js";
export {
  forwardNeighbors,
  getNeighborIndex,
  NeighborIndex,
  reverseNeighbors,
  type Relationship,
  type RelationshipType,
  type SelectorShape,
} from "./neighbors.js";
export { SELECTOR_ATTRIBUTES, SELECTOR_SHAPE_TYPES } from "./parser.js";
export { SelectorSyntaxError } from "./selector-syntax-error.js";
export { matchesSelector, parseSelector, Selector, selectShapes } from "./selector.js";
