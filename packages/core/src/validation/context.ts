/**
 * The state of one validation run: the JSON pointer of the current value as
 * a stack of raw segments (turned into a string only when a violation is
 * reported, so valid input allocates nothing) and the violations found.
 *
 * @internal
 */
import type { ValidationField } from "../errors/errors.js";
import { violationMessage } from "./messages.js";

/** A compiled check of one value, reporting into the context. */
export type Check = (value: unknown, ctx: Context) => void;

/**
 * A compiled test of one value: whether its check would report nothing.
 * Valid input (the usual case) is only tested: no path is kept, and the
 * first violation ends the walk; the check then runs to report them all.
 */
export type Test = (value: unknown) => boolean;

/** A test and the check that reports what it fails on; they must agree. */
export interface Rule {
  readonly test: Test;
  readonly check: Check;
}

export interface Context {
  /** Path segments: member names, list indexes, map keys (unescaped). */
  readonly segs: (string | number)[];
  /** How many of `segs` belong to the current path. */
  depth: number;
  /** Violations so far; made on the first one. */
  out: ValidationField[] | undefined;
  /** Whether a run is using this context (validators may be re-entered from getters). */
  busy: boolean;
}

/** Stands for a map key in paths when the key is `@sensitive`. */
export const REDACTED_SEGMENT = "*****";

/** The frozen result of every valid run. */
export const NO_VIOLATIONS: readonly ValidationField[] = Object.freeze([]);

const shared: Context = { segs: [], depth: 0, out: undefined, busy: false };

/** Takes the shared context, or a fresh one when it is in use. */
export function acquire(): Context {
  const ctx = shared.busy ? { segs: [], depth: 0, out: undefined, busy: false } : shared;
  ctx.busy = true;
  ctx.depth = 0;
  ctx.out = undefined;
  return ctx;
}

/** Ends a run: the violations, or the shared empty result. */
export function release(ctx: Context): readonly ValidationField[] {
  const out = ctx.out;
  ctx.out = undefined;
  ctx.busy = false;
  return out === undefined ? NO_VIOLATIONS : out;
}

const escapeSegment = (s: string): string => (s.includes("~") || s.includes("/") ? s.replace(/~/g, "~0").replace(/\//g, "~1") : s);

/** The current JSON pointer (RFC 6901): `""` for the root, `/list/0/name` below it. */
export function currentPath(ctx: Context): string {
  let path = "";
  for (let i = 0; i < ctx.depth; i++) {
    const seg = ctx.segs[i]!;
    path += "/" + (typeof seg === "number" ? String(seg) : escapeSegment(seg));
  }
  return path;
}

/** Records a violation of `constraint` at the current path. */
export function report(ctx: Context, constraint: string, length?: number): void {
  const path = currentPath(ctx);
  (ctx.out ??= []).push({ path, message: violationMessage(path, constraint, length) });
}
