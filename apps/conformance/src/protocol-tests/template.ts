/**
 * The placeholder syntax of `httpMalformedRequestTests` `testParameters`, as
 * Smithy's reference implementation formats it (its code writer's named
 * parameters):
 *
 * - `$name:L` (or `${name:L}`) is the parameter's value as it is;
 * - `$name:S` (or `${name:S}`) is the value as a quoted string literal
 *   (`"`, `\` and control characters escaped; other characters as they are);
 * - `$$` is a literal `$` (so a regex's end anchor is written `$$`).
 *
 * Any other use of `$` is an error, as it is upstream. Templates are only
 * formatted for cases that have `testParameters`: a case without them keeps
 * its strings as written, `$$` included.
 */

/** Thrown for a template that cannot be formatted. */
export class TemplateError extends Error {
  override readonly name = "TemplateError";
}

const NAME = /^[a-z][A-Za-z0-9_.#]*/;

/**
 * Formats a template with the given parameter values (one value per name).
 * Throws a {@link TemplateError} for an unknown name, an unknown formatter or
 * a lone `$`.
 */
export function formatTemplate(template: string, values: Readonly<Record<string, string>>): string {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const dollar = template.indexOf("$", i);
    if (dollar < 0) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, dollar);
    const next = template[dollar + 1];
    if (next === "$") {
      out += "$";
      i = dollar + 2;
      continue;
    }
    const braced = next === "{";
    const start = dollar + (braced ? 2 : 1);
    const name = NAME.exec(template.slice(start))?.[0];
    if (name === undefined || template[start + name.length] !== ":") {
      throw new TemplateError(`at offset ${dollar}: \`$\` must start \`$$\`, \`$name:L\` or \`$name:S\` (write a literal \`$\` as \`$$\`)`);
    }
    const formatter = template[start + name.length + 1];
    let end = start + name.length + 2;
    if (braced) {
      if (template[end] !== "}") throw new TemplateError(`at offset ${dollar}: missing \`}\` after \`\${${name}:${formatter ?? ""}\``);
      end++;
    }
    if (!Object.hasOwn(values, name)) throw new TemplateError(`at offset ${dollar}: unknown test parameter \`${name}\``);
    const value = values[name]!;
    if (formatter === "L") out += value;
    else if (formatter === "S") out += quoteString(value);
    else throw new TemplateError(`at offset ${dollar}: unknown formatter \`${formatter ?? ""}\` (only L and S)`);
    i = end;
  }
  return out;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
};

/**
 * A value as the `S` formatter writes it: in double quotes, with `"`, `\`,
 * `\b`, `\t`, `\n`, `\f`, `\r` escaped, other control characters (U+0000 to
 * U+001F and U+007F to U+009F) as `\uXXXX` (lower-case hex), and every other
 * character as it is. The result is also a valid JSON string.
 */
export function quoteString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const escaped = ESCAPES[ch];
    if (escaped !== undefined) out += escaped;
    else {
      const code = ch.codePointAt(0)!;
      out += code < 0x20 || (code >= 0x7f && code <= 0x9f) ? `\\u${code.toString(16).padStart(4, "0")}` : ch;
    }
  }
  return `${out}"`;
}
