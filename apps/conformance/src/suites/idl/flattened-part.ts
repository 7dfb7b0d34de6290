import { basename } from "node:path";
import { flattenMixins } from "@anvil/model";
import { describeError } from "../../runner.js";
import { failed, passed, type CaseResult, type SuitePart } from "../../suite.js";
import { isFile, listFiles, relativeName } from "../../files.js";
import { loadProblem } from "../../load.js";
import { loadIdl } from "./load-idl.js";
import { diffModels } from "./model-diff.js";
import { idlPaths } from "./paths.js";

/**
 * `idl/valid/mixins/X.flattened.smithy`: loading `X.smithy` and flattening
 * its mixins gives the same model as loading the flattened file.
 */
export const flattenedPart: SuitePart = {
  name: "flattened",
  description: "flattenMixins(load X.smithy) equals load X.flattened.smithy",
  run(corpus) {
    const { valid } = idlPaths(corpus);
    const results: CaseResult[] = [];
    for (const flat of listFiles(valid, (n) => n.endsWith(".flattened.smithy"))) {
      const name = relativeName(valid, flat);
      const source = flat.replace(/\.flattened\.smithy$/, ".smithy");
      if (!isFile(source)) {
        results.push(failed(name, `no ${relativeName(valid, source)} to flatten`));
        continue;
      }
      const original = loadIdl([source]);
      const expected = loadIdl([flat]);
      const problems = [loadProblem(original, basename(source)), loadProblem(expected, basename(flat))].filter((p): p is string => p !== undefined);
      if (problems.length > 0 || !original.ok || !expected.ok) {
        results.push(failed(name, problems.join("\n")));
        continue;
      }
      let flattened;
      try {
        flattened = flattenMixins(original.model);
      } catch (error) {
        results.push(failed(name, `flattenMixins threw ${describeError(error)}`));
        continue;
      }
      const diff = diffModels(expected.model, flattened, "expected", "flattened");
      results.push(diff.length === 0 ? passed(name) : failed(name, `models differ:\n${diff.join("\n")}`));
    }
    return results;
  },
};
