// Package sources holds the end-to-end tests of real sources and
// destinations through the real binary: a Postgres (e2e/pgtest) and an
// S3-compatible server (e2e/s3test) read by SQL blocks and by Go blocks
// importing pgx and the AWS SDK, the shop demo, and a kill -9 in the middle
// of an export. They are a package of their own so that their project
// kernel builds have a test timeout of their own. The package has no code
// beyond its tests.
package sources
