/**
 * The Swagger UI files the explorer serves, which the build embeds into
 * `dist/swagger-ui/files.js` (see `tsup.config.ts`) and the package's
 * `imports` map names `#swagger-ui`: a module, not files read at run time, so
 * that the explorer works where there is no file system (Workers) and in a
 * one-file bundle. Text files are kept as they are, others in base64.
 */
declare module "#swagger-ui" {
  /** By file name (`swagger-ui.css`, `favicon-32x32.png`, ...). */
  export const SWAGGER_UI_FILES: Readonly<Record<string, { readonly text: string } | { readonly base64: string }>>;
}
