import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { protoCommand } from "./commands.js";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

const MODEL = `$version: "2"
namespace example.notes

use alloy.proto#grpc
use alloy.proto#protoIndex

@grpc
service Notes {
    version: "1"
    operations: [GetNote]
}

operation GetNote {
    input := {
        @protoIndex(1)
        @required
        id: String
    }
    output := {
        @protoIndex(1)
        text: String
        @protoIndex(2)
        tags: Tags
    }
}

list Tags {
    member: String
}
`;

function inTemp(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "anvil-proto-cli-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function run(argv: string[], cwd: string) {
  const { io, out, err } = capture();
  const prev = process.cwd();
  process.chdir(cwd);
  try {
    return { code: protoCommand(parseArgs(argv), io), out, err };
  } finally {
    process.chdir(prev);
  }
}

describe("anvil proto", () => {
  it("writes proto3 for the gRPC service that protobufjs loads", () => {
    const dir = inTemp({ "notes.smithy": MODEL });
    const { code, err } = run(["proto", "--model", "notes.smithy", "--out", "out/notes.proto"], dir);
    expect(err.join("\n")).toContain("✓ wrote out/notes.proto for example.notes#Notes");
    expect(code).toBe(0);
    const text = readFileSync(join(dir, "out/notes.proto"), "utf8");
    expect(text).toContain("package example.notes;");
    expect(text).toContain("rpc GetNote (GetNoteInput) returns (GetNoteOutput);");
    expect(text).toContain("repeated string tags = 2;");
    protobuf.loadSync(join(dir, "out/notes.proto")).resolveAll();
  });

  it("names model errors by file:line:col (a member without @protoIndex) and writes nothing", () => {
    const dir = inTemp({ "notes.smithy": MODEL.replace("        @protoIndex(2)\n", "") });
    const { code, err } = run(["proto", "--model", "notes.smithy", "--out", "notes.proto"], dir);
    expect(code).toBe(1);
    expect(err.join("\n")).toMatch(/^notes\.smithy:\d+:\d+: error: Member `example\.notes#GetNoteOutput\$tags` has no @protoIndex/m);
    expect(err.at(-1)).toContain("nothing written");
  });

  it("reports a field number protobuf reserves and writes nothing", () => {
    const dir = inTemp({ "notes.smithy": MODEL.replace("@protoIndex(2)", "@protoIndex(19500)") });
    const { code, err } = run(["proto", "--model", "notes.smithy", "--out", "notes.proto"], dir);
    expect(code).toBe(1);
    expect(err.join("\n")).toContain("error: protobuf: example.notes#GetNoteOutput$tags has field number 19500");
  });

  it("asks for --out and for a known --service", () => {
    const dir = inTemp({ "notes.smithy": MODEL });
    expect(run(["proto", "--model", "notes.smithy"], dir).code).toBe(2);
    const unknown = run(["proto", "--model", "notes.smithy", "--out", "x.proto", "--service", "example.notes#Nope"], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.err.join("\n")).toContain("no service `example.notes#Nope`");
  });
});

describe("anvil generate --proto", () => {
  it("writes <service>.proto next to the generated TypeScript for gRPC services", async () => {
    const { generateCommand } = await import("./commands.js");
    const dir = inTemp({ "notes.smithy": MODEL });
    const { io, err } = capture();
    const prev = process.cwd();
    process.chdir(dir);
    try {
      expect(generateCommand(parseArgs(["generate", "--model", "notes.smithy", "--out", "gen", "--proto"]), io)).toBe(0);
    } finally {
      process.chdir(prev);
    }
    expect(err.join("\n")).not.toContain("error");
    const text = readFileSync(join(dir, "gen/notes.proto"), "utf8");
    expect(text).toContain("service Notes {");
    protobuf.loadSync(join(dir, "gen/notes.proto")).resolveAll();
  });
});
