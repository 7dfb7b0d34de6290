/**
 * Where each data shape is declared: once, in the shapes file of its
 * namespace (`example.weather.shapes.ts`), whichever services use it. Service
 * files, surfaces and fakes import from there, so a shape two services share
 * is one type, one schema and one error class.
 */
import type { Model, Shape, ServiceClosure, ValidationEvent } from "@anvil/model";
import { namespaceOf, nameOf, SIMPLE_TYPES } from "@anvil/model";
import type { Imports } from "./imports.js";
import { NameScope } from "./names.js";
import { enumEntries, isBuiltinSchema, isError, nameClaimer, type ShapeNames } from "./plan.js";

/** The types of data shapes: the simple ones and the aggregates (not services, resources, operations or members). */
const DATA_TYPES: ReadonlySet<string> = new Set([...SIMPLE_TYPES, "enum", "intEnum", "list", "set", "map", "structure", "union"]);

/** Where one data shape is declared, and under which names. */
export interface ShapeHome {
  /** The file base (no extension) of its namespace's shapes file. */
  readonly base: string;
  readonly names: ShapeNames;
}

/** The shapes file of one namespace. */
export interface NamespacePlan {
  readonly namespace: string;
  /** The file base: `example.weather.shapes`. */
  readonly base: string;
  /** Its shapes in declaration order: targets in the same file before the shapes that use them. */
  readonly shapes: readonly Shape[];
}

/** Every generated data shape, by namespace. */
export interface ShapesPlan {
  readonly model: Model;
  readonly namespaces: readonly NamespacePlan[];
  /** By shape id. */
  readonly homes: ReadonlyMap<string, ShapeHome>;
}

/** The shapes file base of a namespace. Service file bases are kebab case without dots, so the two never meet. */
const shapesFileBase = (namespace: string): string => `${namespace}.shapes`;

/**
 * Plans the shapes files of the data shapes the given services use.
 * Problems (names that had to change) go to `events`.
 */
export function planShapes(model: Model, closures: readonly ServiceClosure[], events: ValidationEvent[]): ShapesPlan {
  // Declaration order: depth-first from each operation, targets first.
  const order: Shape[] = [];
  const visited = new Set<string>();
  const visit = (id: string | undefined): void => {
    if (id === undefined || visited.has(id)) return;
    visited.add(id);
    const shape = model.getShape(id);
    if (!shape || !DATA_TYPES.has(shape.type) || isBuiltinSchema(shape)) return;
    if (shape.type !== "enum" && shape.type !== "intEnum") for (const m of shape.members.values()) visit(m.target);
    order.push(shape);
  };
  for (const closure of closures) {
    for (const op of closure.operations) {
      visit(op.input);
      visit(op.output);
      for (const e of op.errors ?? []) visit(e);
    }
    for (const e of closure.service.errors ?? []) visit(e);
    for (const id of [...closure.shapes].sort()) visit(id);
  }

  const byNamespace = new Map<string, Shape[]>();
  for (const shape of order) {
    const ns = namespaceOf(shape.id);
    let list = byNamespace.get(ns);
    if (!list) byNamespace.set(ns, (list = []));
    list.push(shape);
  }
  const namespaces: NamespacePlan[] = [...byNamespace.keys()].sort().map((namespace) => ({
    namespace,
    base: shapesFileBase(namespace),
    shapes: byNamespace.get(namespace)!,
  }));
  const homes = new Map<string, ShapeHome>();
  for (const ns of namespaces) {
    for (const [id, names] of nameShapes(ns.shapes, events)) homes.set(id, { base: ns.base, names });
  }
  return { model, namespaces, homes };
}

/**
 * The names of one file's shapes. In a stable order (by id), so names do
 * not depend on traversal; the shapes' own names first, derived names
 * (`XSchema`, `XMembers`) after, so that a derived name never takes a shape's.
 */
function nameShapes(shapes: readonly Shape[], events: ValidationEvent[]): Map<string, ShapeNames> {
  const scope = new NameScope();
  const claimed = nameClaimer(events);

  const sorted = [...shapes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const base = new Map<string, string>();
  for (const shape of sorted) {
    const wanted = nameOf(shape.id);
    if (isError(shape)) base.set(shape.id, claimed(shape, wanted, scope.both(wanted), "error"));
    else if (enumEntries(shape)) base.set(shape.id, claimed(shape, wanted, scope.both(wanted), "enum"));
    else base.set(shape.id, claimed(shape, wanted, scope.type(wanted), "shape"));
  }
  const names = new Map<string, ShapeNames>();
  for (const shape of sorted) {
    const name = base.get(shape.id)!;
    const schema = claimed(shape, `${name}Schema`, scope.value(`${name}Schema`), "schema");
    if (isError(shape)) names.set(shape.id, { type: claimed(shape, `${name}Members`, scope.type(`${name}Members`), "error members"), schema, value: name });
    else if (enumEntries(shape)) names.set(shape.id, { type: name, schema, value: name });
    else names.set(shape.id, { type: name, schema });
  }
  return names;
}

/**
 * The names, in one generated file, of shapes declared in shapes files:
 * imported on first use, and imported under another name when the file
 * already uses theirs (a declaration of its own, or a shape of another
 * namespace with the same name).
 */
export class ShapeRefs {
  private readonly locals = new Map<string, string>();

  /**
   * @param scope - The file's names; its own declarations must be claimed before the first reference.
   * @param self - The file's own base when it is a shapes file: its shapes are not imported.
   */
  constructor(
    private readonly plan: ShapesPlan,
    private readonly imports: Imports,
    private readonly scope: NameScope,
    private readonly self?: string,
  ) {}

  /** The type of the shape's values (an error's members interface). */
  type(id: string): string {
    const home = this.home(id);
    return this.ref(home, home.names.type, "type");
  }

  /** The shape's schema constant. */
  schema(id: string): string {
    const home = this.home(id);
    return this.ref(home, home.names.schema, "value");
  }

  private home(id: string): ShapeHome {
    const home = this.plan.homes.get(id);
    if (!home) throw new Error(`no generated declaration for \`${id}\``);
    return home;
  }

  private ref(home: ShapeHome, exported: string, kind: "value" | "type"): string {
    if (home.base === this.self) return exported;
    const key = `${home.base}\0${exported}`;
    let local = this.locals.get(key);
    if (local === undefined) this.locals.set(key, (local = this.scope.both(exported)));
    return this.imports.from(`./${home.base}.js`, exported, kind, local);
  }
}
