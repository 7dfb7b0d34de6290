// AWS SDK customization traits (namespace aws.customizations), written for Anvil
// from the public Smithy AWS customization documentation on smithy.io.
$version: "2.0"

namespace aws.customizations

/// The S3 operation's XML output is not wrapped in an operation-named element.
@trait(selector: "operation")
structure s3UnwrappedXmlOutput {}
