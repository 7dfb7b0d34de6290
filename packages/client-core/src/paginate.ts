/**
 * Paginators: an operation's `@paginated` trait (merged with its service's)
 * turned into an `AsyncIterable` of pages. The token and item paths are
 * split once per operation; a page costs one call and a few property reads.
 */
import { AnvilError, type CallOptions, type OperationSchema, TransportError } from "@anvil/core";
import { ABORTED } from "./retry.js";

const KIND = Symbol.for("anvil.error.kind");

/** Options of a paginator. */
export interface PaginateOptions {
  /**
   * How many items a page may hold: sent in the operation's page-size
   * member (`@paginated(pageSize)`) on every call, over any value the input
   * gives. An operation without one refuses it.
   */
  readonly pageSize?: number;
  /** Stops the iteration: the call in flight is aborted, and the iteration rejects with a `RequestAborted` `TransportError`. */
  readonly signal?: AbortSignal;
  /**
   * What a continuation token the service already sent means: `false`
   * (the default) rejects with a `PaginationError` (`RepeatedToken`), as a
   * loop that would never end; `true` ends the iteration there, for "tail"
   * operations that answer the same token until something new arrives.
   */
  readonly stopOnSameToken?: boolean;
}

/** The pages of a paginated operation, one call per page, each iteration starting again from the input. */
export interface Paginator<Page> extends AsyncIterable<Page> {}

/** The pages of a paginated operation whose trait names its `items`, and those items across pages. */
export interface ItemPaginator<Page, Item> extends Paginator<Page> {
  /**
   * The items of every page, in order: the elements of the `items` list
   * (or the `[key, value]` entries of an `items` map), page after page.
   */
  items(): AsyncIterable<Item>;
}

/** What a paginator calls: the client's method of the operation. */
export type PageCall<Input, Page> = (input: Input, options: CallOptions) => Promise<Page>;

/** The paths of an operation's `@paginated`, split once. */
interface Paths {
  readonly operation: string;
  readonly inputToken: readonly string[];
  readonly outputToken: readonly string[];
  readonly items: readonly string[] | undefined;
  readonly pageSize: readonly string[] | undefined;
}

const compiled = new WeakMap<OperationSchema<any, any>, Paths>();

function pathsOf(operation: OperationSchema<any, any>): Paths {
  let paths = compiled.get(operation);
  if (paths) return paths;
  const p = operation.traits.paginated;
  if (!p?.inputToken || !p.outputToken) {
    throw new PaginationError(
      "NotPaginated",
      `paginate ${operation.name}: the operation has no @paginated trait with inputToken and outputToken (its own or its service's)`,
      {
        operation: operation.id,
      },
    );
  }
  paths = {
    operation: operation.name,
    inputToken: p.inputToken.split("."),
    outputToken: p.outputToken.split("."),
    items: p.items?.split("."),
    pageSize: p.pageSize?.split("."),
  };
  compiled.set(operation, paths);
  return paths;
}

/**
 * The pages of a paginated operation. The first call sends `input` as it
 * is; each next one sends the same input with the last page's continuation
 * token (`@paginated(outputToken)`, a member path such as `result.next`)
 * in its input token member. The iteration ends on a page without a token,
 * or with an empty one (`""`, or a map with no entry); a token that comes
 * back again rejects with a {@link PaginationError} (see
 * {@link PaginateOptions.stopOnSameToken}). Generated clients wrap it per
 * operation (`paginateListCities(client, input)`), typed.
 *
 * @example
 * ```ts
 * for await (const page of paginate(ListCities, (i, o) => weather.listCities(i, o), { pageSize: 10 })) {
 *   console.log(page.items.length);
 * }
 * ```
 *
 * @param operation - The operation's schema (its `@paginated` says where the tokens and items are).
 * @param call - Calls the operation: the client's method.
 * @param input - The input of the first call.
 * @param options - Page size, cancellation, repeated tokens.
 */
export function paginate<Input, Page, Item = unknown>(
  operation: OperationSchema<any, any>,
  call: PageCall<Input, Page>,
  input: Input,
  options: PaginateOptions = {},
): ItemPaginator<Page, Item> {
  const paths = pathsOf(operation);
  if (options.pageSize !== undefined && paths.pageSize === undefined) {
    throw new PaginationError("NoPageSize", `paginate ${paths.operation}: the operation takes no page size (its @paginated names no pageSize member)`, {
      operation: operation.id,
    });
  }
  const pages = () => iteratePages(paths, operation.id, call, input, options);
  return {
    [Symbol.asyncIterator]: () => pages()[Symbol.asyncIterator](),
    items: () => iterateItems(paths, operation.id, pages()),
  };
}

async function* iteratePages<Input, Page>(
  paths: Paths,
  operationId: string,
  call: PageCall<Input, Page>,
  first: Input,
  options: PaginateOptions,
): AsyncGenerator<Page, void, undefined> {
  const signal = options.signal;
  const callOptions: CallOptions = signal ? { signal } : {};
  let input = options.pageSize === undefined ? first : withPath(first, paths.pageSize!, options.pageSize);
  // Every token sent so far: one that comes back again would start a loop.
  const seen = new Set<string>();
  const sent = getPath(first, paths.inputToken);
  if (!isEmptyToken(sent)) seen.add(tokenKey(sent));
  for (;;) {
    if (signal?.aborted) throw aborted(paths, signal);
    const page = await call(input, callOptions);
    yield page;
    const token = getPath(page, paths.outputToken);
    if (isEmptyToken(token)) return;
    const key = tokenKey(token);
    if (seen.has(key)) {
      if (options.stopOnSameToken) return;
      throw new PaginationError(
        "RepeatedToken",
        `paginate ${paths.operation}: the service answered a continuation token it had already given (after ${seen.size} token${seen.size === 1 ? "" : "s"}); stopping instead of looping (pass stopOnSameToken: true to end quietly)`,
        { operation: operationId },
      );
    }
    seen.add(key);
    input = withPath(input, paths.inputToken, token);
  }
}

async function* iterateItems<Page, Item>(paths: Paths, operationId: string, pages: AsyncIterable<Page>): AsyncGenerator<Item, void, undefined> {
  if (paths.items === undefined) {
    throw new PaginationError("NoItems", `paginate ${paths.operation}: the operation's @paginated names no items`, { operation: operationId });
  }
  for await (const page of pages) {
    const items = getPath(page, paths.items);
    if (items === undefined || items === null) continue;
    if (Array.isArray(items)) {
      for (let i = 0; i < items.length; i++) yield items[i] as Item;
    } else if (typeof items === "object") {
      for (const entry of Object.entries(items)) yield entry as Item;
    }
  }
}

function aborted(paths: Paths, signal: AbortSignal): TransportError {
  return new TransportError(ABORTED, `paginate ${paths.operation}: aborted`, { cause: signal.reason });
}

/** The value at a member path, or undefined where a step is missing. */
function getPath(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (let i = 0; i < path.length; i++) {
    if (v === null || typeof v !== "object") return undefined;
    const key = path[i]!;
    v = Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined;
  }
  return v;
}

/** A copy of `value` with `path` set, copying only the structures on the path. */
function withPath<T>(value: T, path: readonly string[], to: unknown, i = 0): T {
  const base = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const key = path[i]!;
  const next = i === path.length - 1 ? to : withPath(Object.hasOwn(base, key) ? base[key] : undefined, path, to, i + 1);
  const out: Record<string, unknown> = { ...base };
  // A key such as `__proto__` is data here, as everywhere values are built.
  Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  return out as T;
}

/** Absent, null, `""`, or a map token with no entry: no more pages. */
function isEmptyToken(token: unknown): boolean {
  if (token === undefined || token === null || token === "") return true;
  return typeof token === "object" && !Array.isArray(token) && Object.keys(token).length === 0;
}

/** A token as a key for the set of tokens seen: strings as they are, map tokens by their content. */
function tokenKey(token: unknown): string {
  if (typeof token === "string") return `s${token}`;
  return `j${JSON.stringify(token, (_key, v: unknown) => {
    if (typeof v === "bigint") return `${v}n`;
    if (v instanceof Uint8Array) return Array.from(v);
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      // Map tokens compare by content, whatever the order their keys came in.
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  })}`;
}

/** What went wrong while paginating: `RepeatedToken`, `NotPaginated`, `NoPageSize` or `NoItems`. */
export type PaginationErrorCode = "RepeatedToken" | "NotPaginated" | "NoPageSize" | "NoItems";

/**
 * A paginator that cannot go on: the service sent a continuation token
 * again (`RepeatedToken`), or the paginator was asked for something the
 * operation's `@paginated` does not name.
 */
export class PaginationError extends AnvilError {
  /** What went wrong. */
  readonly code: PaginationErrorCode;
  /** The operation's absolute shape id. */
  readonly operation: string;

  constructor(code: PaginationErrorCode, message: string, options: { readonly operation: string; readonly cause?: unknown }) {
    super("pagination", message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = "PaginationError";
    this.code = code;
    this.operation = options.operation;
  }

  /** Whether a value is a pagination error, by brand (also across copies of this package). */
  static is(value: unknown): value is PaginationError {
    return typeof value === "object" && value !== null && (value as { [KIND]?: unknown })[KIND] === "pagination";
  }
}
