import { readFileSync } from "node:fs";
import { parseErrorfile, type ExpectedEvent } from "../../errorfile.js";
import { describeMismatch, matchEvents } from "../../event-matching.js";
import { isFile, listFiles, relativeName } from "../../files.js";
import { loadIdl } from "./load-idl.js";
import { describeError } from "../../runner.js";
import { failed, passed, type CaseResult, type SuitePart } from "../../suite.js";
import { idlPaths } from "./paths.js";

/**
 * `idl/errorfiles/loader`: each `X.smithy` or `X.json` with an `X.errors`
 * loads (with validation) to exactly the expected events, by the errorfile
 * rules in `event-matching.ts`.
 */
export const errorfilesPart: SuitePart = {
  name: "errorfiles",
  description: "each errorfile model produces exactly the events in its .errors file",
  run(corpus) {
    const { errorfiles } = idlPaths(corpus);
    const results: CaseResult[] = [];
    for (const model of listFiles(errorfiles, (n) => n.endsWith(".smithy") || n.endsWith(".json"))) {
      const name = relativeName(errorfiles, model);
      const errorsFile = model.replace(/\.(smithy|json)$/, ".errors");
      if (!isFile(errorsFile)) continue;
      let expected: ExpectedEvent[];
      try {
        expected = parseErrorfile(readFileSync(errorsFile, "utf8"));
      } catch (error) {
        results.push(failed(name, `cannot read ${relativeName(errorfiles, errorsFile)}: ${describeError(error)}`));
        continue;
      }
      const loaded = loadIdl([model]);
      if (!loaded.ok) {
        results.push(failed(name, loaded.crash));
        continue;
      }
      const mismatch = describeMismatch(matchEvents(expected, loaded.events));
      results.push(mismatch === undefined ? passed(name) : failed(name, mismatch));
    }
    return results;
  },
};
