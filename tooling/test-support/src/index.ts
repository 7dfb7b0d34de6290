/**
 * `@anvil/test-support`: what Anvil's own tests share. Private: no package
 * depends on it at run time, and nothing here is a promise to users.
 *
 * @packageDocumentation
 */
export { cleanEnv } from "./env.js";
export { closeServer, freePort, type Listenable, listenLoopback } from "./net.js";
export { type ReadmeExample, type ReadmeExampleOptions, readmeExample, runReadmeExample } from "./readme.js";
export { hasOpenssl, selfSignedCertificate } from "./tls.js";
