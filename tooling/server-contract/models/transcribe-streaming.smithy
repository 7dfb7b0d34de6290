$version: "2"
// Amazon Transcribe Streaming in its shape (restJson1 over HTTP/2): one
// operation whose input is an event stream of audio (bidirectional: the
// transcript streams back while audio still streams in). The SDK signs
// every audio event (SigV4 event signing).
namespace com.amazonaws.transcribestreaming

use aws.api#service
use aws.auth#sigv4
use aws.protocols#restJson1

@service(sdkId: "Transcribe Streaming", endpointPrefix: "transcribestreaming")
@sigv4(name: "transcribe")
@restJson1
service Transcribe {
    version: "2017-10-26"
    operations: [StartStreamTranscription]
}

@http(method: "POST", uri: "/stream-transcription", code: 200)
operation StartStreamTranscription {
    input := {
        @required
        @httpHeader("x-amzn-transcribe-sample-rate")
        @range(min: 8000, max: 48000)
        MediaSampleRateHertz: Integer
        @required
        @httpHeader("x-amzn-transcribe-media-encoding")
        MediaEncoding: MediaEncoding
        @required
        @httpPayload
        AudioStream: AudioStream
        @httpHeader("x-amzn-transcribe-language-code")
        LanguageCode: LanguageCode
        @httpHeader("x-amzn-transcribe-session-id")
        @pattern("[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}")
        SessionId: String
        @httpHeader("x-amzn-transcribe-enable-partial-results-stabilization")
        EnablePartialResultsStabilization: Boolean
    }
    output := {
        @httpHeader("x-amzn-request-id")
        RequestId: String
        @httpHeader("x-amzn-transcribe-language-code")
        LanguageCode: LanguageCode
        @httpHeader("x-amzn-transcribe-sample-rate")
        MediaSampleRateHertz: Integer
        @httpHeader("x-amzn-transcribe-media-encoding")
        MediaEncoding: MediaEncoding
        @httpHeader("x-amzn-transcribe-session-id")
        SessionId: String
        @httpPayload
        TranscriptResultStream: TranscriptResultStream
    }
    errors: [BadRequestException, LimitExceededException, InternalFailureException, ConflictException, ServiceUnavailableException]
}

enum MediaEncoding {
    PCM = "pcm"
    OGG_OPUS = "ogg-opus"
    FLAC = "flac"
}

enum LanguageCode {
    EN_US = "en-US"
    EN_GB = "en-GB"
    DE_DE = "de-DE"
}

@streaming
union AudioStream {
    AudioEvent: AudioEvent
    ConfigurationEvent: ConfigurationEvent
}

structure AudioEvent {
    @eventPayload
    AudioChunk: Blob
}

structure ConfigurationEvent {
    ChannelDefinitions: ChannelDefinitions
}

@length(min: 2, max: 2)
list ChannelDefinitions {
    member: ChannelDefinition
}

structure ChannelDefinition {
    @required
    @range(min: 0, max: 1)
    ChannelId: Integer
    @required
    ParticipantRole: String
}

@streaming
union TranscriptResultStream {
    TranscriptEvent: TranscriptEvent
    BadRequestException: BadRequestException
    LimitExceededException: LimitExceededException
    InternalFailureException: InternalFailureException
    ConflictException: ConflictException
    ServiceUnavailableException: ServiceUnavailableException
}

structure TranscriptEvent {
    Transcript: Transcript
}

structure Transcript {
    Results: ResultList
}

list ResultList {
    member: Result
}

structure Result {
    ResultId: String
    StartTime: Double = 0
    EndTime: Double = 0
    IsPartial: Boolean = false
    Alternatives: AlternativeList
    ChannelId: String
}

list AlternativeList {
    member: Alternative
}

structure Alternative {
    Transcript: String
}

@error("client")
@httpError(400)
structure BadRequestException {
    Message: String
}

@error("client")
@httpError(429)
structure LimitExceededException {
    Message: String
}

@error("server")
@httpError(500)
structure InternalFailureException {
    Message: String
}

@error("client")
@httpError(409)
structure ConflictException {
    Message: String
}

@error("server")
@httpError(503)
structure ServiceUnavailableException {
    Message: String
}
