/**
 * Generic repairs of protocol test cases that upstream leaves incomplete, so
 * that they test what they mean to instead of failing on a gap in the test
 * data. Every repair is a rule about a kind of case (never a case id), is
 * applied only where the case lacks what the rule adds, and is reported with
 * the case's result, so that it stays visible in the text and JSON reports.
 *
 * - An operation bound to no service runs in a synthetic service declaring
 *   the case's protocol (see `targetOf`).
 * - An awsJson server request case without `X-Amz-Target` gets the header
 *   the awsJson specs define for its operation, `<Service>.<Operation>`
 *   (shape names): awsJson routes by it, and a request without it reaches no
 *   operation. smithy-rs repairs the same server cases.
 */
import type { Model } from "@anvil/model";
import type { HttpRequestCase, HttpResponseCase, Side } from "./cases.js";
import { targetOf, type Target } from "./run-case.js";

/** A case as it runs, and what was repaired in it (empty when nothing was). */
export interface RepairedCase<C> {
  readonly testCase: C;
  readonly repairs: readonly string[];
}

/** The protocols that route by `X-Amz-Target`. */
const TARGET_ROUTED = new Set(["aws.protocols#awsJson1_0", "aws.protocols#awsJson1_1"]);

/** Applies the repairs a case needs on one side; the case is returned as is when it needs none. */
export function repairCase<C extends HttpRequestCase | HttpResponseCase>(model: Model, c: C, side: Side): RepairedCase<C> {
  let target: Target;
  try {
    target = targetOf(model, c);
  } catch {
    return { testCase: c, repairs: [] }; // running the case reports why it has no target
  }
  const repairs: string[] = [];
  if (target.synthetic) repairs.push(`${c.attachedTo.id} is bound to no service: ran in a synthetic service declaring ${c.protocol}`);
  let testCase = c;
  if (c.kind === "request" && side === "server" && TARGET_ROUTED.has(c.protocol) && !hasHeader(c.headers, "x-amz-target")) {
    const value = `${target.service.name}.${target.operation.name}`;
    testCase = { ...testCase, headers: { ...c.headers, "X-Amz-Target": value } };
    repairs.push(`the request has no X-Amz-Target: added X-Amz-Target: ${value}, derived from the case's operation`);
  }
  return { testCase, repairs };
}

function hasHeader(headers: Readonly<Record<string, string>>, name: string): boolean {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return true;
  return false;
}
