$version: "2"
// DynamoDB over `aws.protocols#awsJson1_0`: target `DynamoDB_20120810.<Operation>`.
namespace com.amazonaws.dynamodb

use aws.api#service
use aws.auth#sigv4
use aws.protocols#awsJson1_0

@service(sdkId: "DynamoDB", endpointPrefix: "dynamodb")
@sigv4(name: "dynamodb")
@awsJson1_0
service DynamoDB_20120810 {
    version: "2012-08-10"
    operations: [DescribeTable, GetItem, PutItem, ListTables]
    errors: [InternalServerError]
}

operation DescribeTable {
    input := {
        @required
        TableName: TableName
    }
    output := {
        Table: TableDescription
    }
    errors: [ResourceNotFoundException]
}

operation GetItem {
    input := {
        @required
        TableName: TableName
        @required
        Key: AttributeMap
        ConsistentRead: Boolean
    }
    output := {
        Item: AttributeMap
    }
    errors: [ResourceNotFoundException]
}

operation PutItem {
    input := {
        @required
        TableName: TableName
        @required
        Item: AttributeMap
    }
    output := {
        Attributes: AttributeMap
    }
    errors: [ResourceNotFoundException]
}

operation ListTables {
    input := {
        ExclusiveStartTableName: TableName
        @range(min: 1, max: 100)
        Limit: Integer
    }
    output := {
        TableNames: TableNameList
        LastEvaluatedTableName: TableName
    }
}

@length(min: 3, max: 255)
@pattern("^[a-zA-Z0-9_.-]+$")
string TableName

list TableNameList {
    member: TableName
}

structure TableDescription {
    TableName: TableName
    TableStatus: TableStatus
    CreationDateTime: Timestamp
    ItemCount: Long
    KeySchema: KeySchema
}

enum TableStatus {
    CREATING
    UPDATING
    DELETING
    ACTIVE
}

list KeySchema {
    member: KeySchemaElement
}

structure KeySchemaElement {
    @required
    AttributeName: String
    @required
    KeyType: KeyType
}

enum KeyType {
    HASH
    RANGE
}

map AttributeMap {
    key: String
    value: AttributeValue
}

union AttributeValue {
    S: String
    N: String
    B: Blob
    SS: StringList
    NS: StringList
    BS: BlobList
    M: AttributeMap
    L: AttributeValueList
    NULL: Boolean
    BOOL: Boolean
}

list StringList {
    member: String
}

list BlobList {
    member: Blob
}

list AttributeValueList {
    member: AttributeValue
}

@error("client")
structure ResourceNotFoundException {
    message: String
}

@error("server")
structure InternalServerError {
    message: String
}
