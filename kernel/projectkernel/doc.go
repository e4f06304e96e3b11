// Package projectkernel builds a project kernel: the `strata kernel` program
// (kernel/interp serving kernel/child's protocol loop) with the third-party
// packages a project's blocks import compiled in natively and handed to the
// interpreter as symbol tables. The tables are generated code, written by
// yaegi's own extract package (as kernel/interp's SDK table is), never by
// hand; what they cannot carry (generic functions and types, a package with
// C code, or one depending on it: the kernel is built without cgo) is
// registered as a gap, so a block using it is
// told at its line that it needs compiled mode, as the interpreter's other
// limits are.
//
// A build is a sibling of kernel/build's compiled worker: a Go module written
// into a stable folder per project (.strata/kernel) whose go.mod carries the
// project's requirements (kernel/build.Manifest) and the interpreter's, the
// kernel runtime's source the strata binary carries (go:embed), a small
// extractor program, and a generated main. Everything runs offline
// (GOPROXY=off, modules from the module cache) with fixed flags, so the Go
// build cache stays warm. Kernels are cached by a hash of the toolchain, the
// runtime source, go.mod, go.sum and the import set: an unchanged set is
// reused without running the go command at all.
//
// It knows nothing of pipelines or the editor: callers hand it a project
// folder and import paths, and start the binary as they start `strata kernel`.
package projectkernel
