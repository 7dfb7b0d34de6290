import type { Model } from "../model.js";
import { isNodeObject } from "../node-value.js";
import type { Shape } from "../shape.js";
import type { ValidationEvent } from "../validation-event.js";
import { validateExampleValue } from "./node-validator.js";

const EXAMPLES = "smithy.api#examples";

/**
 * Checks every `@examples` entry of an operation against the operation's
 * shapes: `input` against its input, `output` against its output, and an
 * `error`'s `content` against the error shape it names (which the
 * operation or its service must declare). Required members may be left out
 * (fakes fill them in), and an event stream member may list its events.
 * Every problem is a WARNING:
 * examples document an API and are not part of its contract (published
 * models carry examples that break their own constraints), but a value of
 * the wrong type cannot be used, by a fake or a reader.
 */
export function validateExamples(model: Model, inScope: (shape: Shape) => boolean = () => true): ValidationEvent[] {
  const events: ValidationEvent[] = [];
  let servicesErrors: ReadonlySet<string> | undefined;
  for (const operation of model.shapesOfType("operation")) {
    if (!inScope(operation)) continue;
    const examples = operation.traits.get(EXAMPLES);
    if (!Array.isArray(examples)) continue;
    const warn = (message: string): void => {
      events.push({ severity: "WARNING", id: "ExamplesTrait", message, shapeId: operation.id, location: operation.location });
    };
    examples.forEach((example, i) => {
      if (!isNodeObject(example)) return;
      const title = typeof example.title === "string" ? JSON.stringify(example.title) : `#${i + 1}`;
      const against = (shapeId: string | undefined, value: unknown, what: string): void => {
        if (shapeId === undefined || value === undefined) return;
        for (const p of validateExampleValue(model, shapeId, value as never)) {
          warn(`Example ${title}: ${what}${p.path ? ` at ${p.path}` : ""}: ${p.message}`);
        }
      };
      against(operation.input, example.input, "input");
      against(operation.output, example.output, "output");
      const error = example.error;
      if (isNodeObject(error) && typeof error.shapeId === "string") {
        servicesErrors ??= serviceErrors(model);
        if (!operation.errors?.includes(error.shapeId) && !servicesErrors.has(error.shapeId))
          warn(`Example ${title}: error \`${error.shapeId}\` is not an error of the operation or its service`);
        else against(error.shapeId, error.content, "error content");
      }
    });
  }
  return events;
}

/** The errors any service declares for all its operations (an operation may be bound through a resource). */
function serviceErrors(model: Model): ReadonlySet<string> {
  return new Set([...model.shapesOfType("service")].flatMap((service) => service.errors ?? []));
}
