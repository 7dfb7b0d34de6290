import { join } from "node:path";
import { isDirectory, listDirectories, listFiles } from "../files.js";
import { listEvents, rejectingEvents, tryLoad } from "../load.js";
import { isModelFile, modelFilesOf } from "../manifest.js";
import { failed, passed, type CaseResult, type Suite, type SuitePart } from "../suite.js";

/** Upstream trait model folders under `traits/`. */
const TRAITS = {
  aws: "smithy-aws-traits",
  test: "smithy-protocol-test-traits",
  protocols: "smithy-protocol-traits",
  validation: "smithy-validation-model",
  alloy: "alloy",
} as const;

function traitFiles(corpus: string, ...names: (typeof TRAITS)[keyof typeof TRAITS][]): string[] {
  return names.flatMap((n) => modelFilesOf(join(corpus, "traits", n)));
}

/** Loads one protocol-test folder with its companions; passes with no ERROR or DANGER event. */
function loadCase(name: string, paths: string[]): CaseResult {
  const loaded = tryLoad({ paths, bundledTraits: false });
  if (!loaded.ok) return failed(name, loaded.crash);
  const errors = rejectingEvents(loaded.events);
  if (errors.length === 0) return passed(name);
  return failed(name, `${errors.length} error(s) loading ${paths.length} files\n${listEvents(errors, 5)}`);
}

/** One case per protocol folder of a `model/` directory, each with the given shared files and traits. */
function protocolFolders(
  partName: string,
  description: string,
  root: (corpus: string) => string,
  companions: (corpus: string) => string[],
): SuitePart {
  return {
    name: partName,
    description,
    run(corpus) {
      const model = root(corpus);
      if (!isDirectory(model)) return [failed("(folder)", `missing folder ${model}`)];
      const shared = companions(corpus);
      return listDirectories(model).map((dir) => loadCase(dir, [...listFiles(join(model, dir), isModelFile), ...shared]));
    },
  };
}

const awsModel = (corpus: string): string => join(corpus, "protocol-tests", "smithy-aws-protocol-tests", "model");
const smithyModel = (corpus: string): string => join(corpus, "protocol-tests", "smithy-protocol-tests", "model");

/**
 * `models`: every protocol-test model folder of the corpus loads, together
 * with the upstream trait models it needs (not Anvil's bundled traits), with
 * no ERROR or DANGER events. One case per folder.
 */
export const modelsSuite: Suite = {
  name: "models",
  description: "protocol-test models load with the upstream trait models",
  parts: [
    protocolFolders(
      "smithy-aws-protocol-tests",
      "model/<protocol> + shared-types + aws-config + AWS, test, protocol and validation traits",
      awsModel,
      (corpus) => [
        join(awsModel(corpus), "shared-types.smithy"),
        join(awsModel(corpus), "aws-config.smithy"),
        ...traitFiles(corpus, TRAITS.aws, TRAITS.test, TRAITS.protocols, TRAITS.validation),
      ],
    ),
    protocolFolders(
      "smithy-protocol-tests",
      "model/<protocol> + shared-types + test, protocol and validation traits",
      smithyModel,
      (corpus) => [
        join(smithyModel(corpus), "shared-types.smithy"),
        ...traitFiles(corpus, TRAITS.test, TRAITS.protocols, TRAITS.validation),
      ],
    ),
    {
      name: "alloy",
      description: "protocol-tests/alloy (its manifest) + alloy and test traits",
      run(corpus) {
        const dir = join(corpus, "protocol-tests", "alloy");
        if (!isDirectory(dir)) return [failed("alloy", `missing folder ${dir}`)];
        return [loadCase("alloy", [...modelFilesOf(dir), ...traitFiles(corpus, TRAITS.alloy, TRAITS.test)])];
      },
    },
  ],
};
