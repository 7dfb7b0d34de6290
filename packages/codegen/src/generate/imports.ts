/** The `@anvil/core` names one generated file uses, so it imports exactly those. */
export class Imports {
  private readonly builders = new Set<string>();
  private readonly values = new Set<string>();
  private readonly types = new Set<string>();
  private readonly local = new Map<string, { values: Set<string>; types: Set<string> }>();

  /** Uses a builder from `@anvil/core/codegen`; returns its name. */
  builder(name: string): string {
    this.builders.add(name);
    return name;
  }

  /** Uses a value export of `@anvil/core`. */
  value(name: string): string {
    this.values.add(name);
    return name;
  }

  /** Uses a type export of `@anvil/core`. */
  type(name: string): string {
    this.types.add(name);
    return name;
  }

  /** Uses a name from another generated file (`./weather.js`), under `local` when given (`import { City as City2 }`). */
  from(module: string, name: string, kind: "value" | "type", local = name): string {
    let entry = this.local.get(module);
    if (!entry) this.local.set(module, (entry = { values: new Set(), types: new Set() }));
    (kind === "value" ? entry.values : entry.types).add(local === name ? name : `${name} as ${local}`);
    return local;
  }

  /** The import declarations, sorted, one per module. */
  render(): string {
    const lines: string[] = [];
    const line = (kw: string, names: readonly string[], module: string) => {
      const flat = `${kw} { ${names.join(", ")} } from "${module}";`;
      lines.push(flat.length <= 110 ? flat : `${kw} {\n${names.map((n) => `  ${n},`).join("\n")}\n} from "${module}";`);
    };
    const sorted = (set: Set<string>) => [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (this.builders.size) line("import", sorted(this.builders), "@anvil/core/codegen");
    if (this.values.size) line("import", sorted(this.values), "@anvil/core");
    const coreTypes = new Set([...this.types].filter((t) => !this.values.has(t)));
    if (coreTypes.size) line("import type", sorted(coreTypes), "@anvil/core");
    for (const module of [...this.local.keys()].sort()) {
      const { values, types } = this.local.get(module)!;
      if (values.size) line("import", sorted(values), module);
      const onlyTypes = new Set([...types].filter((t) => !values.has(t)));
      if (onlyTypes.size) line("import type", sorted(onlyTypes), module);
    }
    return lines.length ? `${lines.join("\n")}\n` : "";
  }
}
