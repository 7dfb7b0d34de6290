/**
 * Syntax tree of a parsed Smithy selector. Every node is a plain, immutable
 * object so that tools can inspect a selector without evaluating it.
 */

/** One segment of an attribute path: a named property or a `(function)` property. */
export type SelectorPathSegment =
  | {
      readonly kind: "property";
      /** The property name as written (quotes removed). */
      readonly name: string;
      /**
       * The name read as a trait shape id: relative names resolve to the
       * `smithy.api` namespace. Used when the segment is applied to the
       * `trait` attribute.
       */
      readonly traitId: string;
    }
  | {
      readonly kind: "function";
      /** The function property name without parentheses, e.g. `keys`, `values`, `length`, `first`. */
      readonly name: string;
    };

/** Comparators usable in attribute and scoped attribute selectors. */
export type SelectorComparator = "=" | "!=" | "^=" | "$=" | "*=" | "?=" | ">" | ">=" | "<" | "<=" | "{=}" | "{!=}" | "{<}" | "{<<}";

/** Every comparator, longest first (the order the parser tries them in). */
export const SELECTOR_COMPARATORS: readonly SelectorComparator[] = ["{!=}", "{<<}", "{=}", "{<}", "^=", "$=", "*=", "!=", "?=", ">=", "<=", "=", ">", "<"];

/** A value on either side of a scoped comparison: a literal or a `@{path}` context value. */
export type SelectorScopedValue =
  | { readonly kind: "literal"; readonly value: string }
  | { readonly kind: "context"; readonly path: readonly SelectorPathSegment[] };

/** One `lhs comparator rhs[, rhs...] [i]` assertion of a scoped attribute selector. */
export interface SelectorScopedAssertion {
  readonly left: SelectorScopedValue;
  readonly comparator: SelectorComparator;
  readonly right: readonly SelectorScopedValue[];
  readonly caseInsensitive: boolean;
}

/** One expression of a selector; a selector is a sequence of expressions. */
export type SelectorExpression =
  | {
      /** `*` or a shape type name such as `structure`, `number`, `simpleType`. */
      readonly kind: "shapeType";
      readonly shapeType: string;
    }
  | {
      /** `[key|path...]` or `[key|path... comparator values [i]]`. */
      readonly kind: "attribute";
      /** The attribute path, starting with the attribute name (`id`, `trait`, `service`, `var`, `shape`). */
      readonly path: readonly SelectorPathSegment[];
      readonly comparison?: {
        readonly comparator: SelectorComparator;
        readonly values: readonly string[];
        readonly caseInsensitive: boolean;
      };
    }
  | {
      /** `[@key: assertion && assertion ...]`; `scope` is empty for `[@: ...]`. */
      readonly kind: "scopedAttribute";
      readonly scope: readonly SelectorPathSegment[];
      readonly assertions: readonly SelectorScopedAssertion[];
    }
  | {
      /**
       * `>` / `<` (undirected, `relationships` undefined) or
       * `-[a, b]->` / `<-[a, b]-` (directed).
       */
      readonly kind: "neighbor";
      readonly direction: "forward" | "reverse";
      readonly relationships?: readonly string[];
    }
  | {
      /** `~>`: every shape in the closure of the current shape. */
      readonly kind: "recursiveNeighbor";
    }
  | {
      /** `:name(selector, ...)`. Unknown names parse and yield no shapes. */
      readonly kind: "function";
      readonly name: string;
      readonly args: readonly (readonly SelectorExpression[])[];
    }
  | {
      /** `$name(selector)`. */
      readonly kind: "variableSet";
      readonly name: string;
      readonly selector: readonly SelectorExpression[];
    }
  | {
      /** `${name}`. */
      readonly kind: "variableGet";
      readonly name: string;
    };
