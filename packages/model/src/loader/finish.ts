/**
 * The last touches of assembly: enum members' values and targets, elided
 * members nobody resolved, and the IDL 1.0 upgrade of unboxed members.
 *
 * @internal
 */
import { stringifyNode } from "../node-value.js";
import type { Shape } from "../shape.js";
import { type AssemblyState, BOX, DEFAULT, ENUM_VALUE, NUMERIC } from "./assembly-state.js";

/** Final touches: the IDL 1.0 upgrade, enum members' values and targets, and elided members no one resolved. */
export function finishShapes(asm: AssemblyState): void {
  upgradeV1(asm);
  for (const shape of asm.shapes.values()) {
    if (shape.type === "enum") {
      for (const m of shape.members.values()) {
        m.target ||= "smithy.api#Unit";
        if (!m.traits.has(ENUM_VALUE)) m.traits.set(ENUM_VALUE, m.name);
      }
    }
    if (shape.type === "intEnum") for (const m of shape.members.values()) m.target ||= "smithy.api#Unit";
    if (shape.type === "enum" || shape.type === "intEnum") checkEnum(asm, shape);
    for (const m of shape.members.values()) {
      if (m.target) continue;
      asm.emit("ERROR", "Model", "Member target was elided, but no bound resource or mixin contained a matching identifier or member name.", m.id, m.location);
      shape.members.delete(m.name);
    }
  }
}

function checkEnum(asm: AssemblyState, shape: Shape): void {
  if (shape.members.size === 0) {
    asm.emit(
      "ERROR",
      "Model",
      shape.type === "enum" ? "enum must have at least one entry" : "intEnum shapes must have at least one member",
      shape.id,
      shape.location,
    );
  }
  for (const m of shape.members.values()) {
    const value = m.traits.get(ENUM_VALUE);
    if (shape.type === "enum") {
      if (typeof value !== "string") {
        asm.emit("ERROR", "EnumShape", `enum members can only be assigned string values, but found: ${stringifyNode(value)}`, m.id, m.location);
      }
    } else if (value === undefined) {
      asm.emit("ERROR", "EnumShape", "intEnum members must have the @enumValue trait with an integer value", m.id, m.location);
    } else if (typeof value === "bigint") {
      asm.emit("ERROR", "EnumShape", `intEnum members must fit within an integer, but found: ${value}`, m.id, m.location);
    } else if (typeof value !== "number") {
      asm.emit("ERROR", "EnumShape", `intEnum members require integer values, but found: ${stringifyNode(value)}`, m.id, m.location);
    } else if (!Number.isInteger(value)) {
      asm.emit("ERROR", "EnumShape", "intEnum members do not support floating point values", m.id, m.location);
    } else if (value < -2147483648 || value > 2147483647) {
      asm.emit("ERROR", "EnumShape", `intEnum members must fit within an integer, but found: ${value}`, m.id, m.location);
    }
  }
}

/**
 * Smithy 1.0 made members that target unboxed numbers and booleans non-null
 * with a zero value. Smithy 2.0 says the same with `@default`, so 1.0
 * structures are upgraded the way Smithy's own loader upgrades them.
 */
function upgradeV1(asm: AssemblyState): void {
  for (const id of asm.v1Shapes) {
    const shape = asm.shapes.get(id);
    if (!shape || shape.type !== "structure") continue;
    for (const m of shape.members.values()) {
      if (m.traits.has(DEFAULT) || m.traits.has(BOX)) continue;
      const target = asm.shapes.get(m.target);
      if (!target || target.traits.has(BOX)) continue;
      const zero = target.type === "boolean" ? false : NUMERIC.has(target.type) ? 0 : undefined;
      if (zero === undefined) continue;
      const primitive = m.target.startsWith("smithy.api#Primitive");
      if (primitive || (asm.v1Shapes.has(target.id) && !target.id.startsWith("smithy.api#"))) m.traits.set(DEFAULT, zero);
    }
  }
}
