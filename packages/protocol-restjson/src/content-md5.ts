/**
 * The `Content-MD5` of `@httpChecksumRequired` operations. WebCrypto has no
 * MD5, so it is `@smithy/md5-js`'s, loaded when such an operation is first
 * called: few are, and a client without them carries none of it.
 *
 * @internal
 */
import { lazyModule } from "./lazy-module.js";

const md5js = lazyModule(() => import("@smithy/md5-js"));

/** The MD5 digest of a body. */
export async function contentMd5(bytes: Uint8Array): Promise<Uint8Array> {
  const { Md5 } = md5js.current ?? (await md5js.load());
  const hash = new Md5();
  hash.update(bytes);
  return hash.digest();
}
