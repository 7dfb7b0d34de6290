/**
 * C2: `sigv4()` against AWS's SigV4 test suite (aws-c-auth's
 * `tests/aws-signing-test-suite/v4`, Apache-2.0), byte for byte. The suite
 * is not kept in this repository: the test reads it from the folder in
 * `SIGV4_TEST_SUITE`, else from `aws-signing-test-suite/v4` in the
 * `shared/` folder beside the repository, and is skipped, saying so, when
 * neither has it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { chainOf, runCase, type SuiteCase, type SuiteExpected } from "./signing-suite.js";

const suiteDir = process.env.SIGV4_TEST_SUITE ?? resolve(import.meta.dirname, "../../../../shared/aws-signing-test-suite/v4");

function loadSuite(dir: string): SuiteCase[] {
  const read = (name: string, file: string) => readFileSync(join(dir, name, file), "utf8");
  const expected = (name: string, variant: "header" | "query"): SuiteExpected => ({
    canonicalRequest: read(name, `${variant}-canonical-request.txt`),
    stringToSign: read(name, `${variant}-string-to-sign.txt`),
    signature: read(name, `${variant}-signature.txt`).trim(),
    signedRequest: read(name, `${variant}-signed-request.txt`),
  });
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => ({
      name,
      context: JSON.parse(read(name, "context.json")),
      request: read(name, "request.txt"),
      header: expected(name, "header"),
      query: expected(name, "query"),
    }));
}

/**
 * Cases whose semantics `sigv4()` does not have, with the reason; each is
 * asserted to differ, so one that starts passing is noticed.
 */
const DIFFERS: Readonly<Record<string, string>> = {
  "post-sts-header-after":
    "omit_session_token: the session token is added after signing, unsigned (an old IoT convention); sigv4() signs the token, as the AWS SDKs do for HTTP APIs",
  "get-space-unnormalized":
    "normalize: false here still escapes the path once more (aws-c-auth keeps double-encoding on); S3's signing (uriEscapePath: false) signs the path as sent, so the raw space the file has stays raw; as S3 sends it (/example%20space/) it passes, below",
};

describe.skipIf(!existsSync(suiteDir))(`C2: AWS's SigV4 test suite (from ${suiteDir}; skipped where it is absent)`, () => {
  const cases = existsSync(suiteDir) ? loadSuite(suiteDir) : [];

  it("C2: has the whole v4 suite", () => {
    expect(cases.length).toBeGreaterThanOrEqual(38);
  });

  for (const c of cases) {
    const check = async (path?: string) => {
      const outcome = await runCase(c, path);
      const { context } = c;
      const chain = chainOf({
        secretAccessKey: context.credentials.secret_access_key,
        region: context.region,
        service: context.service,
        timestamp: context.timestamp,
      });
      for (const variant of [c.header, c.query]) {
        // The suite's own chain: its canonical request makes its string to sign, which makes its signature.
        expect(chain.stringToSignOf(variant.canonicalRequest)).toBe(variant.stringToSign);
        expect(chain.signatureOf(variant.stringToSign)).toBe(variant.signature);
      }
      // Our signatures equal to those: our canonical requests and strings to sign are the suite's, byte for byte.
      expect(outcome.headerSignature.actual).toBe(outcome.headerSignature.expected);
      expect(outcome.signedHeaders.actual).toEqual(outcome.signedHeaders.expected);
      expect(outcome.querySignature.actual).toBe(outcome.querySignature.expected);
      expect(outcome.presignedUrl.actual).toEqual(outcome.presignedUrl.expected);
    };
    const reason = DIFFERS[c.name];
    if (reason === undefined) it(`C2: ${c.name} signs and presigns exactly as the suite says`, () => check());
    else it.fails(`C2: ${c.name} differs, by design: ${reason}`, () => check());
  }

  it("C2: get-space-unnormalized passes with the path as S3 sends it", async () => {
    const c = cases.find((x) => x.name === "get-space-unnormalized")!;
    const outcome = await runCase(c, "/example%20space/");
    expect(outcome.headerSignature.actual).toBe(outcome.headerSignature.expected);
    expect(outcome.querySignature.actual).toBe(outcome.querySignature.expected);
  });
});
