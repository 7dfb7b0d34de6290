$version: "2"
// CloudWatch, which the SDK speaks over `aws.protocols#awsJson1_0` (in
// `@awsQueryCompatible` mode) by default, and over
// `smithy.protocols#rpcv2Cbor` when given that protocol: one Anvil server
// serves both.
namespace com.amazonaws.cloudwatch

use aws.api#service
use aws.auth#sigv4
use aws.protocols#awsJson1_0
use aws.protocols#awsQueryCompatible
use aws.protocols#awsQueryError
use smithy.protocols#rpcv2Cbor

@service(sdkId: "CloudWatch", endpointPrefix: "monitoring")
@sigv4(name: "monitoring")
@awsJson1_0
@rpcv2Cbor
@awsQueryCompatible
service GraniteServiceVersion20100801 {
    version: "2010-08-01"
    operations: [PutMetricData, ListMetrics, GetDashboard]
}

operation PutMetricData {
    input := {
        @required
        Namespace: Namespace
        MetricData: MetricData
    }
    output: Unit
    errors: [InvalidParameterValueException]
}

operation ListMetrics {
    input := {
        Namespace: Namespace
        @length(min: 1, max: 255)
        MetricName: String
        Dimensions: DimensionFilters
        NextToken: String
    }
    output := {
        Metrics: Metrics
        NextToken: String
    }
}

operation GetDashboard {
    input := {
        @required
        DashboardName: String
    }
    output := {
        DashboardArn: String
        DashboardBody: String
        DashboardName: String
    }
    errors: [DashboardNotFoundError]
}

@length(min: 1, max: 255)
@pattern("^[^:].*$")
string Namespace

list MetricData {
    member: MetricDatum
}

structure MetricDatum {
    @required
    MetricName: String
    Dimensions: Dimensions
    Timestamp: Timestamp
    Value: Double
    Values: Values
    Unit: StandardUnit
}

list Values {
    member: Double
}

enum StandardUnit {
    Seconds
    Bytes
    Percent
    Count
    None
}

list Dimensions {
    member: Dimension
}

structure Dimension {
    @required
    Name: String
    @required
    Value: String
}

list DimensionFilters {
    member: DimensionFilter
}

structure DimensionFilter {
    @required
    Name: String
    Value: String
}

list Metrics {
    member: Metric
}

structure Metric {
    Namespace: Namespace
    MetricName: String
    Dimensions: Dimensions
}

@error("client")
@httpError(404)
structure DashboardNotFoundError {
    message: String
}

@error("client")
@httpError(400)
@awsQueryError(code: "InvalidParameterValue", httpResponseCode: 400)
structure InvalidParameterValueException {
    message: String
}
