/**
 * The server's check of the percent-escapes in a request's `@httpLabel`
 * path segments. The router decodes labels and keeps those that do not
 * decode as written, so the protocol looks at the path as sent.
 *
 * @internal
 */
import { type OperationSchema, SerializationError } from "@anvil/core";
import { percentEncodingProblem } from "@anvil/core/protocol";
import { type HttpBindingSettings, parseUri } from "./bindings.js";

/** Throws a SerializationError when a label of the path is not valid percent-encoding. */
export type LabelEscapeCheck = (path: string) => void;

/**
 * The check of an operation's labels (undefined when its `@http` URI has
 * none): the first label of the path, as the router aligned it with the
 * URI (a greedy label spanning the segments the others leave), whose text
 * has a `%` that is no escape or escapes that are not UTF-8 is a
 * SerializationError naming the label and the text. Paths without `%` are
 * not looked at.
 */
export function labelEscapeCheckOf(settings: HttpBindingSettings, operation: OperationSchema): LabelEscapeCheck | undefined {
  const http = operation.traits.http;
  if (http === undefined) return undefined;
  const segments = parseUri(http.uri).segments;
  if (!segments.some((s) => s.kind === "label")) return undefined;
  const greedy = segments.findIndex((s) => s.kind === "label" && s.greedy);
  return (path) => {
    if (!path.includes("%")) return;
    const parts = path.split("/").slice(1);
    const tail = parts.length - segments.length;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      if (segment.kind !== "label") continue;
      const text = segment.greedy ? parts.slice(i, i + tail + 1).join("/") : parts[greedy >= 0 && i > greedy ? i + tail : i];
      const problem = text === undefined ? undefined : percentEncodingProblem(text);
      if (problem !== undefined) throw new SerializationError(`decode ${settings.name}: label "${segment.name}": ${problem}`, { path: `/${segment.name}` });
    }
  };
}
