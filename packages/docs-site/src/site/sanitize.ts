/**
 * The allowlist rendered documentation passes through: text markup, lists,
 * tables and links (http, https, mailto, relative); AWS's `<note>` and
 * `<important>` become `<div class="note">` and `<div class="important">`.
 * Every other element is dropped (the text of `script`, `style` and the like
 * with it), as are event-handler attributes, styles other than table cell
 * alignment, and links to other schemes.
 *
 * It is written on htmlparser2's tokenizer (the parser sanitize-html uses)
 * and writes what sanitize-html wrote with this package's options, which the
 * tests check against it; sanitize-html itself parses styles with postcss,
 * which needs Node's `path`, `url` and `fs`, and so cannot be bundled for
 * Workers or `--platform=neutral`.
 */
import { Parser } from "htmlparser2";

/** Elements kept, with the attributes each may keep. */
const ALLOWED: ReadonlyMap<string, readonly string[]> = new Map([
  ["p", []],
  ["a", ["href", "title", "rel"]],
  ["code", ["class"]],
  ["pre", []],
  ["ul", []],
  ["ol", ["start"]],
  ["li", []],
  ["b", []],
  ["strong", []],
  ["i", []],
  ["em", []],
  ["br", []],
  ["dl", []],
  ["dt", []],
  ["dd", []],
  ["h3", []],
  ["h4", []],
  ["h5", []],
  ["h6", []],
  ["table", []],
  ["thead", []],
  ["tbody", []],
  ["tr", []],
  ["th", ["style"]],
  ["td", ["style"]],
  ["blockquote", []],
  ["div", ["class"]],
]);

/** Classes kept, by element: exact names, or a prefix ending in `*`. */
const CLASSES: Readonly<Record<string, readonly string[]>> = { div: ["note", "important"], code: ["language-*"] };

/** Elements dropped with their text. */
const NON_TEXT = new Set(["script", "style", "textarea", "option", "noscript", "iframe", "object", "template", "title"]);

/** Written as `<br />`, never closed. */
const SELF_CLOSING = new Set(["br"]);

/** Link schemes kept; links without a scheme (relative ones) are kept too, protocol-relative ones are not. */
const SCHEMES = new Set(["http", "https", "mailto"]);

/** An absolute web link, which gets `rel="noopener noreferrer"`. */
const ABSOLUTE_URL = /^\s*https?:/i;

/** An attribute name that cannot end the attribute or the tag early. */
const ATTRIBUTE_NAME = /^[^\0\t\n\f\r /<=>]+$/;

/** Table cell alignment, the only style kept (markdown-it writes it for aligned table columns). */
const TEXT_ALIGN = /^(?:left|right|center)$/;

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;");
}

/** Whether a link's scheme is one not kept (after what browsers ignore: control characters, spaces and comments). */
function naughtyHref(href: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what browsers ignore in URLs, and what is removed here.
  let clean = href.replace(/[\x00-\x20]+/g, "");
  for (let open = clean.indexOf("<!--"); open !== -1; open = clean.indexOf("<!--")) {
    const close = clean.indexOf("-->", open + 4);
    if (close === -1) break;
    clean = clean.slice(0, open) + clean.slice(close + 3);
  }
  const scheme = /^([a-zA-Z][a-zA-Z0-9.\-+]*):/.exec(clean);
  if (scheme === null) return /^[/\\]{2}/.test(clean);
  return !SCHEMES.has(scheme[1]!.toLowerCase());
}

function keptClasses(tag: string, value: string): string {
  const allowed = CLASSES[tag] ?? [];
  return value
    .split(/\s+/)
    .filter((name) => name !== "" && allowed.some((a) => (a.endsWith("*") ? name.startsWith(a.slice(0, -1)) : name === a)))
    .join(" ");
}

/** The `text-align` declarations of a style attribute, as `text-align:right`; anything else is dropped. */
function keptStyle(value: string): string {
  const kept: string[] = [];
  for (const declaration of value.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const text = declaration.slice(colon + 1).trim();
    if (property === "text-align" && TEXT_ALIGN.test(text)) kept.push(`${property}:${text}`);
  }
  return kept.join(";");
}

/** What an element becomes: its name and attributes after the renames (`note` → `div.note`, `h1` → `h3`, ...). */
function transform(tag: string, attributes: Record<string, string>): [string, Record<string, string>] {
  switch (tag) {
    case "note":
    case "important":
      return ["div", { ...attributes, class: tag }];
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
      // Headings in documentation sit below the page's own h1 and h2: two levels down.
      return [`h${Math.min(Number(tag[1]) + 2, 6)}`, attributes];
    case "a": {
      const { rel: _rel, ...rest } = attributes;
      return ["a", rest.href !== undefined && ABSOLUTE_URL.test(rest.href) ? { ...rest, rel: "noopener noreferrer" } : rest];
    }
    default:
      return [tag, attributes];
  }
}

function openTag(tag: string, attributes: Record<string, string>): string {
  const allowed = ALLOWED.get(tag)!;
  let out = `<${tag}`;
  for (const name of Object.keys(attributes)) {
    let value = attributes[name]!;
    // Every attribute kept is one that needs a value.
    if (!ATTRIBUTE_NAME.test(name) || value === "" || !allowed.includes(name)) continue;
    if (name === "href" && naughtyHref(value)) continue;
    if (name === "class") value = keptClasses(tag, value);
    if (name === "style") value = keptStyle(value);
    if (value === "") continue;
    out += ` ${name}="${escapeAttribute(value)}"`;
  }
  return SELF_CLOSING.has(tag) ? `${out} />` : `${out}>`;
}

/** One open element: the name the parser knows it by, and what it was written as (undefined: dropped). */
interface Frame {
  readonly name: string;
  readonly written: string | undefined;
}

/** Sanitizes rendered documentation HTML to the allowlist above. */
export function sanitizeDocHtml(html: string): string {
  let out = "";
  const stack: Frame[] = [];
  let skipDepth = 0; // > 0 inside an element dropped with its text
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (skipDepth > 0) {
          skipDepth++;
          return;
        }
        const [tag, attributes] = transform(name, attribs);
        if (!ALLOWED.has(tag)) {
          stack.push({ name, written: undefined });
          if (NON_TEXT.has(tag)) skipDepth = 1;
          return;
        }
        stack.push({ name, written: tag });
        out += openTag(tag, attributes);
      },
      ontext(text) {
        if (skipDepth === 0) out += escapeText(text);
      },
      onclosetag(name) {
        if (skipDepth > 0 && --skipDepth > 0) return;
        const frame = stack.pop();
        if (frame === undefined) return;
        if (frame.name !== name) {
          // Markup that closes what it never opened: the element stays open.
          stack.push(frame);
          return;
        }
        if (frame.written !== undefined && !SELF_CLOSING.has(frame.written)) out += `</${frame.written}>`;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out;
}
