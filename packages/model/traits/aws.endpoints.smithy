// AWS endpoint modifier traits (namespace aws.endpoints), written for Anvil from
// the public Smithy AWS endpoints documentation on smithy.io.
$version: "2.0"

namespace aws.endpoints

/// Marks a trait as an endpoints modifier.
@trait(
    selector: "structure[trait|trait]"
    breakingChanges: [{ change: "presence" }]
)
structure endpointsModifier {}

/// Endpoints follow the standard regional patterns, with special cases.
@trait(
    selector: "service"
    conflicts: ["aws.endpoints#standardPartitionalEndpoints"]
    breakingChanges: [{ change: "remove" }]
)
@endpointsModifier
@unstable
structure standardRegionalEndpoints {
    /// Special cases by partition.
    partitionSpecialCases: PartitionSpecialCaseMap

    /// Special cases by region.
    regionSpecialCases: RegionSpecialCaseMap
}

@private
map PartitionSpecialCaseMap {
    key: String
    value: PartitionSpecialCaseList
}

@private
list PartitionSpecialCaseList {
    member: PartitionSpecialCase
}

/// Endpoint pattern used for every region of a partition.
@private
structure PartitionSpecialCase {
    /// Endpoint pattern.
    @required
    endpoint: String

    /// Applies to dual-stack variants.
    dualStack: Boolean

    /// Applies to FIPS variants.
    fips: Boolean
}

@private
map RegionSpecialCaseMap {
    key: String
    value: RegionSpecialCaseList
}

@private
list RegionSpecialCaseList {
    member: RegionSpecialCase
}

/// Endpoint pattern used for one region.
@private
structure RegionSpecialCase {
    /// Endpoint pattern.
    @required
    endpoint: String

    /// Applies to dual-stack variants.
    dualStack: Boolean

    /// Applies to FIPS variants.
    fips: Boolean

    /// Signing region override.
    signingRegion: String
}

/// The service is not regionalized: one endpoint per partition.
@trait(
    selector: "service"
    conflicts: ["aws.endpoints#standardRegionalEndpoints"]
    breakingChanges: [{ change: "any" }]
)
@endpointsModifier
@unstable
structure standardPartitionalEndpoints {
    /// Pattern of the partition endpoint.
    @required
    endpointPatternType: PartitionEndpointPattern

    /// Special cases by partition.
    partitionEndpointSpecialCases: PartitionEndpointSpecialCaseMap
}

@private
enum PartitionEndpointPattern {
    SERVICE_DNSSUFFIX = "service_dnsSuffix"
    SERVICE_REGION_DNSSUFFIX = "service_region_dnsSuffix"
}

@private
map PartitionEndpointSpecialCaseMap {
    key: String
    value: PartitionEndpointSpecialCaseList
}

@private
list PartitionEndpointSpecialCaseList {
    member: PartitionEndpointSpecialCase
}

/// Endpoint or region override of a partition endpoint.
@private
structure PartitionEndpointSpecialCase {
    /// Endpoint pattern.
    endpoint: String

    /// Region used instead of the partition's default global region.
    region: String

    /// Applies to dual-stack variants.
    dualStack: Boolean

    /// Applies to FIPS variants.
    fips: Boolean
}

/// The service only has dual-stack endpoints.
@trait(
    selector: "service"
    breakingChanges: [{ change: "any" }]
)
@endpointsModifier
@unstable
structure dualStackOnlyEndpoints {}

/// The service's endpoint rules are written by hand.
@trait(
    selector: "service"
    breakingChanges: [{ change: "any" }]
)
@endpointsModifier
@unstable
structure rulesBasedEndpoints {}
