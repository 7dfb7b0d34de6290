$version: "2"
// The AWS Price List service over `aws.protocols#awsJson1_1`: target `AWSPriceListService.<Operation>`; errors spell their member `Message`, as most AWS models do.
namespace com.amazonaws.pricing

use aws.api#service
use aws.auth#sigv4
use aws.protocols#awsJson1_1

@service(sdkId: "Pricing", endpointPrefix: "api.pricing")
@sigv4(name: "pricing")
@awsJson1_1
service AWSPriceListService {
    version: "2017-10-15"
    operations: [DescribeServices, GetAttributeValues]
    errors: [InternalErrorException]
}

@readonly
@paginated(inputToken: "NextToken", outputToken: "NextToken", pageSize: "MaxResults")
operation DescribeServices {
    input := {
        ServiceCode: String
        FormatVersion: String
        NextToken: String
        @range(min: 1, max: 100)
        MaxResults: Integer
    }
    output := {
        Services: ServiceList
        FormatVersion: String
        NextToken: String
    }
    errors: [NotFoundException, InvalidParameterException]
}

@readonly
operation GetAttributeValues {
    input := {
        @required
        ServiceCode: String
        @required
        AttributeName: String
        NextToken: String
        @range(min: 1, max: 100)
        MaxResults: Integer
    }
    output := {
        AttributeValues: AttributeValueList
        NextToken: String
    }
    errors: [NotFoundException, InvalidParameterException]
}

list ServiceList {
    member: Service
}

structure Service {
    @required
    ServiceCode: String
    AttributeNames: AttributeNameList
}

list AttributeNameList {
    member: String
}

list AttributeValueList {
    member: AttributeValue
}

structure AttributeValue {
    Value: String
}

@error("client")
@httpError(404)
structure NotFoundException {
    Message: String
}

@error("client")
@httpError(400)
structure InvalidParameterException {
    Message: String
}

@error("server")
@httpError(500)
structure InternalErrorException {
    Message: String
}
