/**
 * Value kinds the message loops read with a direct `ProtoReader` call (which
 * V8 inlines) instead of through a value type's `read` closure (a
 * megamorphic call): the common scalars and timestamps.
 */
export const Fast = { none: 0, string: 1, int32: 2, double: 3, float: 4, bool: 5, int64: 6, bytes: 7, timestamp: 8 } as const;
