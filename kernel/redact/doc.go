// Package redact masks known values in text that arrives in pieces.
//
// A block's output reaches its handler one write at a time: a value printed
// as fmt.Print(v[:3]); fmt.Print(v[3:]) is in no single piece, so masking
// each piece on its own lets it through. A Stream holds back, per stream
// name, the end of what it was given that could still be the start of a
// value, and masks it with what comes next; Flush gives back what is held
// when the run ends.
//
// The coordinator's secrets store (projects/secrets) and a worker's masker
// (kernel/remote) both use it, so a value is masked before it is kept,
// shown, or sent over NATS. This package is the standard library only.
package redact
