/**
 * The schema builders generated code imports: `@anvil/core/codegen`. Changes
 * here are additive only; a breaking change gets a new subpath.
 *
 * @packageDocumentation
 */
export {
  bigDecimal,
  bigInteger,
  blob,
  boolean,
  byte,
  document,
  double,
  enumeration,
  float,
  intEnum,
  integer,
  list,
  long,
  map,
  member,
  operation,
  scalar,
  service,
  shapeName,
  short,
  string,
  struct,
  timestamp,
  union,
  unit,
} from "./schema/builders.js";
export type { Lazy, OperationInit, ServiceInit } from "./schema/builders.js";
export { errorClass } from "./errors/errors.js";
