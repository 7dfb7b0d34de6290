import { X509Certificate } from "node:crypto";
import { createServer } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cleanEnv, closeServer, freePort, hasOpenssl, listenLoopback, readmeExample, runReadmeExample, selfSignedCertificate } from "./index.js";

describe("net", () => {
  it("listens on a free loopback port and closes", async () => {
    const server = createServer((_, res) => res.end("ok"));
    const port = await listenLoopback(server);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("ok");
    await closeServer(server);
    expect(server.listening).toBe(false);
  });

  it("finds a port nothing listens on", async () => {
    const port = await freePort();
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});

it("cleanEnv drops what runners set for their children and keeps the rest", () => {
  process.env.npm_config_test_support_probe = "x";
  try {
    const env = cleanEnv({ EXTRA: "1" });
    expect(env.npm_config_test_support_probe).toBeUndefined();
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.EXTRA).toBe("1");
  } finally {
    delete process.env.npm_config_test_support_probe;
  }
});

describe("readme", () => {
  it("finds the example and what it prints, and runs it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "anvil-readme-"));
    try {
      writeFileSync(join(dir, "README.md"), "# x\n\n```js\nconsole.log('hi');\n```\n\nprints\n\n```text\nhi\n```\n");
      expect(readmeExample(join(dir, "README.md"))).toEqual({ code: "console.log('hi');\n", printed: "hi\n" });
      expect(() => readmeExample(join(dir, "README.md"), "ts")).toThrow(/has no ```ts block/);
      const run = await runReadmeExample(dir);
      expect([run.stdout, run.lines]).toEqual(["hi\n", ["hi"]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!hasOpenssl)("tls", () => {
  it.each(["ec", "rsa"] as const)("makes a %s certificate for localhost and 127.0.0.1", (keyType) => {
    const { cert, key } = selfSignedCertificate(keyType);
    const x509 = new X509Certificate(cert);
    expect(x509.subjectAltName).toContain("IP Address:127.0.0.1");
    expect(x509.checkHost("localhost")).toBe("localhost");
    expect(key.toString()).toContain("PRIVATE KEY");
  });
});
