import { describe, expect, it } from "vitest";
import { docHtml, summary } from "./html.js";

/** An AWS-style documentation string: HTML inside CommonMark, indented freely, with a blank line between blocks. */
const AWS_STYLE = `<p>Starts a <code>Widget</code> job. See <a href="https://example.com/guide/widgets.html">the widget guide</a>
      for the <i>limits</i> that apply.</p>

         <ul><li><p><code>PUT</code> - replaces the widget.</p></li><li><p><code>DELETE</code> - removes it.</p></li></ul>

         <note>
            <p>Jobs run <b>one at a time</b> per account.</p>
         </note>
         <important><p>Stop a job before you delete its widget.</p></important>`;

describe("docHtml", () => {
  it("renders AWS-style HTML documentation as elements", () => {
    const out = docHtml(AWS_STYLE).html;
    expect(out).toContain("<p>Starts a <code>Widget</code> job. See ");
    expect(out).toContain('<a href="https://example.com/guide/widgets.html" rel="noopener noreferrer">the widget guide</a>');
    expect(out).toContain("<i>limits</i>");
    expect(out).toContain("<ul><li><p><code>PUT</code> - replaces the widget.</p></li><li><p><code>DELETE</code> - removes it.</p></li></ul>");
    expect(out).toMatch(/<div class="note">\s*<p>Jobs run <b>one at a time<\/b> per account.<\/p>\s*<\/div>/);
    expect(out).toContain('<div class="important"><p>Stop a job before you delete its widget.</p></div>');
    // Indented HTML is not an indented code block, and nothing is shown as escaped markup.
    expect(out).not.toContain("<pre>");
    expect(out).not.toContain("&lt;");
  });

  it("renders CommonMark: emphasis, lists, links, fenced code, tables", () => {
    const out = docHtml(
      'Reads *one* widget, **fast**, with `id`.\n\n- first\n- second\n\n1. one\n2. two\n\nSee [the guide](https://example.com/g) or [below](#errors).\n\n```json\n{ "id": "a<b" }\n```\n\n| name | kind |\n| --- | :-: |\n| id | string |\n\n# Details',
    ).html;
    expect(out).toContain("<p>Reads <em>one</em> widget, <strong>fast</strong>, with <code>id</code>.</p>");
    expect(out).toContain("<ul>\n<li>first</li>\n<li>second</li>\n</ul>");
    expect(out).toContain("<ol>\n<li>one</li>\n<li>two</li>\n</ol>");
    expect(out).toContain('<a href="https://example.com/g" rel="noopener noreferrer">the guide</a>');
    expect(out).toContain('<a href="#errors">below</a>');
    expect(out).toContain('<pre><code class="language-json">{ "id": "a&lt;b" }\n</code></pre>');
    expect(out).toContain('<th style="text-align:center">kind</th>');
    expect(out).toContain("<td>id</td>");
    // Headings move below the page's own h1/h2.
    expect(out).toContain("<h3>Details</h3>");
  });

  it("keeps plain text documentation as paragraphs, `- ` lists and code spans", () => {
    expect(docHtml(undefined).html).toBe("");
    expect(docHtml("  \n").html).toBe("");
    expect(docHtml("A widget.\n\nIt has an `id`.").html).toBe("<p>A widget.</p>\n<p>It has an <code>id</code>.</p>");
    expect(docHtml("- red\n- green").html).toBe("<ul>\n<li>red</li>\n<li>green</li>\n</ul>");
    expect(docHtml("1 < 2 & 3 > 2").html).toBe("<p>1 &lt; 2 &amp; 3 &gt; 2</p>");
  });

  it("removes scripts, event handlers, javascript: URLs, iframes and other elements", () => {
    const out = docHtml(
      [
        "<p>Before<script>document.cookie</script> after.</p>",
        '<p><b onclick="steal()">bold</b> <img src="x" onerror="steal()"></p>',
        '<p><a href="javascript:steal()">one</a> <a href="JaVaScRiPt&#58;steal()">two</a> <a href="//elsewhere.example">three</a></p>',
        '<iframe src="https://elsewhere.example/frame">framed</iframe>',
        "<style>body { display: none }</style>",
        '<div class="evil" style="position:fixed">boxed</div>',
        'Inline <span onmouseover="steal()">span</span> and [md link](javascript:steal()).',
      ].join("\n\n"),
    ).html;
    expect(out).not.toMatch(
      /<script|document\.cookie|<img|onerror|onclick|onmouseover|<iframe|framed|<style|display: none|style=|class="evil"|elsewhere|<span|href="(?!#)/i,
    );
    expect(out).toContain("<p>Before after.</p>");
    expect(out).toContain("<b>bold</b>");
    expect(out).toContain("<a>one</a> <a>two</a> <a>three</a>");
    expect(out).toContain("<div>boxed</div>");
    // markdown-it refuses the javascript: link: its source stays as text.
    expect(out).toContain("Inline span and [md link](javascript:steal()).");
  });

  it("drops a rel the documentation sets, and keeps relative and mailto links", () => {
    const out = docHtml('<a href="other.html" rel="opener">a</a> <a href="mailto:team@example.com">b</a>').html;
    expect(out).toBe('<p><a href="other.html">a</a> <a href="mailto:team@example.com">b</a></p>');
  });
});

describe("summary", () => {
  it("gives the first sentence of HTML documentation as plain text", () => {
    expect(summary(AWS_STYLE)).toBe("Starts a Widget job.");
    expect(summary("<p>Copies <code>a</code> &amp; <code>b</code> to &lt;dest&gt; &quot;now&quot;. Then stops.</p>")).toBe('Copies a & b to <dest> "now".');
    expect(summary("<p>No full stop here</p><p>Second block.</p>")).toBe("No full stop here");
    expect(summary("<note><p>A note first. More.</p></note>")).toBe("A note first.");
    expect(summary("<p><script>steal()</script>Safe text.</p>")).toBe("Safe text.");
  });

  it("keeps plain text documentation as before", () => {
    expect(summary(undefined)).toBe("");
    expect(summary("")).toBe("");
    expect(summary("Gets a widget.\nIt must exist. Really.\n\nMore text.")).toBe("Gets a widget.");
    expect(summary("Reads the `id` of a\nwidget, version 1.2 or later")).toBe("Reads the id of a widget, version 1.2 or later");
    expect(summary("Compares a < b & c.")).toBe("Compares a < b & c.");
  });
});
