$version: "2.0"

namespace test.other

use alloy#simpleRestJson

/// A second service in the same model, on another protocol.
@simpleRestJson
service Gadgets {
    operations: [GetWidget, Then, Constructor, __proto__]
}

// Operations named like what JavaScript gives a meaning to: a client with a `then` method would be a
// thenable, a class method named `constructor` its constructor, an object key `__proto__` its prototype.
// Their methods are `_then`, `_constructor` and `___proto__`.
@http(method: "POST", uri: "/then")
operation Then {}

@http(method: "POST", uri: "/constructor")
operation Constructor {}

@http(method: "POST", uri: "/proto")
operation __proto__ {}

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
