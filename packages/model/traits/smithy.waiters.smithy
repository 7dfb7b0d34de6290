// Waiter traits (namespace smithy.waiters), written for Anvil from the public
// Smithy waiters specification on smithy.io.
$version: "2.0"

namespace smithy.waiters

/// Named waiters that poll the operation until a resource reaches a state.
@trait(selector: "operation :not(-[input, output]-> structure > member > union[trait|streaming])")
@length(min: 1)
map waitable {
    key: WaiterName
    value: Waiter
}

@pattern("^[A-Z]+[A-Za-z0-9]*$")
string WaiterName

/// One waiter.
@private
structure Waiter {
    /// Documentation of the waiter.
    documentation: String

    /// Acceptors, checked in order after each call.
    @required
    acceptors: Acceptors

    /// Minimum delay between attempts, in seconds.
    minDelay: WaiterDelay = 2

    /// Maximum delay between attempts, in seconds.
    maxDelay: WaiterDelay = 120

    /// Whether the waiter is deprecated.
    deprecated: Boolean

    /// Tags used to group waiters.
    tags: NonEmptyStringList
}

@range(min: 1)
integer WaiterDelay

@private
@length(min: 1)
list Acceptors {
    member: Acceptor
}

/// A state transition taken when the matcher matches.
@private
structure Acceptor {
    /// State to transition to.
    @required
    state: AcceptorState

    /// Condition that triggers the transition.
    @required
    matcher: Matcher

    /// JMESPath expression over the output giving a human-readable message
    /// (a string or a list of strings); only for a `failure` state.
    message: String
}

@private
enum AcceptorState {
    SUCCESS = "success"
    FAILURE = "failure"
    RETRY = "retry"
}

/// What an acceptor checks.
@private
union Matcher {
    /// JMESPath check on the output.
    output: PathMatcher

    /// JMESPath check on `{input, output}`.
    inputOutput: PathMatcher

    /// The call fails with this error (shape id or name).
    errorType: String

    /// The call succeeds (true) or fails with any error (false).
    success: Boolean
}

/// A JMESPath expression compared with an expected value.
@private
structure PathMatcher {
    /// JMESPath expression.
    @required
    path: String

    /// Expected value.
    @required
    expected: String

    /// How result and expected value are compared.
    @required
    comparator: PathComparator
}

@private
enum PathComparator {
    STRING_EQUALS = "stringEquals"
    BOOLEAN_EQUALS = "booleanEquals"
    ALL_STRING_EQUALS = "allStringEquals"
    ANY_STRING_EQUALS = "anyStringEquals"
}

@private
list NonEmptyStringList {
    member: NonEmptyString
}

@private
@length(min: 1)
string NonEmptyString
