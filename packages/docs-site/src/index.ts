/**
 * `@anvil/docs-site`: documentation generated from a Smithy model. The
 * OpenAPI 3.1 document ({@link toOpenApi}), the static reference site
 * ({@link generateSite}) and web-standard handlers that serve both, with an
 * interactive explorer whose assets come from the installed package.
 *
 * @packageDocumentation
 */
export { toOpenApi, operationId } from "./openapi.js";
export type { OpenApiDocument, OpenApiOptions } from "./openapi.js";
export { DocsError } from "./service.js";
export { operationName } from "./protocols.js";
export { generateSite } from "./site/site.js";
export type { SiteFile, SiteOptions } from "./site/site.js";
export { docsRoutes, explorerHandler, openApiJsonHandler, siteHandler } from "./handlers.js";
export type { DocsHandler, DocsRoute, DocsRoutesOptions } from "./handlers.js";
