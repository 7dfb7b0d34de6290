/**
 * `@anvil/core/codegen`: the entry point code generated before
 * `@anvil/core/codegenv1` imports; the same exports. Deprecated: it stays
 * for one release, so regenerate (`anvil generate`) to move to `codegenv1`.
 *
 * @deprecated Generated code imports `@anvil/core/codegenv1`.
 * @packageDocumentation
 */
export * from "./codegenv1.js";
