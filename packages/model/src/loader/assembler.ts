/**
 * Assembles the drafts of many files into one resolved model: resolves
 * references, merges duplicates and metadata, applies `apply` statements,
 * flattens nothing but resolves mixins (members and traits inherited), and
 * coerces trait values. One phase a module: `definitions.ts`, `mixins.ts`,
 * `traits.ts`, `finish.ts`, over the state of `assembly-state.ts`.
 *
 * @internal
 */
import { Model } from "../model.js";
import type { ValidationEvent } from "../validation-event.js";
import { AssemblyState } from "./assembly-state.js";
import { build, checkUses, collectApply, define, mergeMetadata } from "./definitions.js";
import type { FileDraft } from "./draft.js";
import { finishShapes } from "./finish.js";
import { resolveMixins } from "./mixins.js";
import { applyTraits, checkPendingTargets } from "./traits.js";

/** Options of {@link assemble}. */
export interface AssembleOptions {
  /** Unknown traits become warnings (their values kept) instead of errors. */
  readonly allowUnknownTraits?: boolean;
}

/** The result of assembling drafts. */
export interface AssembleResult {
  readonly model: Model;
  readonly events: ValidationEvent[];
}

/**
 * Assembles file drafts into a model. The prelude draft, when given, is
 * immutable; shapes of `builtinFiles` are marked as built in.
 */
export function assemble(
  files: readonly FileDraft[],
  options: AssembleOptions = {},
  preludeFile?: FileDraft,
  builtinFiles: ReadonlySet<FileDraft> = new Set(),
): AssembleResult {
  const asm = new AssemblyState(files, options, preludeFile, builtinFiles);
  for (const file of asm.files) for (const d of file.shapes) asm.defined.add(d.id);
  for (const file of asm.files) for (const d of file.shapes) define(asm, d, file);
  for (const file of asm.files) checkUses(asm, file);
  for (const [id, { draft, file }] of asm.definitions) build(asm, id, draft, file);
  for (const file of asm.files) {
    for (const apply of file.applies) collectApply(asm, apply.target, apply.traits, file);
    for (const entry of file.metadata) mergeMetadata(asm, entry.key, asm.resolveNode(entry.value, file.context, undefined), entry.location);
  }
  resolveMixins(asm);
  checkPendingTargets(asm);
  applyTraits(asm);
  finishShapes(asm);
  const builtins = new Set<string>();
  for (const [id, def] of asm.definitions) if (asm.builtinFiles.has(def.file) && asm.shapes.has(id)) builtins.add(id);
  return { model: new Model(asm.shapes, asm.metadata, builtins), events: asm.events };
}
