/**
 * `generate`: a loaded model in, generated TypeScript files out (as text;
 * the CLI writes them). Pure and deterministic: the same model and options
 * give byte-identical files.
 */
import { schemasFromModel, type DynamicSchemas } from "@anvil/dynamic";
import type { Model, ValidationEvent } from "@anvil/model";
import { emitProto } from "@anvil/protocol-grpc";
import { applySuppressions, modelToJsonAst, namespaceOf, serviceClosure, stringifyNode } from "@anvil/model";
import { codegenVersion } from "../version.js";
import { fakesFile } from "./fakes-file.js";
import { header, type Provenance } from "./header.js";
import { kebabCase } from "./names.js";
import { planService } from "./plan.js";
import { serviceFile } from "./service-file.js";
import { planShapes } from "./shapes-plan.js";
import { shapesFile } from "./shapes-file.js";
import { clientFile, serverFile } from "./surface-files.js";

/** What to generate. */
export interface GenerateOptions {
  /** Service shape ids to generate; empty means every service of the model. */
  readonly services: readonly string[];
  /** Server surface: handler interfaces. */
  readonly server: boolean;
  /** Client surface: the typed client interface. */
  readonly client: boolean;
  /** Fakes: `name.fakes.ts` with each operation's answers from `@examples`, a fake handler (with `server`) and a fake client (with `client`). */
  readonly generateFakes: boolean;
  /** `name.proto` (proto3, as `anvil proto` writes it) for each service with `alloy.proto#grpc`. */
  readonly proto: boolean;
  /** `model.ts`: the model as a JSON AST, for `loadModel({ sources: [MODEL] })` where no model file can be read (Workers, browsers, one-file bundles). */
  readonly embedModel: boolean;
  /** Called after each service, for progress reports. */
  readonly onProgress?: (done: number, total: number, serviceId: string) => void;
}

/** The defaults {@link generate} merges its options over. */
export const GENERATE_DEFAULTS: Readonly<GenerateOptions> = Object.freeze({
  services: [],
  server: true,
  client: false,
  generateFakes: false,
  proto: false,
  embedModel: false,
});

/** One generated file. */
export interface GeneratedFile {
  /** Path relative to the output folder, `/`-separated. */
  readonly path: string;
  /** The file's full contents. */
  readonly text: string;
  /** The service it belongs to (absent for a shapes file). */
  readonly service?: string;
  /** The namespace a shapes file declares the shapes of (`example.weather`). */
  readonly namespace?: string;
}

/** Generated files, and the warnings and errors met (an error means the files are incomplete). */
export interface GenerateResult {
  /** The generated files: each namespace's shapes file, then the files of each service. */
  readonly files: GeneratedFile[];
  /**
   * The notes, warnings and errors met while generating, such as an unknown
   * service or an operation without examples; those the model suppresses
   * (`@suppress`, `suppressions` metadata) are SUPPRESSED.
   */
  readonly events: ValidationEvent[];
}

/**
 * Generates the code of a model's services. Per namespace of the data
 * shapes they use, `namespace.shapes.ts`: the types, schemas and error
 * classes of those shapes, each declared once whichever services use it.
 * Per service `Name` (file names in kebab case): `name.ts` (operations and
 * the service descriptor), `name.server.ts` (handler interfaces, when `server`),
 * `name.client.ts` (client interface, paginators and waiters, when `client`), `name.fakes.ts`
 * (fake answers, handler and client, when `generateFakes`) and `name.proto`
 * (for gRPC services, when `proto`); and once, `model.ts` (the model itself,
 * when `embedModel`).
 *
 * @example
 * ```ts
 * const { model } = loadModel({ paths: ["model/"] });
 * const { files, events } = generate(model, { client: true });
 * ```
 */
export function generate(model: Model, options: Partial<GenerateOptions> = {}): GenerateResult {
  const o: GenerateOptions = { ...GENERATE_DEFAULTS, ...options };
  const events: ValidationEvent[] = [];
  const all = [...model.shapesOfType("service")].filter((s) => !model.isBuiltin(s.id)).map((s) => s.id);
  let ids = all;
  if (o.services.length) {
    ids = [];
    for (const id of o.services) {
      if (all.includes(id)) ids.push(id);
      else
        events.push({
          severity: "ERROR",
          id: "CodegenService",
          message: `no service \`${id}\` in the model${all.length ? ` (services: ${all.join(", ")})` : ""}`,
        });
    }
  } else if (all.length === 0) {
    events.push({ severity: "ERROR", id: "CodegenService", message: "the model has no service to generate" });
  }
  const bases = fileBases(ids);
  const files: GeneratedFile[] = [];
  const provenance: Provenance = { generator: `@anvil/codegen v${codegenVersion()}`, options: optionsLine(o) };
  const closures = ids.map((id) => serviceClosure(model, id));
  const shapes = planShapes(model, closures, events);
  for (const ns of shapes.namespaces) files.push({ path: `${ns.base}.ts`, text: shapesFile(shapes, ns, provenance, events), namespace: ns.namespace });
  let schemas: DynamicSchemas | undefined;
  ids.forEach((id, i) => {
    const plan = planService(model, closures[i]!, shapes);
    events.push(...plan.events);
    const base = bases.get(id)!;
    files.push({ path: `${base}.ts`, text: serviceFile(plan, provenance), service: id });
    if (o.server) files.push({ path: `${base}.server.ts`, text: serverFile(plan, `./${base}.js`, provenance), service: id });
    if (o.client) files.push({ path: `${base}.client.ts`, text: clientFile(plan, `./${base}.js`, provenance), service: id });
    if (o.generateFakes) {
      const modules = {
        serviceModule: `./${base}.js`,
        ...(o.server ? { serverModule: `./${base}.server.js` } : {}),
        ...(o.client ? { clientModule: `./${base}.client.js` } : {}),
      };
      files.push({ path: `${base}.fakes.ts`, text: fakesFile(plan, modules, provenance, events), service: id });
    }
    if (o.proto && model.getShape(id)?.traits.has("alloy.proto#grpc")) {
      schemas ??= schemasFromModel(model);
      try {
        files.push({ path: `${base}.proto`, text: emitProto(schemas.service(id)), service: id });
      } catch (error) {
        events.push({ severity: "ERROR", id: "CodegenProto", message: (error as Error).message, shapeId: id });
      }
    }
    o.onProgress?.(i + 1, ids.length, id);
  });
  if (o.embedModel) files.push({ path: "model.ts", text: modelFile(model, provenance) });
  // The model's `@suppress` traits and `suppressions` metadata silence generation warnings as they do the validator's.
  return { files, events: applySuppressions(model, events) };
}

/** The options that shape the output, for the header of every file: `server, client, fakes`. */
function optionsLine(o: GenerateOptions): string {
  const parts = [o.server && "server", o.client && "client", o.generateFakes && "fakes", o.proto && "proto", o.embedModel && "model"].filter(
    (p): p is string => typeof p === "string",
  );
  if (o.services.length) parts.push(`services: ${o.services.join(", ")}`);
  return parts.join(", ");
}

/**
 * `model.ts`: the model (without the prelude and the bundled traits, which
 * every loader has) as one JSON AST string, data and no logic like every
 * generated file, typed as `loadModel`'s `ModelSource` without importing it.
 */
function modelFile(model: Model, provenance: Provenance): string {
  const text = stringifyNode(modelToJsonAst(model));
  return `${header(provenance, "The model these files were generated from, as a Smithy JSON AST")}
/**
 * The model, for \`loadModel({ sources: [MODEL] })\` from \`@anvil/model\` where no model
 * file can be read (Workers, browsers, a one-file bundle): to serve its documentation, say.
 */
export const MODEL: { readonly file: string; readonly text: string } = {
  file: "model.json",
  text: ${JSON.stringify(text)},
};
`;
}

/** File base names: the service name in kebab case, with the namespace when two services share a name. */
function fileBases(ids: readonly string[]): Map<string, string> {
  const short = (id: string) => kebabCase(id.slice(id.indexOf("#") + 1));
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(short(id), (counts.get(short(id)) ?? 0) + 1);
  return new Map(ids.map((id) => [id, counts.get(short(id))! > 1 ? `${kebabCase(namespaceOf(id))}-${short(id)}` : short(id)]));
}
