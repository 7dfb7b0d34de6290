import { readFileSync } from "node:fs";
import type { ValidationEvent } from "@anvil/model";
import {
  checkInvalidExpectation,
  parseInvalidExpectation,
  searchableEventText,
  type InvalidCheck,
  type InvalidExpectation,
} from "../../invalid-expectation.js";
import { listFiles, relativeName } from "../../files.js";
import { rejectingEvents } from "../../load.js";
import { loadIdl } from "./load-idl.js";
import { failed, passed, type CaseResult, type SuitePart } from "../../suite.js";
import { idlPaths } from "./paths.js";

/** One `idl/invalid` case after loading. */
interface InvalidOutcome {
  readonly name: string;
  readonly expectation: InvalidExpectation;
  /** The loader's crash, if it threw. */
  readonly crash: string | undefined;
  /** ERROR and DANGER events. */
  readonly errors: readonly ValidationEvent[];
  readonly check: InvalidCheck;
}

// The three invalid parts look at the same loads; each corpus is loaded once per process.
const cache = new Map<string, InvalidOutcome[]>();

function outcomes(corpus: string): InvalidOutcome[] {
  let found = cache.get(corpus);
  if (found) return found;
  const { invalid } = idlPaths(corpus);
  found = listFiles(invalid, (n) => n.endsWith(".smithy")).map((file) => {
    const expectation = parseInvalidExpectation(readFileSync(file, "utf8"));
    const loaded = loadIdl([file]);
    const errors = loaded.ok ? rejectingEvents(loaded.events) : [];
    return {
      name: relativeName(invalid, file),
      expectation,
      crash: loaded.ok ? undefined : loaded.crash,
      errors,
      check: checkInvalidExpectation(expectation, errors),
    };
  });
  cache.set(corpus, found);
  return found;
}

/** Why an invalid case was not rejected, or `undefined` if it was. */
function notRejected(o: InvalidOutcome): string | undefined {
  if (o.crash !== undefined) return o.crash;
  if (o.errors.length === 0) return `loaded without errors; expected: ${o.expectation.text}`;
  return undefined;
}

function expectedVersusActual(o: InvalidOutcome): string {
  const shown = o.errors.slice(0, 3).map((e) => `  ${searchableEventText(e)}`);
  if (o.errors.length > 3) shown.push(`  ... and ${o.errors.length - 3} more`);
  return [`expected: ${o.expectation.text}`, "actual:", ...shown].join("\n");
}

/** `idl/invalid`: every `.smithy` file fails to load (at least one ERROR or DANGER event). */
export const invalidPart: SuitePart = {
  name: "invalid",
  description: "each invalid .smithy file is rejected with an ERROR (or DANGER) event",
  run(corpus) {
    return outcomes(corpus).map((o): CaseResult => {
      const why = notRejected(o);
      return why === undefined ? passed(o.name) : failed(o.name, why);
    });
  },
};

/**
 * `idl/invalid`, position: an error names the expected `line L, column C`
 * (in its message or its location), or its text contains the whole expected
 * message. Cases whose expectation names no position need the message.
 */
export const invalidPositionPart: SuitePart = {
  name: "invalid-position",
  description: "an error has the expected line and column (or the expected message)",
  run(corpus) {
    return outcomes(corpus).map((o): CaseResult => {
      const why = notRejected(o);
      if (why !== undefined) return failed(o.name, `not rejected: ${why}`);
      if (o.check.positionMatched || o.check.messageMatched) return passed(o.name);
      const what = o.expectation.position ? "no error at the expected position" : "no error with the expected message";
      return failed(o.name, `${what}\n${expectedVersusActual(o)}`);
    });
  },
};

/**
 * `idl/invalid`, message: an error's text contains the expected first-line
 * text, as upstream checks it (`[EOF]` removed, newlines as `\n`; the event
 * is written `[SEVERITY] shape: message | EventId` as Smithy prints it).
 */
export const invalidMessagePart: SuitePart = {
  name: "invalid-message",
  description: "an error's text contains the expected message",
  run(corpus) {
    return outcomes(corpus).map((o): CaseResult => {
      const why = notRejected(o);
      if (why !== undefined) return failed(o.name, `not rejected: ${why}`);
      return o.check.messageMatched ? passed(o.name) : failed(o.name, expectedVersusActual(o));
    });
  },
};
