/**
 * The `Content-MD5` of `@httpChecksumRequired` operations. WebCrypto has no
 * MD5, so it is this package's own (`md5.ts`), loaded when such an operation
 * is first called: few are, and a client without them carries none of it.
 *
 * @internal
 */
import { lazyModule } from "./lazy-module.js";

const md5js = lazyModule(() => import("./md5.js"));

/** The MD5 digest of a body. */
export async function contentMd5(bytes: Uint8Array): Promise<Uint8Array> {
  const { md5 } = md5js.current ?? (await md5js.load());
  return md5(bytes);
}
