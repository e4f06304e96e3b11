package engine

import (
	"context"
	"time"
)

// NoticeReview is the kind of a notice carrying a review backfill's review
// (Notice.Review): an open backfill page shows the new summary, gates and
// conflicts without asking again.
const NoticeReview = "review"

// reviewPushTimeout bounds one pushed review: it reads every staged
// partition, and a page that needs it sooner asks the API.
const reviewPushTimeout = 2 * time.Minute

// pushReview recomputes a review backfill's review after its state moved
// on (ready for review, promoted, refused, discarded, rolled back) and
// publishes it, in the background: the caller (a promote answering an API
// request, the run loop) does not wait for a summary of five years. With
// nobody subscribed it does nothing.
func (e *Engine) pushReview(id string) {
	if !e.hub.Subscribed(NoticeReview) {
		return
	}
	e.bgMu.Lock()
	if e.closed {
		e.bgMu.Unlock()
		return
	}
	e.background.Add(1)
	e.bgMu.Unlock()
	go func() {
		defer e.background.Done()
		ctx, cancel := context.WithTimeout(context.Background(), reviewPushTimeout)
		defer cancel()
		rv, err := e.BackfillReview(ctx, id)
		if err != nil {
			// The state notice already went out; a page that cannot get
			// the review this way asks the API and sees the error there.
			return
		}
		e.hub.Publish(Notice{Kind: NoticeReview, Review: rv})
	}()
}
