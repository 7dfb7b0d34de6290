$version: "2.0"

// Paginators and waiters of every kind the specifications define, for
// src/paginators-waiters.test.ts: nested token and item paths, service
// defaults, page sizes, a map token, map items, and waiters using every
// matcher and comparator over structures, lists, unions and timestamps.
namespace example.paging

use aws.protocols#awsJson1_0
use aws.protocols#restJson1
use smithy.protocols#rpcv2Cbor
use smithy.waiters#waitable

@restJson1
@awsJson1_0
@rpcv2Cbor
@paginated(inputToken: "nextToken", outputToken: "nextToken")
service Jobs {
    version: "2024-01-01"
    operations: [ListJobs, ListLabels, ScanJobs, GetJob]
}

/// Jobs, a page at a time: the token and the items sit in a nested `page`.
@readonly
@http(method: "GET", uri: "/jobs")
@paginated(inputToken: "cursor", outputToken: "page.next", items: "page.jobs", pageSize: "limit")
operation ListJobs {
    input := {
        @httpQuery("cursor")
        cursor: String

        @httpQuery("limit")
        @range(min: 1, max: 50)
        limit: Integer

        /// `loop` makes the server answer the same token forever.
        @httpQuery("mode")
        mode: String
    }

    output := {
        @required
        page: JobPage
    }
}

structure JobPage {
    next: String

    @required
    jobs: JobSummaries
}

list JobSummaries {
    member: JobSummary
}

structure JobSummary {
    @required
    id: String
}

/// Labels as a map, with the service's tokens.
@readonly
@http(method: "GET", uri: "/labels")
@paginated(items: "labels", pageSize: "maxResults")
operation ListLabels {
    input := {
        @httpQuery("nextToken")
        nextToken: String

        @httpQuery("maxResults")
        maxResults: Integer
    }

    output := {
        nextToken: String
        labels: LabelMap
    }
}

map LabelMap {
    key: String
    value: Integer
}

/// A map token, as DynamoDB's Scan has, and no page size.
@readonly
@http(method: "POST", uri: "/scan")
@paginated(inputToken: "startKey", outputToken: "lastKey", items: "ids")
operation ScanJobs {
    input := {
        startKey: KeyMap
    }

    output := {
        lastKey: KeyMap
        ids: IdList
    }
}

map KeyMap {
    key: String
    value: String
}

list IdList {
    member: String
}

/// One job, whose state the server moves on at every call.
@readonly
@http(method: "GET", uri: "/jobs/{jobId}")
@waitable(
    JobDone: {
        documentation: "Until the job is done; fails fast when it failed."
        acceptors: [
            {
                state: "failure"
                matcher: { output: { path: "job.status", expected: "FAILED", comparator: "stringEquals" } }
                message: "job.reason"
            }
            {
                state: "success"
                matcher: { output: { path: "job.status", expected: "DONE", comparator: "stringEquals" } }
            }
            {
                state: "retry"
                matcher: { errorType: "JobNotFound" }
            }
        ]
    }
    StepsFinished: {
        minDelay: 5
        maxDelay: 20
        acceptors: [
            {
                state: "failure"
                matcher: { output: { path: "job.steps[].state", expected: "broken", comparator: "anyStringEquals" } }
            }
            {
                state: "success"
                matcher: { output: { path: "job.steps[].state", expected: "finished", comparator: "allStringEquals" } }
            }
        ]
    }
    JobReady: {
        acceptors: [
            {
                state: "success"
                matcher: { output: { path: "job.ready", expected: "true", comparator: "booleanEquals" } }
            }
        ]
    }
    JobVisible: {
        acceptors: [
            {
                state: "success"
                matcher: { inputOutput: { path: "input.jobId == output.job.id", expected: "true", comparator: "booleanEquals" } }
            }
            {
                state: "retry"
                matcher: { errorType: "example.paging#JobNotFound" }
            }
        ]
    }
    JobGone: {
        acceptors: [
            {
                state: "success"
                matcher: { errorType: "JobNotFound" }
            }
            {
                state: "retry"
                matcher: { success: true }
            }
        ]
    }
    JobUnreachable: {
        acceptors: [
            {
                state: "success"
                matcher: { success: false }
            }
        ]
    }
    JobRich: {
        documentation: "Unions, timestamps, blobs, functions and projections in JMESPath."
        acceptors: [
            {
                state: "success"
                matcher: {
                    output: {
                        path: "length(job.history[?kind.ok]) > `1` && job.updatedAt > `1700000000` && job.digest == 'AQID' && contains(job.labels, 'gold')"
                        expected: "true"
                        comparator: "booleanEquals"
                    }
                }
            }
        ]
    }
    OldJobDone: {
        deprecated: true
        acceptors: [
            {
                state: "success"
                matcher: { output: { path: "job.status", expected: "DONE", comparator: "stringEquals" } }
            }
        ]
    }
)
operation GetJob {
    input := {
        @required
        @httpLabel
        jobId: String
    }

    output := {
        @required
        job: Job
    }

    errors: [JobNotFound]
}

structure Job {
    @required
    id: String

    @required
    status: JobStatus

    reason: String

    steps: Steps

    ready: Boolean

    history: History

    updatedAt: Timestamp

    digest: Blob

    labels: Labels
}

enum JobStatus {
    PENDING
    RUNNING
    DONE
    FAILED
}

list Steps {
    member: Step
}

structure Step {
    @required
    name: String

    @required
    state: String
}

list History {
    member: Event
}

structure Event {
    @required
    kind: Outcome
}

union Outcome {
    ok: Integer
    error: String
}

list Labels {
    member: String
}

@error("client")
@httpError(404)
structure JobNotFound {
    message: String
}
