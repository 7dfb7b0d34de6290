import type { Suite } from "../suite.js";
import { errorfilesPart } from "./idl/errorfiles-part.js";
import { flattenedPart } from "./idl/flattened-part.js";
import { invalidMessagePart, invalidPart, invalidPositionPart } from "./idl/invalid-parts.js";
import { validPart } from "./idl/valid-part.js";

/**
 * `idl`: Smithy's IDL loader cases (`idl/` in the corpus): valid pairs,
 * mixin flattening, invalid files (rejection, then position and message of
 * the error), and loader errorfiles.
 */
export const idlSuite: Suite = {
  name: "idl",
  description: "Smithy IDL / JSON AST loader cases",
  parts: [validPart, flattenedPart, invalidPart, invalidPositionPart, invalidMessagePart, errorfilesPart],
};
