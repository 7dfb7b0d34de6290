// The Debian packages the tests use, and how `npm test` gets them on a machine
// that has only Node.js and npm. The decision (systemPackagePlan) is a pure
// function of what the machine has (probeSystem), so it is tested on its own.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * What the tests need from the system, each with how to tell it is there:
 * openssl makes the TLS tests' self-signed certificates, chromium runs the
 * browser tests of the documentation routes, protoc compiles the .proto files
 * `anvil proto` emits, curl runs the lines `npm start` prints, nginx is the
 * load balancer in front of the example's instances in the scale-out test
 * (it lives in /usr/sbin, which is not on every user's PATH).
 */
export const SYSTEM_PACKAGES = [
  { name: "openssl", command: "openssl" },
  { name: "curl", command: "curl" },
  { name: "chromium", file: "/usr/bin/chromium" },
  { name: "protobuf-compiler", command: "protoc" },
  { name: "nginx", file: "/usr/sbin/nginx" },
];

function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** What this machine has: the missing packages, whether apt-get exists, and who we are. */
export function probeSystem() {
  const missing = SYSTEM_PACKAGES.filter((p) => (p.command ? !onPath(p.command) : !existsSync(p.file))).map((p) => p.name);
  const root = process.getuid?.() === 0;
  return {
    missing,
    aptGet: missing.length > 0 && onPath("apt-get"),
    root,
    sudo: missing.length > 0 && !root && onPath("sudo") && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0,
  };
}

/**
 * What to do about the missing packages: nothing (`ready`), the apt-get
 * commands to run (`install`), or one line telling the person what to
 * install (`stop`) when this process cannot install them itself.
 */
export function systemPackagePlan({ missing, aptGet, root, sudo }) {
  if (missing.length === 0) return { kind: "ready" };
  if (!aptGet || (!root && !sudo)) {
    const why = !aptGet ? "there is no apt-get here" : "installing them needs root or a sudo that asks no password";
    return {
      kind: "stop",
      message: `npm test: missing system packages ${missing.join(", ")} (${why}); install them (Debian/Ubuntu: sudo apt-get install -y ${missing.join(" ")}) and run npm test again.`,
    };
  }
  const apt = root ? ["apt-get"] : ["sudo", "-n", "apt-get"];
  return {
    kind: "install",
    missing,
    commands: [
      [...apt, "update", "-qq"],
      [...apt, "-o", "DPkg::Lock::Timeout=600", "install", "-y", "-qq", ...missing],
    ],
  };
}
