/** The reference site's own stylesheet and search script: no external fonts, styles or scripts. */

/** Readable, responsive and printable; system fonts only; follows the reader's light or dark preference. */
export const STYLE_CSS = `:root {
  --fg: #1d2126; --muted: #5b6470; --bg: #ffffff; --panel: #f5f7f9; --line: #dde2e7; --accent: #0b5cad; --code: #f0f3f6;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e9ec; --muted: #a2abb5; --bg: #15181c; --panel: #1d2126; --line: #323840; --accent: #6cb0f5; --code: #22272e; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); text-decoration: none; }
a:hover, a:focus { text-decoration: underline; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }
code { background: var(--code); padding: 0.1em 0.3em; border-radius: 3px; }
pre { background: var(--code); padding: 0.8em 1em; border-radius: 6px; overflow-x: auto; white-space: pre; line-height: 1.4; }
pre code { background: none; padding: 0; }
header.top { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 0.5em 1.5em; align-items: center; padding: 0.6em 1.2em; background: var(--panel); border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; color: var(--fg); }
form.search { position: relative; flex: 1 1 16em; max-width: 32em; margin: 0; }
#search { width: 100%; padding: 0.45em 0.7em; font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
#search-results { position: absolute; left: 0; right: 0; margin: 0.2em 0 0; padding: 0.3em 0; list-style: none; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; box-shadow: 0 6px 18px rgb(0 0 0 / 0.15); max-height: 60vh; overflow-y: auto; }
#search-results li a { display: block; padding: 0.35em 0.8em; color: var(--fg); }
#search-results li a:hover, #search-results li a:focus, #search-results li.active a { background: var(--panel); text-decoration: none; }
#search-results .kind { color: var(--muted); font-size: 0.85em; margin-left: 0.5em; }
main { max-width: 62em; margin: 0 auto; padding: 1em 1.2em 3em; }
h1 { font-size: 1.8em; margin: 0.4em 0 0.2em; overflow-wrap: anywhere; }
h2 { font-size: 1.3em; margin-top: 1.8em; border-bottom: 1px solid var(--line); padding-bottom: 0.2em; }
h3 { font-size: 1.1em; margin-top: 1.4em; }
.meta { color: var(--muted); margin: 0 0 1em; }
.badge { display: inline-block; padding: 0.05em 0.5em; margin: 0 0.3em 0.3em 0; border: 1px solid var(--line); border-radius: 999px; font-size: 0.85em; background: var(--panel); }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: 0.6em 0 1em; font-size: 0.95em; }
th, td { text-align: left; vertical-align: top; padding: 0.45em 0.6em; border-bottom: 1px solid var(--line); }
th { background: var(--panel); font-weight: 600; }
td p { margin: 0 0 0.4em; }
.note, .important { margin: 0.8em 0; padding: 0.5em 0.9em; border-left: 4px solid var(--accent); background: var(--panel); border-radius: 0 6px 6px 0; }
.important { border-left-color: #b3261e; }
.note > :first-child, .important > :first-child { margin-top: 0; }
.note > :last-child, .important > :last-child { margin-bottom: 0; }
blockquote { margin: 0.8em 0; padding: 0 1em; color: var(--muted); border-left: 3px solid var(--line); }
.req { color: #b3261e; font-size: 0.85em; }
.sample { margin: 0.6em 0 1.2em; }
.sample h4 { margin: 0.8em 0 0.3em; font-size: 0.95em; color: var(--muted); }
footer { text-align: center; color: var(--muted); font-size: 0.85em; padding: 2em 1em; }
@media (max-width: 40em) {
  body { font-size: 15px; }
  main { padding: 0.8em; }
  th, td { padding: 0.35em 0.4em; }
}
@media print {
  header.top, footer, form.search { display: none; }
  body { color: #000; background: #fff; font-size: 11pt; }
  main { max-width: none; padding: 0; }
  a { color: #000; text-decoration: underline; }
  pre { white-space: pre-wrap; border: 1px solid #ccc; background: #fff; }
  h2, h3 { break-after: avoid; }
  tr, pre { break-inside: avoid; }
}
`;

/**
 * The search box: filters the index in `search-index.js` (a script rather
 * than JSON, so the site also works opened from disk) as the reader types;
 * arrow keys and Enter pick a result.
 */
export const SEARCH_JS = `(function () {
  "use strict";
  var input = document.getElementById("search");
  var list = document.getElementById("search-results");
  var root = document.body.getAttribute("data-root") || "";
  var index = window.ANVIL_SEARCH_INDEX || [];
  var active = -1;
  function score(entry, q) {
    var name = entry.name.toLowerCase();
    if (name === q) return 0;
    if (name.indexOf(q) === 0) return 1;
    if (name.indexOf(q) >= 0) return 2;
    if (entry.id.toLowerCase().indexOf(q) >= 0) return 3;
    if (entry.text.toLowerCase().indexOf(q) >= 0) return 4;
    return -1;
  }
  function show() {
    var q = input.value.trim().toLowerCase();
    list.innerHTML = "";
    active = -1;
    if (!q) { list.hidden = true; return; }
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var s = score(index[i], q);
      if (s >= 0) hits.push({ s: s, e: index[i] });
    }
    // Operations first among equally good matches: they are what readers look for most.
    var rank = function (e) { return e.kind.indexOf("operation") === 0 ? 0 : e.kind === "service" ? 1 : 2; };
    hits.sort(function (a, b) { return a.s - b.s || rank(a.e) - rank(b.e) || a.e.name.localeCompare(b.e.name); });
    hits.slice(0, 20).forEach(function (hit) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + hit.e.href;
      a.textContent = hit.e.name;
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = hit.e.kind;
      a.appendChild(kind);
      li.appendChild(a);
      list.appendChild(li);
    });
    if (hits.length === 0) {
      var none = document.createElement("li");
      none.textContent = "No match";
      none.style.padding = "0.35em 0.8em";
      list.appendChild(none);
    }
    list.hidden = false;
  }
  function move(step) {
    var items = list.querySelectorAll("li a");
    if (!items.length) return;
    active = (active + step + items.length) % items.length;
    items.forEach(function (a, i) { a.parentNode.className = i === active ? "active" : ""; });
  }
  input.addEventListener("input", show);
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") { move(1); event.preventDefault(); }
    else if (event.key === "ArrowUp") { move(-1); event.preventDefault(); }
    else if (event.key === "Enter") {
      var items = list.querySelectorAll("li a");
      var target = items[active < 0 ? 0 : active];
      if (target) window.location.href = target.href;
    } else if (event.key === "Escape") { list.hidden = true; }
  });
  document.addEventListener("click", function (event) {
    if (!list.contains(event.target) && event.target !== input) list.hidden = true;
  });
})();
`;
