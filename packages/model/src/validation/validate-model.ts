import type { Model } from "../model.js";
import type { Shape } from "../shape.js";
import type { ValidationEvent } from "../validation-event.js";
import { validateAnvilRules } from "./anvil-rules.js";
import { validateDefaults } from "./default-values.js";
import { validateExamples } from "./examples.js";
import { runMetadataValidators } from "./metadata-validators.js";
import { applySuppressions } from "./suppressions.js";
import { validateTargets } from "./targets.js";
import { validateTraitTargets } from "./trait-targets.js";
import { validateTraitValues } from "./trait-values.js";

/** Options of {@link validateModel}. */
export interface ValidateOptions {
  /**
   * Also validate the prelude and bundled trait shapes. Off by default: they
   * are checked once by Anvil's own tests, and skipping them keeps loading fast.
   */
  readonly includeBuiltins?: boolean;
}

/**
 * Runs every validator over an assembled model and returns the complete event
 * list (the loader's events first), with suppressions applied.
 */
export function validateModel(model: Model, loadEvents: readonly ValidationEvent[] = [], options: ValidateOptions = {}): ValidationEvent[] {
  const scope = options.includeBuiltins ? () => true : (shape: Shape) => !model.builtins.has(shape.id);
  const events = [
    ...loadEvents,
    ...validateTargets(model, scope),
    ...validateTraitValues(model, scope),
    ...validateDefaults(model, scope),
    ...validateExamples(model, scope),
    ...validateTraitTargets(model, scope),
    ...validateAnvilRules(model),
    ...runMetadataValidators(model),
  ];
  return applySuppressions(model, events);
}
