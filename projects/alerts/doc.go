// Package alerts tells a human when something needs one: a run or backfill
// that failed, a backfill that needs attention or is ready for review, a
// review check that failed, a freshness refresh that failed, a trigger that
// could not launch, a worker lost. It delivers to the webhooks of the
// `alerts:` section of strata.yaml (projects/project reads it), either as
// Strata's JSON body signed with HMAC-SHA256 or as Slack's incoming-webhook
// body.
//
// # Delivery
//
// Each alert has an event id the receiver can de-duplicate on
// (X-Strata-Event, and "id" in the body). Every delivery (one alert to one
// webhook) is written to a journal, .strata/alerts.jsonl, before it is
// tried: queued, each failed attempt, then delivered or dead (the dead
// letter, after the last attempt). A server that restarts replays the
// journal: what was delivered or dead is never sent again, what was queued
// is tried again. Retries wait Backoff, doubling each time, up to a
// minute. A receiver that answered 2xx has the alert; anything else
// (connection refused, 5xx, 4xx) is a failed attempt.
//
// A receiver may still see one alert twice: when the server dies after
// the receiver answered and before "delivered" reached the journal. The
// event id is what lets it drop the second.
//
// # Events
//
// engine_feed.go maps the engine's notices to alerts. An event id is the
// alert's kind, its subject (a run, backfill, trigger tick or worker) and
// an occurrence number, so the same failure published twice is one alert,
// while a backfill that fails, is retried and fails again alerts twice.
//
// This package knows nothing of HTTP routes or roles; it posts to URLs.
package alerts
