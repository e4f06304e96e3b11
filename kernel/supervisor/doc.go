// Package supervisor runs kernel processes from the coordinator's side: it
// starts them, waits for ready, health-checks, sends work, enforces time and
// memory limits from outside (a wedged kernel cannot be trusted to stop
// itself), kills and replaces kernels that crashed or must be recycled, and
// pools them for runs and backfills.
//
// The kernel is a child process because yaegi cannot contain every failure:
// a panic in a goroutine, an allocation storm or a stuck call ends only that
// process, and the supervisor turns it into a failed run with a reason.
package supervisor
