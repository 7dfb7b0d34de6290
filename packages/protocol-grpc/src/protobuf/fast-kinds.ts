/**
 * Value kinds the message loops read with a direct `ProtoReader` call (which
 * V8 inlines) instead of through a value type's `read` closure (a
 * megamorphic call): the common scalars and timestamps. A const enum, so the
 * bundler inlines the numbers (a module-level object costs a context load and
 * a map check at each use in the hot loops).
 */
export const enum Fast {
  none = 0,
  string = 1,
  int32 = 2,
  double = 3,
  float = 4,
  bool = 5,
  int64 = 6,
  bytes = 7,
  timestamp = 8,
}
