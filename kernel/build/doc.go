// Package build compiles a project's Go blocks with the Go toolchain into one
// native worker binary that serves kernel/protocol exactly as `strata kernel`
// does, so a supervisor.Pool whose kernel command is that binary runs blocks
// at native speed.
//
// A build writes a small Go module into a stable folder per project
// (.strata/build): a go.mod whose go line is the local toolchain's version, a
// copy of the SDK and kernel runtime source that the strata binary carries
// (go:embed), one package per block (each file prefixed with a //line
// directive, so compile errors and panics name the block's own file and
// line), and a generated main that registers every block's entry with
// kernel/native. It runs `go build` with GOPROXY=off GOWORK=off
// GOTOOLCHAIN=local -mod=mod and fixed flags, so the Go build cache stays
// warm and nothing is fetched. Binaries are cached by a content hash of the
// block sources, the runtime source and the Go version; builds of one folder
// are serialized with a file lock.
//
// With Options.Module (the project folder), the build module's go.mod
// carries the project's requirements and replaces and its go.sum
// (module_manifest.go): blocks import any module the project requires,
// resolved from the module cache only. What the go command cannot resolve
// offline is refused at the import line, naming `go get` or `strata mod
// download`.
//
// Before building, each block is checked the way the interpreter checks it:
// restricted imports are refused unless the project opted in, and the entry
// function must exist. Type errors come from the compiler itself.
package build
