/**
 * The contract model (`contract.smithy`): where it is, and the shapes the
 * round trip and the fuzzing cover. Its schemas are built at run time with
 * `@anvil/dynamic`.
 */
import { fileURLToPath } from "node:url";

/** The path of `contract.smithy` (from `src/` and from the built `dist/` alike). */
export const CONTRACT_MODEL_FILE: string = fileURLToPath(new URL("../src/contract.smithy", import.meta.url));

/** The model's namespace. */
export const CONTRACT_NS = "anvil.contract#";

/** Model shapes the round trip and the fuzzing cover: every shape type, wire names, timestamps, sparse collections, recursion, unions, big numbers, documents, defaults. */
export const CONTRACT_SHAPES: readonly string[] = Object.freeze(
  [
    "Scalars",
    "Times",
    "Wire",
    "Collections",
    "Tree",
    "WithUnion",
    "Choice",
    "BigNumbers",
    "Documents",
    "Defaults",
    "Everything",
    "Empty",
    "Strings",
    "SparseMap",
    "Color",
    "Level",
  ].map((n) => CONTRACT_NS + n),
);
