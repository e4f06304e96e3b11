// Package procstate knows which standard-library registries a block can
// fill that outlive its run in a kernel process. Both engines serve many
// runs in one process, where `go run` gives each program its own: a second
// expvar.NewInt("hits"), http.HandleFunc("/health", …) or sql.Register of
// the same name panics there, so a block that worked once failed on the
// next partition its kernel ran. The engines restart the kernel after such
// a block's run instead. It knows nothing of how a kernel runs a block.
package procstate
