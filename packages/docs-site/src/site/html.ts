/** HTML helpers for the reference site: escaping, documentation text and the page layout. */
import MarkdownIt from "markdown-it";
import { sanitizeDocHtml } from "./sanitize.js";

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A tagged template that escapes interpolated strings; {@link Raw} values and arrays of them pass through. */
export class Raw {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

type Part = string | number | Raw | undefined | null | false | readonly Part[];

function render(part: Part): string {
  if (part === undefined || part === null || part === false) return "";
  if (part instanceof Raw) return part.html;
  if (Array.isArray(part)) return part.map(render).join("");
  return escapeHtml(String(part));
}

/** Builds HTML: interpolations are escaped unless they are {@link Raw}. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Raw {
  let out = strings[0]!;
  for (let i = 0; i < parts.length; i++) out += render(parts[i]!) + strings[i + 1]!;
  return new Raw(out);
}

/**
 * Parses `@documentation` as CommonMark with raw HTML, as Smithy specifies and
 * AWS models use it. Indented code blocks are off (as in smithy-go): AWS models
 * indent their HTML freely, and fenced code blocks still work.
 */
const markdown = new MarkdownIt({ html: true, linkify: false, typographer: false }).disable("code");

/**
 * Makes AWS-style HTML documentation parse as HTML blocks: drops empty `<p/>`,
 * spells `<note>`/`<important>` as `<div>` (which CommonMark knows as a block
 * tag) and un-indents lines that start with a tag, outside `<pre>` and fenced
 * code, so four spaces of indentation do not turn them into text.
 */
function normalize(doc: string): string {
  let fence: string | undefined;
  let pre = 0;
  return doc
    .split(/\r?\n/)
    .map((line) => {
      if (fence !== undefined) {
        if (line.trimStart().startsWith(fence)) fence = undefined;
        return line;
      }
      const opens = pre === 0 ? /^ {0,3}(`{3,}|~{3,})/.exec(line) : null;
      if (opens) {
        fence = opens[1]!;
        return line;
      }
      let out = line;
      if (pre === 0) {
        // Outside `code spans` only: a code span shows its text as it is.
        out = out
          .split(/(`+[^`]*`+)/)
          .map((part, i) =>
            i % 2 === 1
              ? part
              : part
                  .replace(/<p\s*\/>/gi, "")
                  .replace(/<(\/?)(note|important)\b[^>]*>/gi, (_, close: string, tag: string) => (close ? "</div>" : `<div class="${tag.toLowerCase()}">`)),
          )
          .join("");
        if (/^(?: {0,3}\t| {4,})\s*<\/?[a-z]/i.test(out)) out = out.trimStart();
      }
      pre = Math.max(0, pre + (line.match(/<pre\b/gi)?.length ?? 0) - (line.match(/<\/pre\s*>/gi)?.length ?? 0));
      return out;
    })
    .join("\n");
}

/**
 * Smithy documentation as HTML: CommonMark with inline and block HTML (the
 * HTML that AWS models are written in included), sanitized to an allowlist of
 * text, list, table and link markup.
 */
export function docHtml(doc: string | undefined): Raw {
  if (doc === undefined || doc.trim() === "") return new Raw("");
  return new Raw(sanitizeDocHtml(markdown.render(normalize(doc.trim()))).trim());
}

/** Closing or opening a block: a paragraph break in {@link summary}. */
const BLOCK_TAG = /<\/?(?:p|div|ul|ol|dl|pre|h[1-6]|table|blockquote)\b[^>]*>/gi;
/** Tags inside a block whose text would otherwise run together (list items, cells, line breaks). */
const SPACING_TAG = /<\/?(?:li|dt|dd|tr|th|td|br)\b[^>]*>/gi;
const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes the entities sanitized HTML text holds (`&amp;`, `&lt;`, `&gt;`, and numeric ones to be safe). */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d+)|#x([\da-f]+)|([a-z]+));/gi, (entity, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return ENTITIES[name.toLowerCase()] ?? entity;
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/**
 * The first sentence of a documentation string, as plain text (for tables and
 * the search index): the first block of the rendered documentation, tags
 * removed, entities decoded and whitespace collapsed.
 */
export function summary(doc: string | undefined): string {
  if (doc === undefined) return "";
  const text = docHtml(doc)
    .html.replace(BLOCK_TAG, "\n\n")
    .replace(SPACING_TAG, " ")
    .replace(/<[^>]*>/g, "");
  const first = text.split(/\n\s*\n/).find((block) => block.trim() !== "") ?? "";
  const sentence = first.replace(/\s+/g, " ").trim();
  const end = sentence.search(/\.(\s|$)/);
  return decodeEntities(end < 0 ? sentence : sentence.slice(0, end + 1));
}

/** A whole page: header with the search box, the content, the site's own CSS and script (paths relative to the page). */
export function page(options: { title: string; root: string; body: Raw; siteTitle: string }): string {
  const { title, root, body, siteTitle } = options;
  return `<!doctype html>
${
  html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${siteTitle}</title>
<link rel="stylesheet" href="${root}assets/style.css">
<script src="${root}assets/search-index.js" defer></script>
<script src="${root}assets/search.js" defer></script>
</head>
<body data-root="${root}">
<header class="top">
<a class="brand" href="${root}index.html">${siteTitle}</a>
<form class="search" role="search" onsubmit="return false">
<input id="search" type="search" placeholder="Search operations and shapes" aria-label="Search" autocomplete="off">
<ol id="search-results" hidden></ol>
</form>
</header>
<main>
${body}
</main>
<footer>Generated by Anvil from the Smithy model.</footer>
</body>
</html>`.html
}
`;
}
