import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script of the repository's tooling, without types
import { SYSTEM_PACKAGES, systemPackagePlan } from "../../system-packages.mjs";

const root = join(import.meta.dirname, "..", "..", "..");
const machine = { missing: ["chromium", "protobuf-compiler"], aptGet: true, root: false, sudo: false };

describe("npm test sets up the system packages the tests use", () => {
  it("names openssl, curl, chromium, protoc and nginx", () => {
    expect(SYSTEM_PACKAGES.map((p: { name: string }) => p.name)).toEqual(["openssl", "curl", "chromium", "protobuf-compiler", "nginx"]);
  });

  it("does nothing when nothing is missing", () => {
    expect(systemPackagePlan({ ...machine, missing: [] })).toEqual({ kind: "ready" });
  });

  it("installs what is missing with apt-get as root", () => {
    expect(systemPackagePlan({ ...machine, root: true })).toEqual({
      kind: "install",
      missing: ["chromium", "protobuf-compiler"],
      commands: [
        ["apt-get", "update", "-qq"],
        ["apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y", "-qq", "chromium", "protobuf-compiler"],
      ],
    });
  });

  it("installs through a sudo that asks no password", () => {
    const plan = systemPackagePlan({ ...machine, sudo: true });
    expect(plan.commands.map((c: string[]) => c.slice(0, 3))).toEqual([
      ["sudo", "-n", "apt-get"],
      ["sudo", "-n", "apt-get"],
    ]);
  });

  it.each([
    ["without root or sudo", { ...machine }, "installing them needs root or a sudo that asks no password"],
    ["without apt-get", { ...machine, root: true, aptGet: false }, "there is no apt-get here"],
  ])("stops early with one line saying what to install %s", (_, m, why) => {
    const plan = systemPackagePlan(m);
    expect(plan.kind).toBe("stop");
    expect(plan.message).toBe(
      `npm test: missing system packages chromium, protobuf-compiler (${why}); install them (Debian/Ubuntu: sudo apt-get install -y chromium protobuf-compiler) and run npm test again.`,
    );
    expect(plan.message).not.toContain("\n");
  });

  it("is done by the README's test command before anything else, and .ci/run only calls it", () => {
    const main = readFileSync(join(root, "tooling", "main.mjs"), "utf8");
    expect(main).toMatch(/case "test": \{\s+ensureSystemPackages\(\);\s+install\(\);/);
    const ci = readFileSync(join(root, ".ci", "run"), "utf8");
    expect(ci).toContain("npm test");
    expect(ci).not.toContain("apt-get");
  });
});
