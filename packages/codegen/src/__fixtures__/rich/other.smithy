$version: "2.0"

namespace test.other

use alloy#simpleRestJson

/// A second service in the same model, on another protocol.
@simpleRestJson
service Gadgets {
    operations: [GetWidget]
}

@readonly
@http(method: "GET", uri: "/widgets/{id}")
operation GetWidget {
    input := {
        @required
        @httpLabel
        id: String
    }
    output: Widget
}

/// A widget from another namespace.
@output
structure Widget {
    id: String
}
