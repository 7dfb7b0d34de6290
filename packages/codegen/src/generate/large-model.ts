/**
 * A deterministic synthetic Smithy model of a given size, for the
 * generator's speed guard and `pnpm bench`: one service whose operations
 * each bring structures, a union, an enum, lists, maps, documentation and
 * traits, as real models do.
 *
 * @internal
 */
export function syntheticModel(targetBytes: number): string {
  const parts = [`$version: "2.0"\n\nnamespace bench.codegen\n\nuse aws.protocols#restJson1\n`];
  let size = parts[0]!.length;
  const ops: string[] = [];
  for (let i = 0; size < targetBytes; i++) {
    const chunk = `
/// Reads widget ${i} and its gadgets.
/// Documentation spans lines, as in real models.
@readonly
@http(method: "GET", uri: "/widgets/{id}/op${i}")
operation Op${i} {
    input := {
        @required
        @httpLabel
        @length(min: 1, max: 64)
        id: String

        @httpQuery("limit")
        @range(min: 1, max: 100)
        limit: Integer = 10

        @httpHeader("X-Trace-${i}")
        trace: String
    }
    output := {
        @required
        widget: Widget${i}
        tags: TagList
    }
    errors: [NotFound]
}

/// Widget number ${i}.
structure Widget${i} {
    @required
    name: String

    @jsonName("created_at")
    @timestampFormat("date-time")
    createdAt: Timestamp

    size: WidgetSize
    attributes: AttributeMap
    price: BigDecimal
    enabled: Boolean = true
    part: Part${i}
    parts: PartList${i}
}

/// One of the parts of widget ${i}.
union Part${i} {
    bolt: Integer
    label: String
    child: Widget${i}
}

list PartList${i} {
    member: Part${i}
}
`;
    parts.push(chunk);
    size += chunk.length;
    ops.push(`Op${i}`);
  }
  parts.push(`
@restJson1
service Large {
    version: "2024-01-01"
    operations: [${ops.join(", ")}]
}

@error("client")
@httpError(404)
structure NotFound {
    @required
    message: String
}

enum WidgetSize {
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
}

map AttributeMap {
    key: String
    value: String
}

list TagList {
    member: String
}
`);
  return parts.join("");
}
