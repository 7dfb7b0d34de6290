/** A throwaway certificate for TLS tests on loopback, made by the machine's openssl. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether `openssl` runs here; TLS tests skip without it. */
export const hasOpenssl: boolean = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/**
 * A self-signed certificate and its key, valid for a day, for `localhost` and
 * `127.0.0.1` (the subjectAltName TLS clients check). `ec` (P-256, the
 * default) or `rsa` (2048 bits) keys.
 */
export function selfSignedCertificate(keyType: "ec" | "rsa" = "ec"): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), "anvil-tls-"));
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  const keyArgs = keyType === "ec" ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"] : ["-newkey", "rsa:2048"];
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        ...keyArgs,
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
