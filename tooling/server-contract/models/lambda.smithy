$version: "2"
// Lambda over `aws.protocols#restJson1`: two read operations under `/2015-03-31/functions`.
namespace com.amazonaws.lambda

use aws.api#service
use aws.auth#sigv4
use aws.protocols#restJson1

@service(sdkId: "Lambda", endpointPrefix: "lambda")
@sigv4(name: "lambda")
@restJson1
service AWSGirApiService {
    version: "2015-03-31"
    operations: [ListFunctions, GetFunction]
}

@readonly
@http(method: "GET", uri: "/2015-03-31/functions", code: 200)
operation ListFunctions {
    input := {
        @httpQuery("MasterRegion")
        MasterRegion: String
        @httpQuery("FunctionVersion")
        FunctionVersion: String
        @httpQuery("Marker")
        Marker: String
        @httpQuery("MaxItems")
        @range(min: 1, max: 10000)
        MaxItems: Integer
    }
    output := {
        NextMarker: String
        Functions: FunctionList
    }
}

@readonly
@http(method: "GET", uri: "/2015-03-31/functions/{FunctionName}", code: 200)
operation GetFunction {
    input := {
        @required
        @httpLabel
        @length(min: 1, max: 170)
        FunctionName: String
        @httpQuery("Qualifier")
        Qualifier: String
    }
    output := {
        Configuration: FunctionConfiguration
        Code: FunctionCodeLocation
        Tags: Tags
    }
    errors: [ResourceNotFoundException]
}

list FunctionList {
    member: FunctionConfiguration
}

structure FunctionConfiguration {
    FunctionName: String
    FunctionArn: String
    Runtime: Runtime
    Handler: String
    CodeSize: Long
    Timeout: Integer
    MemorySize: Integer
    Version: String
    Architectures: ArchitecturesList
}

enum Runtime {
    NODEJS20 = "nodejs20.x"
    PYTHON312 = "python3.12"
}

list ArchitecturesList {
    member: Architecture
}

enum Architecture {
    X86_64 = "x86_64"
    ARM64 = "arm64"
}

structure FunctionCodeLocation {
    RepositoryType: String
    Location: String
}

map Tags {
    key: String
    value: String
}

@error("client")
@httpError(404)
structure ResourceNotFoundException {
    Type: String
    Message: String
}
