/** A compiled encoder: value and nesting depth in, JSON text out; throws `Failure`. */
export type Enc = (value: unknown, depth: number) => string;
