/**
 * The example's Kubernetes manifest (`apps/example/deploy/kubernetes.yaml`):
 * valid against the schemas of the objects it holds (written for its fields,
 * `src/kubernetes-schemas.ts`, validated with Ajv, offline), consistent with
 * itself (selectors, named ports), and with the example: the command it runs
 * exists and takes the flags given, the drain fits in the grace period, and
 * every probe, made as the kubelet makes it on the ports the manifest names,
 * succeeds against the example started with the manifest's command and env.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { CLOSE_GRACE_MS } from "../../../apps/example/src/server.js";
import { EXAMPLE, freePortRun, type Instance, MAIN_FILE, startInstance } from "./instances.js";
import { DEPLOYMENT_SCHEMA, SERVICE_SCHEMA } from "./kubernetes-schemas.js";
import { checkHealth, connectOutcome } from "./probes.js";

const MANIFEST = join(EXAMPLE, "deploy", "kubernetes.yaml");

// The parts of the objects the checks below read (the schemas have checked their shape first).
interface Probe {
  readonly httpGet?: { readonly path: string; readonly port: number | string };
  readonly grpc?: { readonly port: number; readonly service?: string };
  readonly tcpSocket?: { readonly port: number | string };
}
interface Container {
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly env?: readonly { readonly name: string; readonly value?: string }[];
  readonly ports?: readonly { readonly name?: string; readonly containerPort: number }[];
  readonly startupProbe?: Probe;
  readonly readinessProbe?: Probe;
  readonly livenessProbe?: Probe;
  readonly lifecycle?: { readonly preStop?: { readonly sleep?: { readonly seconds: number } } };
}
interface Deployment {
  readonly kind: "Deployment";
  readonly spec: {
    readonly selector: { readonly matchLabels: Record<string, string> };
    readonly template: {
      readonly metadata: { readonly labels: Record<string, string> };
      readonly spec: { readonly terminationGracePeriodSeconds?: number; readonly containers: readonly Container[] };
    };
  };
}
interface Service {
  readonly kind: "Service";
  readonly spec: { readonly selector: Record<string, string>; readonly ports: readonly { readonly name?: string; readonly targetPort?: number | string }[] };
}

/** The manifest's documents, as YAML parses them (a parse error fails the file). */
function documents(text: string): unknown[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`kubernetes.yaml: ${doc.errors.map((e) => e.message).join("; ")}`);
    return doc.toJS() as unknown;
  });
}

// Strict, but for `required` in `oneOf`/`not` branches, which name properties declared beside them.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
const VALIDATORS: Readonly<Record<string, ValidateFunction>> = {
  "apps/v1 Deployment": ajv.compile(DEPLOYMENT_SCHEMA),
  "v1 Service": ajv.compile(SERVICE_SCHEMA),
};

/** What the schemas say about one object: its kind's validator's errors, or that no schema covers it. */
function problems(object: unknown): string[] {
  const { apiVersion, kind } = (object ?? {}) as { apiVersion?: string; kind?: string };
  const validate = VALIDATORS[`${apiVersion} ${kind}`];
  if (validate === undefined) return [`no schema for ${apiVersion} ${kind}`];
  return validate(object) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

const objects = documents(readFileSync(MANIFEST, "utf8"));
const deployment = objects.find((o) => (o as Deployment).kind === "Deployment") as Deployment;
const service = objects.find((o) => (o as Service).kind === "Service") as Service;
const container = deployment.spec.template.spec.containers[0]!;
/** The manifest's env (plain values only). */
const env = Object.fromEntries((container.env ?? []).flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])));
/** A container port by number or name. */
const portOf = (port: number | string): number | undefined =>
  typeof port === "number"
    ? container.ports?.find((p) => p.containerPort === port)?.containerPort
    : container.ports?.find((p) => p.name === port)?.containerPort;

describe("the Kubernetes manifest", () => {
  it("holds a Deployment and a Service, which the schemas accept", () => {
    expect(objects.map((o) => (o as { kind: string }).kind)).toEqual(["Deployment", "Service"]);
    expect(objects.map(problems)).toEqual([[], []]);
  });

  /** Each mistake, made on a copy of the manifest's Deployment. */
  const mistakes: readonly [string, (d: any) => void, string][] = [
    [
      "a misspelt field",
      (d) => (d.spec.template.spec.containers[0].readinesProbe = d.spec.template.spec.containers[0].readinessProbe),
      'additional properties {"additionalProperty":"readinesProbe"}',
    ],
    ["a number as an env value", (d) => (d.spec.template.spec.containers[0].env[0].value = 8080), "/env/0/value must be string"],
    ["a port name in a gRPC probe", (d) => (d.spec.template.spec.containers[0].startupProbe.grpc.port = "grpc"), "/startupProbe/grpc/port must be integer"],
    [
      "two handlers in one probe",
      (d) => (d.spec.template.spec.containers[0].livenessProbe.tcpSocket = { port: "http" }),
      "/livenessProbe must match exactly one schema in oneOf",
    ],
    [
      "a liveness probe needing two successes",
      (d) => (d.spec.template.spec.containers[0].livenessProbe.successThreshold = 2),
      "/livenessProbe/successThreshold",
    ],
    ["a port name longer than 15 characters", (d) => (d.spec.template.spec.containers[0].ports[0].name = "http-for-the-rest"), "/ports/0/name"],
    [
      "a preStop sleep without seconds",
      (d) => (d.spec.template.spec.containers[0].lifecycle.preStop.sleep = {}),
      "/preStop/sleep must have required property 'seconds'",
    ],
    ["a selector without labels", (d) => (d.spec.selector.matchLabels = {}), "/selector/matchLabels"],
    ["an upper-case name", (d) => (d.metadata.name = "Weather"), "/metadata/name"],
  ];
  it.each(mistakes)("refuses %s", (_, mistake, where) => {
    const copy = structuredClone(deployment) as unknown;
    mistake(copy);
    const found = problems(copy);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join("\n")).toContain(where);
  });

  it("ties together: selectors match the pod's labels; the Service and the probes name ports the container has", () => {
    const labels = deployment.spec.template.metadata.labels;
    expect(labels).toMatchObject(deployment.spec.selector.matchLabels);
    expect(labels).toMatchObject(service.spec.selector);
    for (const port of service.spec.ports) expect([port.name, portOf(port.targetPort!)]).toEqual([port.name, expect.any(Number)]);
    for (const probe of [container.startupProbe, container.readinessProbe, container.livenessProbe]) {
      const port = probe?.httpGet?.port ?? probe?.grpc?.port ?? probe?.tcpSocket?.port;
      expect(portOf(port!), `probe port ${port}`).toEqual(expect.any(Number));
    }
    // Readiness on the server's readiness route, liveness on its liveness route, startup by gRPC health.
    expect(container.readinessProbe?.httpGet?.path).toBe("/readyz");
    expect(container.livenessProbe?.httpGet?.path).toBe("/healthz");
    expect(container.startupProbe?.grpc).toBeDefined();
  });

  it("leaves time for the preStop pause and the server's drain before SIGKILL", () => {
    const preStop = container.lifecycle?.preStop?.sleep?.seconds;
    expect(preStop).toBeGreaterThan(0);
    // Kubernetes' default is 30 s; the manifest says its own, sized by the example's close grace.
    const grace = deployment.spec.template.spec.terminationGracePeriodSeconds!;
    expect(grace).toBeGreaterThanOrEqual(preStop! + CLOSE_GRACE_MS / 1000 + 1);
  });

  it("runs the example as npm start does: its main file, with flags it knows", () => {
    const [node, main, ...flags] = [...(container.command ?? []), ...(container.args ?? [])];
    expect([node, main]).toEqual(["node", MAIN_FILE]);
    expect(existsSync(join(EXAMPLE, main!))).toBe(true);
    const source = readFileSync(join(EXAMPLE, "src", "main.ts"), "utf8");
    for (const flag of flags) expect(source, `src/main.ts reads ${flag}`).toContain(`process.argv.includes("${flag}")`);
    expect(Object.keys(env).sort()).toEqual(["HOST", "PORT"]);
    expect(source).toContain("process.env.PORT");
    expect(source).toContain("process.env.HOST");
  });

  describe("every probe, against the example started with the manifest's command and env", () => {
    let instance: Instance | undefined;
    /** The manifest's PORT, and where the test runs it instead (loopback, free). */
    const manifestPort = Number(env.PORT);
    let base = 0;
    /** Where a manifest port is in the test: the same offset from PORT. */
    const local = (port: number | string) => base + (portOf(port)! - manifestPort);

    beforeAll(async () => {
      base = await freePortRun(3);
      const [, , ...flags] = [...(container.command ?? []), ...(container.args ?? [])];
      instance = await startInstance("kubernetes", { port: base, args: flags });
    });
    afterAll(() => instance?.stop());

    it("listens where the manifest's ports say: Weather on PORT, WeatherGrpc on PORT + 1", () => {
      expect(instance!.restPort).toBe(local("http"));
      expect(instance!.grpcPort).toBe(local("grpc"));
      expect(instance!.output()).toContain(`SimpleWeather service (alloy#simpleRestJson)          http://127.0.0.1:${local("simple")}`);
    });

    it.each([
      ["startupProbe", () => container.startupProbe!],
      ["readinessProbe", () => container.readinessProbe!],
      ["livenessProbe", () => container.livenessProbe!],
    ] as const)("%s succeeds", async (_, probe) => {
      const { httpGet, grpc } = probe();
      if (httpGet !== undefined) {
        // The kubelet counts 200-399 as success.
        const response = await fetch(`http://127.0.0.1:${local(httpGet.port)}${httpGet.path}`);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ status: httpGet.path === "/readyz" ? "ready" : "ok" });
      } else {
        expect(await checkHealth(local(grpc!.port), grpc!.service ?? "")).toBe("SERVING");
      }
    });

    it("after SIGTERM, readiness fails (the port refuses connections) and the process ends within the grace period", async () => {
      const stopped = Date.now();
      instance!.signal("SIGTERM");
      await expect.poll(() => connectOutcome(local(container.readinessProbe!.httpGet!.port))).toBe("ECONNREFUSED");
      expect(await instance!.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - stopped).toBeLessThan(CLOSE_GRACE_MS);
    });
  });
});
