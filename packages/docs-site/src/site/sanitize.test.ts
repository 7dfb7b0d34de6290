import fc from "fast-check";
import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";
import { describe, expect, it } from "vitest";
import { sanitizeDocHtml } from "./sanitize.js";

/** The options this package gave sanitize-html before it had an allowlist of its own: the reference. */
const demote = (level: number): sanitizeHtml.Transformer => sanitizeHtml.simpleTransform(`h${Math.min(level + 2, 6)}`, {});
const REFERENCE: sanitizeHtml.IOptions = {
  allowedTags: ["p", "a", "code", "pre", "ul", "ol", "li", "b", "strong", "i", "em", "br", "dl", "dt", "dd", "h3", "h4", "h5", "h6"].concat([
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "blockquote",
    "div",
  ]),
  allowedAttributes: { a: ["href", "title", "rel"], div: ["class"], code: ["class"], ol: ["start"], th: ["style"], td: ["style"] },
  allowedClasses: { div: ["note", "important"], code: ["language-*"] },
  allowedStyles: { th: { "text-align": [/^(?:left|right|center)$/] }, td: { "text-align": [/^(?:left|right|center)$/] } },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "iframe", "object", "template", "title"],
  transformTags: {
    note: sanitizeHtml.simpleTransform("div", { class: "note" }),
    important: sanitizeHtml.simpleTransform("div", { class: "important" }),
    h1: demote(1),
    h2: demote(2),
    h3: demote(3),
    h4: demote(4),
    h5: demote(5),
    a: (tagName, attribs) => {
      const { rel: _rel, ...rest } = attribs;
      return { tagName, attribs: rest.href !== undefined && /^\s*https?:/i.test(rest.href) ? { ...rest, rel: "noopener noreferrer" } : rest };
    },
  },
};

const markdown = new MarkdownIt({ html: true, linkify: false, typographer: false }).disable("code");

/** Documentation as models write it, and what attackers would write into it. */
const CORPUS = [
  "Gets a city. See [the guide](https://example.com/guide) or [mail us](mailto:a@example.com).",
  "<p>Creates a <code>Bucket</code>.</p> <note><p>Requires <b>permission</b>.</p></note><important>Read this.</important>",
  "# Title\n\n## Section\n\n### Sub\n\n#### Deeper\n\n##### Deepest\n\n###### Six",
  "| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |",
  "```js\nconst x = 1 < 2 && 3 > 2;\n```",
  "1. one\n2. two\n\n3. three",
  "5. five\n6. six",
  "<ul><li>a<li>b</ul><dl><dt>t<dd>d</dl>",
  "<script>alert(1)</script>safe<style>p{}</style><iframe src=x>inside</iframe><textarea>t</textarea>",
  '<a href="javascript:alert(1)">x</a><a href="JaVaScRiPt:alert(1)">y</a><a href=" java\tscript:alert(1)">z</a>',
  '<a href="//evil.example/">p</a><a href="\\\\evil">q</a><a href="/relative">r</a><a href="#frag">s</a><a href="data:text/html,x">t</a>',
  '<a href="https://x.example" rel="opener" title="T &amp; &quot;q&quot;">u</a><a href="java<!-- c -->script:alert(1)">v</a>',
  '<img src=x onerror=alert(1)><p onclick="x()" class="note">p</p><div class="note evil important">d</div><div class="">e</div>',
  '<code class="language-ts other">c</code><td style="text-align: right; color: red">x</td><th style="color:red">y</th>',
  "<b>unclosed <i>nested</b> text</i> </p> stray",
  "Entities: &lt;tag&gt; &amp;amp; &#x3c;script&#x3e; &copy; &nbsp; &unknown; 5 > 3 < 4",
  '<p title="">empty</p><a href="">empty href</a><ol start="">x</ol><ol start="3"><li>c</li></ol>',
  "<svg><script>alert(1)</script></svg><math><mi>x</mi></math><noscript><p>n</p></noscript>",
  "<h1 id=x>Heading</h1><h6>six</h6><br><br/><hr><table><tr><td>cell</td></tr></table>",
  "<object data=x><param name=a></object><template><p>t</p></template><option>o</option><title>t</title>",
  "<p>Line one<br>Line two</p><blockquote>quote</blockquote><pre>  pre  </pre>",
  '<a href="http://x"><b>bold link</b></a><a href="mailto:x@y" rel="nofollow">m</a><A HREF="HTTPS://X">caps</A>',
];

describe("the documentation allowlist, against sanitize-html with the options it replaces", () => {
  it.each(CORPUS.map((doc) => [doc]))("sanitizes %j as sanitize-html did", (doc) => {
    const html = markdown.render(doc);
    expect(sanitizeDocHtml(html)).toBe(sanitizeHtml(html, REFERENCE));
    expect(sanitizeDocHtml(doc)).toBe(sanitizeHtml(doc, REFERENCE));
  });

  it("sanitizes random markup as sanitize-html did", () => {
    const tag = fc.constantFrom(
      "p",
      "a",
      "b",
      "i",
      "code",
      "div",
      "note",
      "script",
      "style",
      "h1",
      "h2",
      "td",
      "th",
      "ul",
      "li",
      "br",
      "img",
      "span",
      "svg",
      "title",
    );
    const attribute = fc.tuple(
      fc.constantFrom("href", "class", "style", "title", "rel", "onclick", "start", "src", "id"),
      fc.constantFrom(
        "",
        "note",
        "language-ts",
        "x y",
        "text-align:left",
        "text-align: center; color: red",
        "javascript:x",
        "https://e.example",
        "/r",
        "//p",
        "3",
        '"q"',
        "a&b",
        "<x>",
      ),
    );
    const element: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom("text", "a < b", "x & y", "&lt;i&gt;", "&amp;", "\n", " ", "&#106;avascript"),
        fc
          .tuple(tag, fc.array(attribute, { maxLength: 3 }), fc.array(tie("node"), { maxLength: 3 }), fc.boolean())
          .map(
            ([name, attributes, children, close]) =>
              `<${name}${attributes.map(([n, v]) => ` ${n}="${v.replace(/"/g, "&quot;")}"`).join("")}>${children.join("")}${close ? `</${name}>` : ""}`,
          ),
      ),
    })).node;
    fc.assert(
      fc.property(fc.array(element, { maxLength: 4 }), (parts) => {
        const html = parts.join("");
        expect(sanitizeDocHtml(html)).toBe(sanitizeHtml(html, REFERENCE));
      }),
      { numRuns: 300 },
    );
  });
});
