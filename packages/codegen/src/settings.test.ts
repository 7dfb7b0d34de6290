import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { resolveSettings } from "./settings.js";

function project(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "anvil-settings-"));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
  }
  return dir;
}

const settingsOf = (argv: string[], cwd: string) => resolveSettings(parseArgs(["generate", ...argv]), cwd);

describe("resolveSettings", () => {
  it("takes everything from flags, with the documented defaults", () => {
    const { settings, errors } = settingsOf(["--model", "m", "--out", "gen"], "/work");
    expect(errors).toEqual([]);
    expect(settings).toEqual({
      models: ["/work/m"],
      out: "/work/gen",
      services: [],
      server: true,
      client: false,
      generateFakes: false,
      proto: false,
      embedModel: false,
      allowUnknownTraits: false,
      bundledTraits: true,
      source: "flags",
    });
  });

  it("reads repeated services and surface switches", () => {
    const { settings } = settingsOf(["-m", "m", "--out", "o", "--service", "a#A", "--service=b#B", "--client", "--no-server", "--fakes"], "/w");
    expect(settings).toMatchObject({ services: ["a#A", "b#B"], client: true, server: false, generateFakes: true });
  });

  it("embeds the model when the config or a flag says so, and a flag wins", () => {
    const dir = project({ "anvil.config.json": { model: ["model/"], out: "gen", embedModel: true } });
    expect(settingsOf([], dir).settings?.embedModel).toBe(true);
    expect(settingsOf(["--no-embed-model"], dir).settings?.embedModel).toBe(false);
    expect(settingsOf(["-m", "m", "--out", "o", "--embed-model"], "/w").settings?.embedModel).toBe(true);
  });

  it("finds anvil.config.json, resolves its paths from its folder, and lets flags win", () => {
    const dir = project({
      "anvil.config.json": { model: ["model/"], out: "src/gen", services: ["ex#S"], client: true, generateFakes: true },
    });
    expect(settingsOf([], dir).settings).toMatchObject({
      models: [join(dir, "model")],
      out: join(dir, "src/gen"),
      services: ["ex#S"],
      client: true,
      server: true,
      generateFakes: true,
      source: join(dir, "anvil.config.json"),
    });
    expect(settingsOf(["--config", "anvil.config.json", "--out", "x", "--no-client"], dir).settings).toMatchObject({ out: join(dir, "x"), client: false });
  });

  it("reads a smithy-build.json: sources, imports, the anvil plugin block, Smithy's output layout", () => {
    const dir = project({
      "smithy-build.json": {
        version: "1.0",
        sources: ["model"],
        imports: ["deps/common.smithy"],
        maven: {
          dependencies: ["software.amazon.smithy:smithy-aws-traits:1.73.0", "com.disneystreaming.alloy:alloy-core:0.3.20", "com.example:private-traits:1.0.0"],
        },
        plugins: { anvil: { service: "ex#S", client: true } },
      },
    });
    const { settings, warnings } = settingsOf([], dir);
    expect(settings).toMatchObject({
      models: [join(dir, "model"), join(dir, "deps/common.smithy")],
      out: join(dir, "build", "smithy", "source", "anvil"),
      services: ["ex#S"],
      client: true,
    });
    expect(warnings).toEqual([
      expect.stringContaining("`com.disneystreaming.alloy:alloy-core:0.3.20` is satisfied by Anvil's bundled traits, which correspond to version 0.3.38"),
      expect.stringContaining("`com.example:private-traits:1.0.0` is not bundled with Anvil"),
    ]);
  });

  it("prefers anvil.config.json over smithy-build.json, and ignores both when --model is given", () => {
    const dir = project({ "anvil.config.json": { model: "a", out: "o" }, "smithy-build.json": { sources: ["b"] } });
    expect(settingsOf([], dir).settings?.models).toEqual([join(dir, "a")]);
    expect(settingsOf(["--model", "c", "--out", "o"], dir).settings?.source).toBe("flags");
  });

  it.each([
    [{ "anvil.config.json": "{ nope" }, [], /anvil\.config\.json: invalid JSON/],
    [{ "anvil.config.json": { model: "m", out: 3 } }, [], /`out` must be a string/],
    [{ "anvil.config.json": { model: "m", out: "o", client: "yes" } }, [], /`client` must be true or false/],
    [{}, [], /no model given/],
    [{}, ["--model", "m"], /no output folder given/],
  ])("explains bad settings (%j %j)", (files, argv, message) => {
    const { settings, errors } = settingsOf(argv, project(files));
    expect(settings).toBeUndefined();
    expect(errors.join("\n")).toMatch(message);
  });

  it("warns about settings it does not know", () => {
    const { warnings } = settingsOf([], project({ "anvil.config.json": { model: "m", out: "o", sever: false } }));
    expect(warnings).toEqual([expect.stringContaining("unknown setting `sever` ignored")]);
  });
});
