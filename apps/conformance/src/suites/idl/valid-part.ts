import { basename } from "node:path";
import { failed, passed, type CaseResult, type SuitePart } from "../../suite.js";
import { isFile, listFiles, relativeName } from "../../files.js";
import { loadProblem } from "../../load.js";
import { loadIdl } from "./load-idl.js";
import { diffModels } from "./model-diff.js";
import { idlPaths } from "./paths.js";

/**
 * `idl/valid`: each `X.json` with a sibling `X.smithy`. Both load (each with
 * `__shared.json`) without ERROR or DANGER events, and the two models are
 * equal by meaning.
 */
export const validPart: SuitePart = {
  name: "valid",
  description: "X.smithy and X.json (each with __shared.json) load cleanly and give equal models",
  run(corpus) {
    const { valid, shared } = idlPaths(corpus);
    const results: CaseResult[] = [];
    for (const json of listFiles(valid, (n) => n.endsWith(".json") && n !== "__shared.json")) {
      const smithy = json.replace(/\.json$/, ".smithy");
      if (!isFile(smithy)) continue;
      const name = relativeName(valid, smithy).replace(/\.smithy$/, "");
      const fromIdl = loadIdl([smithy, shared]);
      const fromJson = loadIdl([json, shared]);
      const problems = [loadProblem(fromIdl, basename(smithy)), loadProblem(fromJson, basename(json))].filter((p): p is string => p !== undefined);
      if (problems.length > 0 || !fromIdl.ok || !fromJson.ok) {
        results.push(failed(name, problems.join("\n")));
        continue;
      }
      const diff = diffModels(fromJson.model, fromIdl.model, "json", "idl");
      results.push(diff.length === 0 ? passed(name) : failed(name, `models differ:\n${diff.join("\n")}`));
    }
    return results;
  },
};
