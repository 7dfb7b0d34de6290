// AWS CloudFormation traits (namespace aws.cloudformation), written for Anvil
// from the public Smithy CloudFormation traits documentation on smithy.io.
$version: "2.0"

namespace aws.cloudformation

/// The resource is a CloudFormation resource.
@unstable
@trait(
    selector: "resource"
    breakingChanges: [{ change: "presence" }]
)
structure cfnResource {
    /// Resource name, when it differs from the resource shape name.
    name: String

    /// Structures whose members are added as properties of the resource.
    additionalSchemas: StructureIdList
}

@private
list StructureIdList {
    @idRef(failWhenMissing: true, selector: "structure")
    member: String
}

/// The member's property is an additional identifier of the resource.
@unstable
@trait(
    selector: "structure > :test(member > string)"
    conflicts: ["aws.cloudformation#cfnExcludeProperty"]
    breakingChanges: [{ change: "remove" }]
)
structure cfnAdditionalIdentifier {}

/// Property name, when it differs from the member name.
@unstable
@trait(
    selector: "structure > member"
    breakingChanges: [{ change: "any" }]
)
string cfnName

/// The member is not a property of the CloudFormation resource.
@unstable
@trait(
    selector: "structure > member"
    conflicts: [
        "aws.cloudformation#cfnAdditionalIdentifier"
        "aws.cloudformation#cfnMutability"
        "aws.cloudformation#cfnDefaultValue"
    ]
    breakingChanges: [{ change: "add" }]
)
structure cfnExcludeProperty {}

/// The property has a default value.
@unstable
@trait(
    selector: "resource > operation -[input, output]-> structure > member"
    conflicts: ["aws.cloudformation#cfnExcludeProperty"]
)
structure cfnDefaultValue {}

/// Explicit mutability of the property.
@unstable
@trait(
    selector: "structure > member"
    conflicts: ["aws.cloudformation#cfnExcludeProperty"]
)
enum cfnMutability {
    /// Settable by the user and returned by read and list.
    FULL = "full"

    /// Settable only at creation; returned by read and list.
    CREATE_AND_READ = "create-and-read"

    /// Settable only at creation; never returned.
    CREATE = "create"

    /// Returned by read and list; not settable.
    READ = "read"

    /// Settable by the user; never returned.
    WRITE = "write"
}
