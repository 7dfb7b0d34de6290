import { tryLoad, type LoadOutcome } from "../../load.js";

/**
 * Loads IDL conformance files the way Smithy's own loader tests do: with the
 * prelude only. Anvil's bundled trait models (AWS, alloy, ...) are left out,
 * because no IDL case uses them and their shapes would show up in the events
 * of model-wide validators (the suppression errorfiles, for instance).
 */
export function loadIdl(paths: string[]): LoadOutcome {
  return tryLoad({ paths, bundledTraits: false });
}
