// OpenAPI-related traits of alloy (namespace alloy.openapi), written for Anvil
// from the public alloy documentation.
$version: "2.0"

namespace alloy.openapi

/// Extra `x-` properties written into the generated OpenAPI document.
@trait
@sparse
map openapiExtensions {
    key: String
    value: Document
}

/// Short summary of an operation in the generated OpenAPI document.
@trait(selector: "operation")
@length(min: 1)
string summary
