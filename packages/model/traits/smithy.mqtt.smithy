// MQTT binding traits (namespace smithy.mqtt), written for Anvil from the
// public Smithy MQTT protocol binding documentation on smithy.io.
$version: "2.0"

namespace smithy.mqtt

/// MQTT protocol with JSON payloads.
@trait(selector: "service")
@protocolDefinition
structure mqttJson {}

/// The operation publishes its input to the topic (no `#` or `+` wildcards).
@trait(
    selector: "operation :not(-[output]-> * > member)"
    conflicts: ["smithy.mqtt#subscribe"]
    breakingChanges: [{ change: "any" }]
)
@traitValidators(
    "MqttPublishInput.NoEventStreams": {
        selector: "-[input]-> structure > member :test(> union [trait|streaming])"
        message: "Input of a smithy.mqtt#publish operation may not contain an event stream"
    }
    MqttUnsupportedErrors: {
        selector: ":test(-[error]->)"
        message: "smithy.mqtt#publish operations cannot have errors"
        severity: "DANGER"
    }
)
@pattern("^[^#+]+$")
string publish

/// The operation subscribes to the topic and streams its events as output.
@trait(
    selector: "operation :test(-[output]->)"
    conflicts: ["smithy.mqtt#publish"]
    breakingChanges: [{ change: "any" }]
)
@traitValidators(
    "MqttSubscribeInput.MissingTopicLabel": {
        selector: "-[input]-> structure > member :not([trait|smithy.mqtt#topicLabel])"
        message: "Every input member of a smithy.mqtt#subscribe operation needs @smithy.mqtt#topicLabel"
    }
    MqttUnsupportedErrors: {
        selector: ":test(-[error]->)"
        message: "smithy.mqtt#subscribe operations cannot have errors"
        severity: "DANGER"
    }
    "MqttSubscribeOutput.MissingEventStream": {
        selector: ":test(-[output]-> :not(> member > union [trait|streaming]))"
        message: "A subscribe operation needs an event stream in its output"
    }
    "MqttSubscribeOutput.EventHeaderNotSupported": {
        selector: "-[output]-> structure > member > union [trait|streaming] > member > structure > member [trait|eventHeader]"
        message: "Subscribe operations do not support @eventHeader"
        severity: "DANGER"
    }
    "MqttSubscribeOutput.NoInitialEvents": {
        selector: ":test(-[output]-> structure > member :not(> union [trait|streaming]))"
        message: "Output of a smithy.mqtt#subscribe operation may only hold the event stream"
    }
)
@pattern("^[^#+]+$")
string subscribe

/// Binds the member to a label of the topic.
@trait(selector: "member[trait|required] :test(> :test(string, byte, short, integer, long, boolean, timestamp))")
structure topicLabel {}
