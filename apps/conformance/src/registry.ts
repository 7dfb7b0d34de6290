import type { Suite } from "./suite.js";
import { idlSuite } from "./suites/idl-suite.js";
import { modelsSuite } from "./suites/models-suite.js";

/**
 * Every registered suite, in run order. To add one (for example a protocol
 * compliance suite such as `restJson1`), write `suites/<name>-suite.ts`
 * exporting a {@link Suite} and list it here.
 */
export const SUITES: readonly Suite[] = [idlSuite, modelsSuite];
