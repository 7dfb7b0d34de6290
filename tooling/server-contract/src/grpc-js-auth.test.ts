/**
 * A peer nobody here wrote, with credentials: a grpc-js client (proto-loader
 * on the `.proto` `anvil proto` writes) calls `anvil serve --fake
 * --bearer-token` for the `Vault` model, sending the token as gRPC metadata
 * (`authorization: Bearer ...`), as a grpc-js user would.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeServe, startFakeServe } from "@anvil/codegen";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { emitProto } from "@anvil/protocol-grpc";
import * as grpcJs from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const { model } = loadModel({ sources: [{ file: "vault.smithy", text: readFileSync(join(import.meta.dirname, "..", "models", "vault.smithy"), "utf8") }] });

type Unary = (request: object, metadata: grpcJs.Metadata, callback: (error: grpcJs.ServiceError | null, answer?: { caller?: string }) => void) => void;

describe("grpc-js against anvil serve --fake --bearer-token", () => {
  let serve: FakeServe;
  let client: grpcJs.Client & Record<string, Unary>;
  let dir: string;

  beforeAll(async () => {
    serve = await startFakeServe(model, { port: 0, grpcPort: 0, docs: false, credentials: { bearerTokens: ["t0k3n"] } });
    const grpcUrl = new URL(serve.listening.find((l) => l.grpc)!.url);
    dir = mkdtempSync(join(tmpdir(), "anvil-grpc-auth-"));
    const file = join(dir, "vault.proto");
    writeFileSync(file, emitProto(schemasFromModel(model).service("test.auth#Vault")));
    const loaded = grpcJs.loadPackageDefinition(protoLoader.loadSync(file, { keepCase: true, defaults: true })) as unknown as {
      test: { auth: { Vault: grpcJs.ServiceClientConstructor } };
    };
    client = new loaded.test.auth.Vault(grpcUrl.host, grpcJs.credentials.createInsecure()) as never;
  });
  afterAll(async () => {
    client?.close();
    await serve?.close(0);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const call = (method: string, metadata: grpcJs.Metadata) =>
    new Promise<{ error: grpcJs.ServiceError | null; answer?: { caller?: string } }>((resolve) =>
      client[method]!({ name: "x" }, metadata, (error, answer) => resolve({ error, ...(answer !== undefined ? { answer } : {}) })),
    );
  const bearer = (token: string) => {
    const metadata = new grpcJs.Metadata();
    metadata.set("authorization", `Bearer ${token}`);
    return metadata;
  };

  it("refuses a call without the token, or with another, as UNAUTHENTICATED", async () => {
    expect((await call("GetSecret", new grpcJs.Metadata())).error?.code).toBe(grpcJs.status.UNAUTHENTICATED);
    expect((await call("GetSecret", bearer("wrong"))).error?.code).toBe(grpcJs.status.UNAUTHENTICATED);
  });

  it("answers a call with the token in its metadata", async () => {
    const { error, answer } = await call("GetSecret", bearer("t0k3n"));
    expect(error).toBeNull();
    expect(answer).toHaveProperty("caller");
  });

  it("answers an anonymous operation without credentials", async () => {
    expect((await call("Ping", new grpcJs.Metadata())).error).toBeNull();
  });
});
