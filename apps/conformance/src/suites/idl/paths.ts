import { join } from "node:path";

/** The IDL folders of the corpus. */
export function idlPaths(corpus: string) {
  return {
    valid: join(corpus, "idl", "valid"),
    shared: join(corpus, "idl", "valid", "__shared.json"),
    invalid: join(corpus, "idl", "invalid"),
    errorfiles: join(corpus, "idl", "errorfiles", "loader"),
  };
}
