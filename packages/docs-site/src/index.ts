/**
 * `@anvil/docs-site`: documentation generated from a Smithy model. The
 * OpenAPI 3.1 document ({@link toOpenApi}), the static reference site
 * ({@link generateSite}) and web-standard handlers that serve both, with an
 * interactive explorer whose assets come from the installed package.
 *
 * @packageDocumentation
 */
export { toOpenApi, openApiPath, operationId, exampleKey } from "./openapi.js";
export type { OpenApiDocument, OpenApiOptions } from "./openapi.js";
export { DocsError, selectService, userServices } from "./service.js";
export { documentedProtocols, routeOf, operationName, unavailableReason } from "./protocols.js";
export type { ProtocolInfo, ProtocolKind, Route } from "./protocols.js";
export { encodeCbor, diagnostic, hexDump, CborFloat, CborTime } from "./cbor.js";
export { generateSite } from "./site/site.js";
export type { SiteFile, SiteOptions } from "./site/site.js";
export { docsRoutes, explorerHandler, openApiJsonHandler, siteHandler } from "./handlers.js";
export type { DocsHandler, DocsRoute, DocsRoutesOptions } from "./handlers.js";
