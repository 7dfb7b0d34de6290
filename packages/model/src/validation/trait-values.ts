import type { Model } from "../model.js";
import type { Shape } from "../shape.js";
import type { ValidationEvent } from "../validation-event.js";
import { validateNodeValue } from "./node-validator.js";

/** Checks every applied trait's value against its trait definition shape. */
export function validateTraitValues(model: Model, inScope: (shape: Shape) => boolean = () => true): ValidationEvent[] {
  const events: ValidationEvent[] = [];
  for (const shape of model.allShapes(inScope)) {
    for (const [traitId, value] of shape.traits) {
      if (!model.getTraitDefinition(traitId)) continue; // unknown traits were reported at load time
      for (const p of validateNodeValue(model, traitId, value)) {
        events.push({
          severity: p.severity,
          id: "TraitValue",
          message: `Error validating trait \`${traitId}\`${p.path ? `.${p.path}` : ""}: ${p.message}`,
          shapeId: shape.id,
          location: shape.location,
        });
      }
    }
  }
  return events;
}
