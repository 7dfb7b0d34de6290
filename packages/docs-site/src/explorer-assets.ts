/**
 * The files of swagger-ui-dist the explorer page loads; nothing else of the
 * package is served. The build embeds them into `dist/swagger-ui/files.js`
 * (and copies Swagger UI's licence files next to it; see `tsup.config.ts`),
 * so users' installs do not need swagger-ui-dist.
 *
 * @internal
 */
export const EXPLORER_ASSETS: readonly string[] = ["swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"];

/** Where the build puts them, relative to the package root. @internal */
export const SHIPPED_SWAGGER_UI_DIR = "dist/swagger-ui/";
