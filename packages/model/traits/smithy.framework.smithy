// Smithy's standard validation error (namespace smithy.framework), written for
// Anvil from the public Smithy server validation documentation on smithy.io.
$version: "2.0"

namespace smithy.framework

/// Returned by a server when the input violates the model's constraints.
@error("client")
structure ValidationException {
    /// Summary of the violations.
    @required
    message: String

    /// One entry per violated constraint.
    fieldList: ValidationExceptionFieldList
}

/// A single constraint violation.
structure ValidationExceptionField {
    /// JSON pointer to the offending input value.
    @required
    path: String

    /// What is wrong with the value.
    @required
    message: String
}

list ValidationExceptionFieldList {
    member: ValidationExceptionField
}
