// AWS IAM traits (namespace aws.iam), written for Anvil from the public Smithy
// AWS IAM traits documentation on smithy.io.
$version: "2.0"

namespace aws.iam

/// IAM action details of an operation.
@trait(selector: "operation")
structure iamAction {
    /// Action name, when it differs from the operation name.
    name: String

    /// What granting the action allows ("Grants permission to ...").
    documentation: String

    /// Documentation path relative to the IAM documentation.
    relativeDocumentation: String

    /// Other actions the caller must also be allowed.
    requiredActions: RequiredActionsList

    /// Resources the action is authorized against.
    resources: ActionResources

    /// Resources the action creates.
    createsResources: ResourceNameList
}

/// IAM resource details of a resource.
@trait(selector: "resource")
structure iamResource {
    /// Resource name in IAM.
    name: String

    /// Documentation path relative to the IAM documentation.
    relativeDocumentation: String

    /// Do not inherit condition keys from parent resources.
    disableConditionKeyInheritance: Boolean
}

/// Custom IAM action name of an operation.
@trait(selector: "operation")
@deprecated(since: "2023-11-10", message: "Use aws.iam#iamAction's `name` instead.")
string actionName

/// Permission description of an operation.
@trait(selector: "operation")
@deprecated(since: "2023-11-10", message: "Use aws.iam#iamAction's `documentation` instead.")
string actionPermissionDescription

/// Other actions the caller must also be allowed.
@trait(selector: "operation")
@deprecated(since: "2023-11-10", message: "Use aws.iam#iamAction's `requiredActions` instead.")
list requiredActions {
    member: IamIdentifier
}

/// Condition keys that apply to a resource or operation.
@trait(selector: ":test(resource, operation)")
list conditionKeys {
    member: IamIdentifier
}

/// Condition key whose value is taken from this member.
@trait(selector: "member")
string conditionKeyValue

/// Condition keys of the service beyond inferred and global keys.
@trait(selector: "service")
map defineConditionKeys {
    key: IamIdentifier
    value: ConditionKeyDefinition
}

/// Do not infer condition keys for the service's resources or for this resource.
@trait(selector: ":test(service, resource)")
structure disableConditionKeyInference {}

/// Condition keys resolved by the service rather than taken from the request.
@trait(selector: "service")
list serviceResolvedConditionKeys {
    member: IamIdentifier
}

/// Principal types that may use the service or operation.
@trait(selector: ":test(service, operation)")
list supportedPrincipalTypes {
    member: PrincipalType
}

/// Resources, required or optional, an action is authorized against.
@private
structure ActionResources {
    /// Always authorized against.
    required: ActionResourceMap

    /// Authorized against depending on the request.
    optional: ActionResourceMap
}

@private
map ActionResourceMap {
    key: ResourceName
    value: ActionResource
}

/// A resource an action is authorized against.
@private
structure ActionResource {
    /// Condition keys used when authorizing against this resource.
    conditionKeys: ConditionKeysList
}

/// A condition key declared by defineConditionKeys.
@private
structure ConditionKeyDefinition {
    /// Value type of the key.
    @required
    type: ConditionKeyType

    /// Documentation of the key.
    documentation: String

    /// URL of external documentation.
    externalDocumentation: String

    /// Documentation path relative to the IAM documentation.
    relativeDocumentation: String

    /// Whether the key is always present in the request context.
    required: Boolean
}

/// IAM condition key value types.
@private
enum ConditionKeyType {
    ARN
    ARRAY_OF_ARN = "ArrayOfARN"
    BINARY = "Binary"
    ARRAY_OF_BINARY = "ArrayOfBinary"
    STRING = "String"
    ARRAY_OF_STRING = "ArrayOfString"
    NUMERIC = "Numeric"
    ARRAY_OF_NUMERIC = "ArrayOfNumeric"
    DATE = "Date"
    ARRAY_OF_DATE = "ArrayOfDate"
    BOOL = "Bool"
    ARRAY_OF_BOOL = "ArrayOfBool"
    IP_ADDRESS = "IPAddress"
    ARRAY_OF_IP_ADDRESS = "ArrayOfIPAddress"
}

/// IAM principal types.
@private
enum PrincipalType {
    ROOT = "Root"
    IAM_USER = "IAMUser"
    IAM_ROLE = "IAMRole"
    FEDERATED_USER = "FederatedUser"
}

@private
@uniqueItems
list ConditionKeysList {
    member: String
}

@private
@uniqueItems
list RequiredActionsList {
    member: IamIdentifier
}

@private
@uniqueItems
list ResourceNameList {
    member: ResourceName
}

/// `service:Name` identifier of an action or condition key.
@private
@pattern("^([A-Za-z0-9][A-Za-z0-9-\\.]{0,62}:[^:]+)$")
string IamIdentifier

@private
string ResourceName
