/**
 * The contract between the runner and a conformance suite. A suite is a named
 * list of parts; a part runs against the corpus folder and returns one result
 * per case. New suites (protocol compliance: restJson1, awsJson1_0, ...) add
 * a file under `suites/` and an entry in the registry.
 */

/** The outcome of one case. */
export type CaseStatus = "passed" | "failed" | "skipped";

/** One case's result. `reason` says why it failed or was skipped. */
export interface CaseResult {
  /** A stable, human-readable case name, usually a corpus-relative path. */
  readonly case: string;
  readonly status: CaseStatus;
  readonly reason?: string;
  /** What the runner repaired in an incomplete case before running it (reported, never silent). */
  readonly repairs?: readonly string[];
}

/** A group of cases of the same kind, such as `idl/valid`. */
export interface SuitePart {
  readonly name: string;
  /** One line saying what a passed case means. */
  readonly description: string;
  /** Runs every case of the part against the corpus root folder. */
  run(corpus: string): CaseResult[] | Promise<CaseResult[]>;
}

/** A named conformance suite. */
export interface Suite {
  readonly name: string;
  readonly description: string;
  readonly parts: readonly SuitePart[];
}

/** A passed case. */
export function passed(name: string): CaseResult {
  return { case: name, status: "passed" };
}

/** A failed case with its reason. */
export function failed(name: string, reason: string): CaseResult {
  return { case: name, status: "failed", reason };
}

/** A skipped case with its reason. */
export function skipped(name: string, reason: string): CaseResult {
  return { case: name, status: "skipped", reason };
}

/** The result with the runner's repairs of the case noted (unchanged when there were none). */
export function withRepairs(result: CaseResult, repairs: readonly string[]): CaseResult {
  return repairs.length === 0 ? result : { ...result, repairs };
}
