// AWS authentication traits (namespace aws.auth), written for Anvil from the
// public Smithy AWS auth specification on smithy.io.
$version: "2.0"

namespace aws.auth

/// AWS Signature Version 4.
@trait(
    selector: "service"
    breakingChanges: [
        {
            change: "remove"
            message: "Dropping an auth scheme breaks clients that authenticate with it."
        }
    ]
)
@authDefinition(traits: ["aws.auth#unsignedPayload"])
@externalDocumentation(Reference: "https://docs.aws.amazon.com/general/latest/gr/signature-version-4.html")
structure sigv4 {
    /// Signing name of the service.
    @required
    @length(min: 1)
    @externalDocumentation(Reference: "https://docs.aws.amazon.com/general/latest/gr/sigv4-create-string-to-sign.html")
    name: String
}

/// AWS Signature Version 4a (multi-region, asymmetric).
@trait(
    selector: "service[trait|aws.auth#sigv4]"
    breakingChanges: [
        {
            change: "remove"
            message: "Dropping an auth scheme breaks clients that authenticate with it."
        }
    ]
)
@authDefinition(traits: ["aws.auth#unsignedPayload"])
@externalDocumentation(
    Reference: "https://docs.aws.amazon.com/general/latest/gr/signature-version-4.html"
    Examples: "https://github.com/aws-samples/sigv4a-signing-examples"
)
structure sigv4a {
    /// Signing name of the service.
    @required
    @length(min: 1)
    @externalDocumentation(Reference: "https://docs.aws.amazon.com/general/latest/gr/sigv4-create-string-to-sign.html")
    name: String
}

/// The request payload is not part of the signature.
@trait(selector: "operation")
structure unsignedPayload {}

/// Amazon Cognito user pool authentication.
@trait(selector: "service")
@authDefinition
@internal
@tags(["internal"])
structure cognitoUserPools {
    /// ARNs of the user pools.
    @required
    providerArns: StringList
}

/// OAuth scopes required by an operation of a cognitoUserPools service.
@trait(selector: "service[trait|aws.auth#cognitoUserPools] ~> operation")
@internal
@tags(["internal"])
@length(min: 1)
list cognitoUserPoolsScopes {
    member: String
}

@private
list StringList {
    member: String
}
