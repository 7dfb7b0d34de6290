/**
 * A `smithy.api#Document` value: untyped JSON-like data. Numbers a double
 * cannot hold exactly are `bigint`.
 */
export type Document = null | boolean | number | bigint | string | Document[] | { [key: string]: Document };
