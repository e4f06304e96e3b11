// Package sourcecorpus holds the tests of Go blocks that read real sources
// with third-party modules (pgx, the AWS SDK's S3 client), interpreted in a
// project kernel and compiled, against a throwaway Postgres and SeaweedFS,
// and the benchmark of an Export block's rows/s into Postgres against COPY
// FROM. The programs are kernel/testdata/sourcecorpus, their go.mod
// kernel/testdata/sources. A package of its own so that its project kernel
// build (pgx and the AWS SDK) has a test timeout of its own; it has no code
// beyond its tests.
package sourcecorpus
