/**
 * A Node client of a SigV4 service given its credentials, as an application
 * bundles it: a one-operation awsJson1_0 service as `anvil generate
 * --client` writes it, called with `createClient`, `awsJson1_0()` and
 * `sigv4({ region, credentials })`, bundled by esbuild for Node from the
 * packages' built `dist` (as published), split as bundlers split `import()`s.
 *
 * The standard AWS credential chain (`@aws-sdk/credential-provider-node`,
 * with the SSO and STS clients behind it) is for clients given no
 * credentials, and `@smithy/signature-v4` for presigned URLs and signed
 * event streams: this test keeps both out of what a plain call loads, and
 * runs the call with every other chunk deleted to prove it never loads them.
 *
 * Needs the packages built: `npx --yes pnpm@12.4.2 exec turbo run build --filter=@anvil/auth-sigv4... --filter=@anvil/protocol-awsjson...`.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { build, type BuildResult } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eagerOutputs, linkedApp } from "./bundle-app.js";

const PACKAGES = ["core", "client-core", "codec-json", "eventstream", "protocol-awsjson", "auth-sigv4"] as const;

/** Code a plain call with credentials given must not load. */
const LAZY_ONLY: readonly [string, RegExp][] = [
  ["the AWS credential chain", /\/@aws-sdk\/credential-provider/],
  ["the AWS SDK's clients (SSO, STS)", /\/@aws-sdk\/(client|nested-clients)/],
  ["@smithy/*", /\/@smithy\//],
];

// `anvil generate --client` of a one-operation awsJson1_0 model signed with SigV4, verbatim but for doc comments.
const GENERATED = `import { member, operation, service, string, struct, withOperations } from "@anvil/core/codegenv1";
import type { OperationSchema, ServiceSchema, StructSchema } from "@anvil/core";

export interface GetNoteInput {
  id: string;
}
export const GetNoteInputSchema: StructSchema<GetNoteInput> = /*@__PURE__*/ struct("example.notes#GetNoteInput", [
  /*@__PURE__*/ member("id", string, { required: true }),
], { custom: { "smithy.api#input": {} } });

export interface GetNoteOutput {
  text?: string;
}
export const GetNoteOutputSchema: StructSchema<GetNoteOutput> = /*@__PURE__*/ struct("example.notes#GetNoteOutput", [
  /*@__PURE__*/ member("text", string),
], { custom: { "smithy.api#output": {} } });

export const GetNote: OperationSchema<GetNoteInput, GetNoteOutput> = /*@__PURE__*/ operation("example.notes#GetNote", {
  input: GetNoteInputSchema,
  output: GetNoteOutputSchema,
  errors: [],
  traits: { readonly: true },
});

export type NotesOperations = {
  readonly getNote: typeof GetNote;
};

export const NotesBase: ServiceSchema<Record<string, never>> = /*@__PURE__*/ service("example.notes#Notes", {
  version: "2024-06-01",
  operations: {},
  protocols: ["aws.protocols#awsJson1_0"],
  errors: [],
  auth: ["aws.auth#sigv4"],
  traits: { "aws.auth#sigv4": { name: "notes" }, "aws.protocols#awsJson1_0": {} },
});

export const Notes: ServiceSchema<NotesOperations> = /*@__PURE__*/ withOperations(NotesBase, { getNote: GetNote });
`;

// The application: one client given its credentials, one call.
const ENTRY = `import { createClient } from "@anvil/client-core";
import { awsJson1_0 } from "@anvil/protocol-awsjson";
import { sigv4 } from "@anvil/auth-sigv4";
import { Notes } from "./notes.js";

export function readNote(endpoint: string, id: string) {
  const notes = createClient(Notes, {
    endpoint,
    protocols: [awsJson1_0()],
    auth: [sigv4({ region: "eu-west-1", credentials: { accessKeyId: "AKIDBUNDLE", secretAccessKey: "bundle-secret" } })],
  });
  return notes.getNote({ id });
}
`;

const RUN = `import { readNote } from "./out/entry.js";
const output = await readNote(process.argv[2], "n-1");
console.log(JSON.stringify({ text: output.text, httpStatus: output.$metadata.httpStatus }));
`;

describe("a Node client of a SigV4 service given its credentials, bundled", () => {
  let dir: string;
  let result: BuildResult<{ metafile: true; write: false }>;
  let eager: Set<string>;
  /** The inputs of each output that put bytes in it. */
  const inputsOf = new Map<string, string[]>();

  beforeAll(async () => {
    dir = linkedApp("node bundle", PACKAGES, { "notes.ts": GENERATED, "entry.ts": ENTRY, "run.mjs": RUN });
    result = await build({
      absWorkingDir: dir,
      entryPoints: ["entry.ts"],
      outdir: "out",
      platform: "node",
      format: "esm",
      bundle: true,
      splitting: true,
      metafile: true,
      write: false,
      logLevel: "silent",
    });
    for (const [file, meta] of Object.entries(result.metafile.outputs)) {
      inputsOf.set(
        file,
        Object.entries(meta.inputs)
          .filter(([, i]) => i.bytesInOutput > 0)
          .map(([path]) => path),
      );
    }
    const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === "entry.ts")![0];
    eager = eagerOutputs(result.metafile, entry);
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("bundles without errors", () => {
    expect(result.errors).toEqual([]);
  });

  it("loads neither the credential chain nor @smithy/* for a plain call", () => {
    const found: string[] = [];
    for (const file of eager) {
      for (const input of inputsOf.get(file)!) {
        for (const [name, pattern] of LAZY_ONLY) if (pattern.test(`/${input}`)) found.push(`${name}: ${input} (in ${file})`);
      }
    }
    expect(found).toEqual([]);
  });

  it("still carries the chain, in a chunk loaded only without credentials", () => {
    const lazy = [...inputsOf.keys()].filter((file) => !eager.has(file));
    expect(lazy.flatMap((file) => inputsOf.get(file)!).some((input) => /\/@aws-sdk\/credential-provider-node\//.test(`/${input}`))).toBe(true);
  });

  describe("runs", () => {
    let server: Server;
    let url: string;
    const seen: { target: string | undefined; authorization: string | undefined; payloadHash: string | undefined; bodyHash: string }[] = [];

    beforeAll(async () => {
      server = createServer((request: IncomingMessage, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          seen.push({
            target: request.headers["x-amz-target"] as string | undefined,
            authorization: request.headers.authorization,
            payloadHash: request.headers["x-amz-content-sha256"] as string | undefined,
            bodyHash: createHash("sha256").update(Buffer.concat(chunks)).digest("hex"),
          });
          response.writeHead(200, { "content-type": "application/x-amz-json-1.0" });
          response.end(JSON.stringify({ text: "remember the milk" }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => server?.close(() => resolve()));
    });

    it("signs and makes the call with only the chunks a plain call loads on disk", async () => {
      mkdirSync(join(dir, "out"));
      for (const file of result.outputFiles) if (eager.has(file.path.slice(dir.length + 1))) writeFileSync(file.path, file.contents);
      const { stdout } = await promisify(execFile)(process.execPath, [join(dir, "run.mjs"), url], { cwd: dir, timeout: 10_000 });
      expect(JSON.parse(stdout)).toEqual({ text: "remember the milk", httpStatus: 200 });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.target).toBe("Notes.GetNote");
      expect(seen[0]!.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDBUNDLE\/\d{8}\/eu-west-1\/notes\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/,
      );
      expect(seen[0]!.payloadHash).toBe(seen[0]!.bodyHash);
    });
  });
});
