import { join } from "node:path";
import { isDirectory, listDirectories, listFiles } from "../files.js";
import { listEvents, rejectingEvents, tryLoad } from "../load.js";
import { isModelFile, modelFilesOf } from "../manifest.js";
import { failed, passed, type CaseResult, type Suite, type SuitePart } from "../suite.js";

/** Upstream trait model folders under `traits/`. */
export const TRAITS = {
  aws: "smithy-aws-traits",
  test: "smithy-protocol-test-traits",
  protocols: "smithy-protocol-traits",
  validation: "smithy-validation-model",
  alloy: "alloy",
} as const;

/** The model files of the given upstream trait folders. */
export function traitFiles(corpus: string, ...names: (typeof TRAITS)[keyof typeof TRAITS][]): string[] {
  return names.flatMap((n) => modelFilesOf(join(corpus, "traits", n)));
}

/** Where trait definitions come from: the corpus's upstream files, or Anvil's bundled ones. */
type TraitSource = "upstream" | "bundled";

/** Loads one protocol-test folder with its companions; passes with no ERROR or DANGER event. */
function loadCase(name: string, paths: string[], traits: TraitSource): CaseResult {
  const loaded = tryLoad({ paths, bundledTraits: traits === "bundled" });
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
  traits: (corpus: string) => string[],
  source: TraitSource,
): SuitePart {
  return {
    name: source === "bundled" ? `${partName} (bundled traits)` : partName,
    description: source === "bundled" ? `${description}, with Anvil's bundled traits instead of the upstream ones` : description,
    run(corpus) {
      const model = root(corpus);
      if (!isDirectory(model)) return [failed("(folder)", `missing folder ${model}`)];
      const shared = [...companions(corpus), ...(source === "upstream" ? traits(corpus) : [])];
      return listDirectories(model).map((dir) => loadCase(dir, [...listFiles(join(model, dir), isModelFile), ...shared], source));
    },
  };
}

function alloyFolder(source: TraitSource): SuitePart {
  return {
    name: source === "bundled" ? "alloy (bundled traits)" : "alloy",
    description: `protocol-tests/alloy (its manifest) + ${source === "bundled" ? "Anvil's bundled traits" : "alloy and test traits"}`,
    run(corpus) {
      const dir = join(corpus, "protocol-tests", "alloy");
      if (!isDirectory(dir)) return [failed("alloy", `missing folder ${dir}`)];
      const traits = source === "upstream" ? traitFiles(corpus, TRAITS.alloy, TRAITS.test) : [];
      return [loadCase("alloy", [...modelFilesOf(dir), ...traits], source)];
    },
  };
}

/** `protocol-tests/smithy-aws-protocol-tests/model`. */
export const awsModel = (corpus: string): string => join(corpus, "protocol-tests", "smithy-aws-protocol-tests", "model");
/** `protocol-tests/smithy-protocol-tests/model`. */
export const smithyModel = (corpus: string): string => join(corpus, "protocol-tests", "smithy-protocol-tests", "model");

const awsParts = (source: TraitSource): SuitePart =>
  protocolFolders(
    "smithy-aws-protocol-tests",
    "model/<protocol> + shared-types + aws-config + AWS, test, protocol and validation traits",
    awsModel,
    (corpus) => [join(awsModel(corpus), "shared-types.smithy"), join(awsModel(corpus), "aws-config.smithy")],
    (corpus) => traitFiles(corpus, TRAITS.aws, TRAITS.test, TRAITS.protocols, TRAITS.validation),
    source,
  );

const smithyParts = (source: TraitSource): SuitePart =>
  protocolFolders(
    "smithy-protocol-tests",
    "model/<protocol> + shared-types + test, protocol and validation traits",
    smithyModel,
    (corpus) => [join(smithyModel(corpus), "shared-types.smithy")],
    (corpus) => traitFiles(corpus, TRAITS.test, TRAITS.protocols, TRAITS.validation),
    source,
  );

/**
 * `models`: every protocol-test model folder of the corpus loads with no
 * ERROR or DANGER events, once with the upstream trait models it needs and
 * once with Anvil's bundled trait definitions instead. One case per folder.
 */
export const modelsSuite: Suite = {
  name: "models",
  description: "protocol-test models load with the upstream trait models, and with Anvil's bundled ones",
  parts: [awsParts("upstream"), smithyParts("upstream"), alloyFolder("upstream"), awsParts("bundled"), smithyParts("bundled"), alloyFolder("bundled")],
};
