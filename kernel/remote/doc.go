// Package remote runs block executions on worker machines through NATS
// JetStream, behind the same Exec/Size interface as the local kernel pool.
//
// # Shape
//
// JetStream is the transport and the lease, never the source of truth. The
// coordinator's Pool publishes one task per Exec call to a work-queue stream
// (file storage) under the message id task/<run>/<block>/<attempt>; the
// attempt is assigned by the coordinator and is unique per dispatch, so a
// deliberate rerun is never swallowed by JetStream's duplicate window. A
// worker Agent pulls tasks with Fetch(1) per free kernel slot (never
// Consume, which prefetches and piles tasks onto one worker), keeps the
// lease with InProgress every AckWait/3, runs the block on its local kernels
// over the ordinary stdio protocol (kernels never speak NATS), publishes the
// result to a limits stream under result/<run>/<block>/<attempt>, and only
// then acks the task.
//
// Completion is decided by the Pool from results keyed by attempt: the first
// result for a dispatch wins and ends the Exec call; a later one (a worker
// presumed dead that wakes up, a redelivered task that ran twice) is counted
// and ignored. Whether an ack arrived decides nothing: acks are ambiguous,
// and a worker whose lease expired can still ack.
//
// A worker that dies or hangs stops heartbeating its lease; JetStream
// redelivers the task after AckWait to another worker. A task that reaches
// MaxDeliver is reported by an advisory: the Pool fails that Exec and deletes
// the message (it would otherwise stay in the stream, invisible).
//
// Payloads above the message limit (1 MiB) travel through the JetStream
// object store and are referenced by name, size and SHA-256 digest; the Pool
// deletes them once read. ctx.Query and ctx.Product calls of a remote block
// are answered by the coordinator over core NATS request/reply; a cancelled
// Exec is broadcast on core NATS and the worker interrupts (then kills) the
// kernel. Heartbeats (host, slots, busy, version) go out on core NATS every
// few seconds and make up the worker list.
//
// This package knows nothing of pipelines or the warehouse: it moves exec
// requests, tables and results, like the supervisor.
package remote
