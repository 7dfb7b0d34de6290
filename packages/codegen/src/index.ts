/**
 * `@anvil/codegen`: the `anvil` command-line tool. It validates models,
 * prints their JSON AST, and generates TypeScript (`anvil generate`): types,
 * runtime schemas, error classes, the service descriptor, handler
 * interfaces, the client interface and (with `generateFakes`) the fakes of
 * each service, and serves fakes of any model (`anvil serve --fake`).
 * `anvil openapi` and `anvil docs` write a service's OpenAPI 3.1 document and
 * the static reference site (`@anvil/docs-site`).
 *
 * @packageDocumentation
 */
export { parseArgs } from "./args.js";
export type { ParsedArgs } from "./args.js";
export {
  astCommand,
  docsCommand,
  formatDiagnostic,
  formatSnippet,
  generateCommand,
  initCommand,
  openapiCommand,
  SourceLines,
  summarize,
  USAGE,
  validateCommand,
} from "./commands.js";
export type { Io } from "./commands.js";
export { generate, GENERATE_DEFAULTS } from "./generate/generate.js";
export type { GeneratedFile, GenerateOptions, GenerateResult } from "./generate/generate.js";
export { INIT_ANVIL_PACKAGES, INIT_TEMPLATES, pascalCase, planInit, writeInit } from "./init.js";
export type { InitFile, InitOptions, InitPlan, InitResult } from "./init.js";
export { ANVIL_CONFIG, BUNDLED_ARTIFACTS, resolveSettings, SMITHY_BUILD } from "./settings.js";
export type { GenerateSettings, SettingsResult } from "./settings.js";
export { fakeServers, GRPC_PROTOCOL, httpProtocols, serviceFakeTables, startFakeServe } from "./serve.js";
export type { FakeAuthState, FakeCredentials, FakeIdentity, FakeServe, FakeServeOptions, FakeServer, FakeServers, FakeServersOptions } from "./serve.js";
export { serveCommand } from "./serve-command.js";
export type { StopSignal } from "./serve-command.js";
