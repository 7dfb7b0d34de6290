/** TSDoc for generated declarations, from the model's documentation traits. */
import type { MemberShape, Shape } from "@anvil/model";
import { isNodeObject } from "@anvil/model";
import { docComment } from "./code.js";

/**
 * The TSDoc of a shape or member: `@documentation`, then `@see` links of
 * `@externalDocumentation` and `@deprecated`. `fallback` is used when the
 * model documents nothing, so that every generated symbol says what it is.
 */
export function docsOf(shape: Shape | MemberShape | undefined, indent = "", fallback?: string, extra: readonly string[] = []): string {
  const lines: (string | undefined)[] = [];
  const doc = shape?.traits.get("smithy.api#documentation");
  lines.push(typeof doc === "string" ? doc : fallback);
  lines.push(...extra);
  return docComment([...lines, tagsOf(shape)], indent);
}

/**
 * The TSDoc of a shape's declaration: its documentation, `extra`, and its
 * tags; an undocumented shape says where it comes from instead
 * (`@generated from shape: ns#Name`).
 */
export function shapeDocs(shape: Shape, extra: readonly string[] = []): string {
  const doc = shape.traits.get("smithy.api#documentation");
  const origin = typeof doc === "string" ? undefined : `@generated from shape: ${shape.id}`;
  return docComment([typeof doc === "string" ? doc : undefined, ...extra, [origin, tagsOf(shape)].filter(Boolean).join("\n")]);
}

/** The `@see` and `@deprecated` tags of a shape or member. */
function tagsOf(shape: Shape | MemberShape | undefined): string | undefined {
  const tags: string[] = [];
  const external = shape?.traits.get("smithy.api#externalDocumentation");
  if (isNodeObject(external)) {
    for (const [name, url] of Object.entries(external)) if (typeof url === "string") tags.push(`@see {@link ${url} | ${name}}`);
  }
  const deprecated = shape?.traits.get("smithy.api#deprecated");
  if (deprecated !== undefined) {
    const d = isNodeObject(deprecated) ? deprecated : {};
    const parts = [typeof d.message === "string" ? d.message : "", typeof d.since === "string" ? `(since ${d.since})` : ""].filter(Boolean);
    tags.push(`@deprecated${parts.length ? ` ${parts.join(" ")}` : ""}`);
  }
  return tags.length ? tags.join("\n") : undefined;
}
