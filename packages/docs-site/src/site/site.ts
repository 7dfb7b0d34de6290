/**
 * The static reference site: an index of services, a page per service, per
 * operation and per shape, cross-linked, with a client-side search. Every
 * link is relative, so the files work under any base path and from disk.
 */
import {
  getDefault,
  getDocumentation,
  getEnumValue,
  getErrorKind,
  getExamples,
  getHttpError,
  getJsonName,
  getLength,
  getPattern,
  getRange,
  getTimestampFormat,
  hasTrait,
  isRequired,
  isSensitive,
  isStreaming,
  nameOf,
  serviceClosure,
  stringifyNode,
  type MemberShape,
  type Model,
  type Shape,
} from "@anvil/model";
import { bindingsOf, structureOf, type Binding } from "../bindings.js";
import { documentedProtocols, operationName, routeOf, unavailableReason } from "../protocols.js";
import { userServices } from "../service.js";
import { SEARCH_JS, STYLE_CSS } from "./assets.js";
import { docHtml, html, page, type Raw, summary } from "./html.js";
import { exampleSamples } from "./samples.js";

/** Options of {@link generateSite}. */
export interface SiteOptions {
  /** The site's title. Default: the only service's `@title` or name, else "API reference". */
  readonly title?: string;
}

/** One file of the site: a path relative to the site's root and its text. */
export interface SiteFile {
  /** Path relative to the site's root, `/`-separated (`index.html`, `assets/style.css`). */
  readonly path: string;
  /** The file's contents: HTML, CSS or JavaScript. */
  readonly text: string;
}

/** An entry of the search index. */
interface SearchEntry {
  readonly name: string;
  readonly id: string;
  readonly kind: string;
  readonly href: string;
  readonly text: string;
}

const BINDING_LABELS: Record<Binding["location"], string> = {
  label: "path",
  query: "query",
  queryParams: "query (map)",
  header: "header",
  prefixHeaders: "headers (prefix)",
  payload: "body (payload)",
  responseCode: "status code",
  body: "body",
};

/**
 * Generates the reference site of every service in a model.
 *
 * ```ts
 * for (const file of generateSite(model)) writeFileSync(join(out, file.path), file.text);
 * ```
 */
export function generateSite(model: Model, options: SiteOptions = {}): SiteFile[] {
  return new SiteBuilder(model, options).build();
}

class SiteBuilder {
  private readonly services: Shape[];
  /** Shapes that get a page, by id, with the page path. */
  private readonly shapePages = new Map<string, string>();
  /** For each shape id, the shapes and operations that refer to it (by page path and name). */
  private readonly usedBy = new Map<string, Map<string, string>>();
  private readonly index: SearchEntry[] = [];
  private readonly title: string;

  constructor(
    private readonly model: Model,
    options: SiteOptions,
  ) {
    this.services = userServices(model);
    const only = this.services.length === 1 ? this.services[0]! : undefined;
    const titleTrait = only?.traits.get("smithy.api#title");
    this.title = options.title ?? (typeof titleTrait === "string" ? titleTrait : only ? nameOf(only.id) : "API reference");
  }

  build(): SiteFile[] {
    const files: SiteFile[] = [];
    for (const service of this.services) {
      for (const id of serviceClosure(this.model, service.id).shapes) {
        const shape = this.model.getShape(id);
        if (shape === undefined || id.startsWith("smithy.api#") || shape.type === "service" || shape.type === "operation") continue;
        this.shapePages.set(id, `shapes/${fileName(id)}.html`);
      }
    }
    for (const service of this.services) {
      const closure = serviceClosure(this.model, service.id);
      for (const op of closure.operations) {
        const href = this.operationPath(service, op);
        const label = `${operationName(service, op)} (${nameOf(service.id)})`;
        for (const id of [op.input, op.output, ...(op.errors ?? []), ...closure.errors.map((e) => e.id)]) if (id !== undefined) this.refer(id, href, label);
      }
    }
    for (const id of this.shapePages.keys()) {
      const shape = this.model.getShape(id)!;
      for (const m of shape.members.values()) this.refer(m.target, this.shapePages.get(id)!, nameOf(id));
    }

    for (const service of this.services) {
      files.push(this.servicePage(service));
      for (const op of serviceClosure(this.model, service.id).operations) files.push(this.operationPage(service, op));
    }
    for (const [id, path] of this.shapePages) files.push(this.shapePage(this.model.getShape(id)!, path));
    files.unshift(this.indexPage());
    files.push({ path: "assets/style.css", text: STYLE_CSS });
    files.push({ path: "assets/search.js", text: SEARCH_JS });
    files.push({ path: "assets/search-index.js", text: `window.ANVIL_SEARCH_INDEX = ${JSON.stringify(this.index)};\n` });
    return files;
  }

  private refer(target: string, href: string, label: string): void {
    if (!this.shapePages.has(target)) return;
    let users = this.usedBy.get(target);
    if (users === undefined) this.usedBy.set(target, (users = new Map()));
    users.set(href, label);
  }

  private servicePath(service: Shape): string {
    return `services/${fileName(service.id)}.html`;
  }

  private operationPath(service: Shape, op: Shape): string {
    return `operations/${fileName(service.id)}.${operationName(service, op)}.html`;
  }

  /** A link to a shape's page (from a page one level deep), or its name for prelude shapes. */
  private typeLink(id: string): Raw {
    const path = this.shapePages.get(id);
    const shape = this.model.getShape(id);
    const label = nameOf(id);
    const kind =
      shape && shape.type !== "structure" && nameOf(id) !== capitalize(shape.type) ? html` <span class="meta">(${describeType(shape)})</span>` : html``;
    return path !== undefined ? html`<a href="../${path}"><code>${label}</code></a>${kind}` : html`<code>${label}</code>`;
  }

  private indexPage(): SiteFile {
    const sections = this.services.map((service) => {
      const closure = serviceClosure(this.model, service.id);
      const protocols = documentedProtocols(service);
      const about = summary(getDocumentation(service));
      return html`<section class="service">
<h2><a href="${this.servicePath(service)}">${nameOf(service.id)}</a></h2>
<p class="meta"><code>${service.id}</code> · version <strong>${service.version ?? "(none)"}</strong></p>
<p>${protocols.map((p) => html`<span class="badge">${p.name}</span>`)}</p>
${about !== "" ? html`<p>${about}</p>` : ""}
<div class="table-wrap"><table><thead><tr><th>Operation</th><th>Description</th></tr></thead><tbody>
${closure.operations.map((op) => html`<tr><td><a href="${this.operationPath(service, op)}">${operationName(service, op)}</a></td><td>${summary(getDocumentation(op))}</td></tr>`)}
</tbody></table></div>
</section>`;
    });
    const shapes = [...this.shapePages].sort(([a], [b]) => nameOf(a).localeCompare(nameOf(b)));
    const body = html`<h1>${this.title}</h1>
<p class="meta">${this.services.length} service${this.services.length === 1 ? "" : "s"}</p>
${sections}
<h2>Shapes</h2>
<p>${shapes.map(([id, path]) => html`<a class="badge" href="${path}">${nameOf(id)}</a>`)}</p>`;
    this.index.push(
      ...this.services.map((s) => ({ name: nameOf(s.id), id: s.id, kind: "service", href: this.servicePath(s), text: summary(getDocumentation(s)) })),
    );
    return { path: "index.html", text: page({ title: "Services", root: "", body, siteTitle: this.title }) };
  }

  private servicePage(service: Shape): SiteFile {
    const closure = serviceClosure(this.model, service.id);
    const protocols = documentedProtocols(service);
    const body = html`<h1>${nameOf(service.id)}</h1>
<p class="meta"><code>${service.id}</code> · version <strong>${service.version ?? "(none)"}</strong></p>
<p>${protocols.map((p) => html`<span class="badge" title="${p.id}">${p.name}</span>`)}</p>
${docHtml(getDocumentation(service))}
<h2>Operations</h2>
<div class="table-wrap"><table><thead><tr><th>Operation</th>${protocols.map((p) => html`<th>${p.name}</th>`)}<th>Description</th></tr></thead><tbody>
${closure.operations.map(
  (op) =>
    html`<tr><td><a href="../${this.operationPath(service, op)}">${operationName(service, op)}</a></td>${protocols.map((p) => {
      const route = routeOf(this.model, service, op, p);
      return html`<td>${route ? html`<code>${route.method} ${route.path}</code>` : "—"}</td>`;
    })}<td>${summary(getDocumentation(op))}</td></tr>`,
)}
</tbody></table></div>
${closure.errors.length > 0 ? html`<h2>Errors</h2>${this.errorTable(closure.errors, true)}` : ""}`;
    return { path: this.servicePath(service), text: page({ title: nameOf(service.id), root: "../", body, siteTitle: this.title }) };
  }

  private operationPage(service: Shape, op: Shape): SiteFile {
    const name = operationName(service, op);
    const path = this.operationPath(service, op);
    const protocols = documentedProtocols(service);
    const rest = protocols.some((p) => p.kind === "http");
    const input = structureOf(op.input);
    const output = structureOf(op.output);
    const errors = [...(op.errors ?? []), ...(service.errors ?? [])].map((id) => this.model.getShape(id)).filter((s): s is Shape => s !== undefined);
    const examples = getExamples(op);
    const routes = protocols.map((p) => [p, routeOf(this.model, service, op, p)] as const);
    const body = html`<h1>${name}</h1>
<p class="meta">Operation of <a href="../${this.servicePath(service)}">${nameOf(service.id)}</a> · <code>${op.id}</code>${hasTrait(op, "smithy.api#readonly") ? " · read-only" : ""}${hasTrait(op, "smithy.api#idempotent") ? " · idempotent" : ""}</p>
${docHtml(getDocumentation(op))}
<h2>Requests</h2>
<div class="table-wrap"><table><thead><tr><th>Protocol</th><th>Method</th><th>URL</th><th>Headers</th></tr></thead><tbody>
${routes.map(
  ([p, r]) =>
    html`<tr><td><span class="badge" title="${p.id}">${p.name}</span></td>${
      r
        ? html`<td><code>${r.method}</code></td><td><code>${r.path}${r.query.length > 0 ? `?${r.query.map(([k, v]) => (v ? `${k}=${v}` : k)).join("&")}` : ""}</code></td><td>${r.headers.map(([k, v]) => html`<code>${k}: ${v}</code><br>`)}${p.kind !== "grpc" ? html`<code>Content-Type: ${p.contentType}</code>` : ""}</td>`
        : html`<td colspan="3">Not available: ${unavailableReason(this.model, op, p)}.</td>`
    }</tr>`,
)}
</tbody></table></div>
<h2>Input</h2>
${input ? html`<p>${this.typeLink(input)}</p>${this.memberTable(input, rest)}` : html`<p>None.</p>`}
<h2>Output</h2>
${output ? html`<p>${this.typeLink(output)}</p>${this.memberTable(output, rest)}` : html`<p>None.</p>`}
<h2>Errors</h2>
${errors.length > 0 ? this.errorTable(errors, rest) : html`<p>None.</p>`}
${examples.length > 0 ? html`<h2>Examples</h2>${examples.map((e) => html`<section class="example"><h3>${e.title}</h3>${docHtml(e.documentation)}${exampleSamples(this.model, service, op, e, protocols).map((ps) => html`<div class="sample"><h4>${ps.protocol.name}</h4>${ps.samples.map((s) => html`<p class="meta">${s.label}</p><pre><code>${s.text}</code></pre>`)}</div>`)}</section>`)}` : ""}`;
    this.index.push({ name, id: op.id, kind: `operation · ${nameOf(service.id)}`, href: path, text: summary(getDocumentation(op)) });
    return { path, text: page({ title: name, root: "../", body, siteTitle: this.title }) };
  }

  private errorTable(errors: readonly Shape[], rest: boolean): Raw {
    return html`<div class="table-wrap"><table><thead><tr><th>Error</th><th>Kind</th>${rest ? html`<th>HTTP status</th>` : ""}<th>Description</th></tr></thead><tbody>
${errors.map((e) => html`<tr><td>${this.typeLink(e.id)}</td><td>${getErrorKind(e) ?? ""}</td>${rest ? html`<td>${getHttpError(e) ?? (getErrorKind(e) === "server" ? 500 : 400)}</td>` : ""}<td>${summary(getDocumentation(e))}</td></tr>`)}
</tbody></table></div>`;
  }

  /** The members of a structure: name, type, HTTP location, required, default, constraints and documentation. */
  private memberTable(structureId: string, rest: boolean): Raw {
    const shape = this.model.getShape(structureId);
    if (shape === undefined || shape.members.size === 0) return html`<p>No members.</p>`;
    const bindings = new Map(bindingsOf(this.model, structureId).map((b) => [b.member.name, b]));
    return html`<div class="table-wrap"><table><thead><tr><th>Member</th><th>Type</th>${rest ? html`<th>Location (HTTP)</th>` : ""}<th>Required</th><th>Default</th><th>Constraints</th><th>Description</th></tr></thead><tbody>
${[...shape.members.values()].map((m) => {
  const b = bindings.get(m.name);
  const where =
    b === undefined
      ? ""
      : b.location === "body" || b.location === "payload" || b.location === "responseCode"
        ? BINDING_LABELS[b.location]
        : `${BINDING_LABELS[b.location]} ${b.name}`;
  return html`<tr><td><code>${m.name}</code></td><td>${this.typeLink(m.target)}</td>${rest ? html`<td>${where}</td>` : ""}<td>${isRequired(m) ? html`<span class="req">required</span>` : ""}</td><td>${defaultOf(m)}</td><td>${constraintsOf(this.model, m)}</td><td>${docHtml(getDocumentation(m) ?? getDocumentation(this.model.getShape(m.target) ?? m))}</td></tr>`;
})}
</tbody></table></div>`;
  }

  private shapePage(shape: Shape, path: string): SiteFile {
    const name = nameOf(shape.id);
    const users = [...(this.usedBy.get(shape.id) ?? [])].sort(([, a], [, b]) => a.localeCompare(b));
    const enumRows =
      shape.type === "enum" || shape.type === "intEnum"
        ? html`<h2>Values</h2><div class="table-wrap"><table><thead><tr><th>Name</th><th>Value</th><th>Description</th></tr></thead><tbody>${[...shape.members.values()].map((m) => html`<tr><td><code>${m.name}</code></td><td><code>${JSON.stringify(getEnumValue(m) ?? m.name)}</code></td><td>${docHtml(getDocumentation(m))}</td></tr>`)}</tbody></table></div>`
        : html``;
    const membersRows =
      shape.type === "structure" || shape.type === "union"
        ? html`<h2>Members</h2>${this.memberTable(shape.id, false)}`
        : shape.type === "list" || shape.type === "set" || shape.type === "map"
          ? html`<h2>Members</h2>${this.memberTable(shape.id, false)}`
          : html``;
    const own = constraintsOf(this.model, shape);
    const body = html`<h1>${name}</h1>
<p class="meta">${describeType(shape)} · <code>${shape.id}</code>${getErrorKind(shape) ? html` · ${getErrorKind(shape)} error${getHttpError(shape) !== undefined ? ` (HTTP ${getHttpError(shape)})` : ""}` : ""}</p>
${docHtml(getDocumentation(shape))}
${own ? html`<p><strong>Constraints:</strong> ${own}</p>` : ""}
${enumRows}${membersRows}
<h2>Used by</h2>
${users.length > 0 ? html`<ul>${users.map(([href, label]) => html`<li><a href="../${href}">${label}</a></li>`)}</ul>` : html`<p>Nothing in the documented services.</p>`}`;
    this.index.push({ name, id: shape.id, kind: shape.type, href: path, text: summary(getDocumentation(shape)) });
    return { path, text: page({ title: name, root: "../", body, siteTitle: this.title }) };
  }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A shape id as a file name: `example.weather#City` → `example.weather.City`. */
function fileName(id: string): string {
  return id.replace("#", ".").replace(/[^A-Za-z0-9._-]/g, "_");
}

/** A short description of a shape's type: `list of String`, `map of String to Double`, `string enum`. */
function describeType(shape: Shape): string {
  const target = (m: string) => nameOf(shape.members.get(m)?.target ?? "smithy.api#Document");
  switch (shape.type) {
    case "list":
    case "set":
      return `list of ${target("member")}`;
    case "map":
      return `map of ${target("key")} to ${target("value")}`;
    case "enum":
      return "string enum";
    case "intEnum":
      return "integer enum";
    default:
      return `${shape.type}${isStreaming(shape) ? " (streaming)" : ""}`;
  }
}

function defaultOf(member: MemberShape): Raw {
  const value = getDefault(member);
  return value === undefined ? html`` : html`<code>${stringifyNode(value)}</code>`;
}

/** The constraints and wire details of a shape or member, and of a member's target. */
function constraintsOf(model: Model, s: Shape | MemberShape): Raw {
  const parts: string[] = [];
  const sources = s.type === "member" ? [s, model.getShape(s.target)].filter((x) => x !== undefined) : [s];
  for (const x of sources) {
    const length = getLength(x);
    if (length !== undefined) parts.push(`length ${length.min ?? 0}..${length.max ?? "∞"}`);
    const range = getRange(x);
    if (range !== undefined) parts.push(`range ${range.min ?? "-∞"}..${range.max ?? "∞"}`);
    const pattern = getPattern(x);
    if (pattern !== undefined) parts.push(`pattern ${pattern}`);
    if (hasTrait(x, "smithy.api#uniqueItems")) parts.push("unique items");
    if (isSensitive(x)) parts.push("sensitive");
    const ts = getTimestampFormat(x);
    if (ts !== undefined) parts.push(`format ${ts}`);
    if (x.type === "member") {
      const json = getJsonName(x);
      if (json !== undefined) parts.push(`JSON name ${json}`);
    }
  }
  return parts.length === 0 ? html`` : html`${[...new Set(parts)].map((p, i) => html`${i > 0 ? html`<br>` : ""}<code>${p}</code>`)}`;
}
