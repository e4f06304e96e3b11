package remote

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Settings tune the JetStream side of a pool; the zero value is usable.
type Settings struct {
	// Pool names the streams and subjects (default "default"), so several
	// projects can share one NATS server.
	Pool string
	// AckWait is a task's lease: a worker that neither finishes nor
	// heartbeats within it loses the task to another worker (default 30s).
	AckWait time.Duration
	// MaxDeliver bounds how often one task is handed out (default 5); at
	// the limit the run fails, naming the workers it was lost on.
	MaxDeliver int
	// CallTimeout bounds every JetStream API call (default 5s); calls that
	// time out are retried where that is safe.
	CallTimeout time.Duration
	// ResultMaxAge keeps results in their stream this long (default 24h).
	ResultMaxAge time.Duration
	// Replicas of the streams and the object store (default 1): 3 on a
	// NATS cluster, so that losing a server (its leader) loses nothing.
	Replicas int
	// Artifacts is a folder every machine of the pool sees at the same
	// path (a shared mount): payloads above the message limit go there,
	// referenced by size and digest, instead of the object store.
	Artifacts string
}

func (s Settings) withDefaults() Settings {
	if s.Pool == "" {
		s.Pool = "default"
	}
	if s.AckWait <= 0 {
		s.AckWait = 30 * time.Second
	}
	if s.MaxDeliver <= 0 {
		s.MaxDeliver = 5
	}
	if s.CallTimeout <= 0 {
		s.CallTimeout = 5 * time.Second
	}
	if s.Replicas <= 0 {
		s.Replicas = 1
	}
	if s.ResultMaxAge <= 0 {
		s.ResultMaxAge = 24 * time.Hour
	}
	return s
}

// retry runs a JetStream call with its own timeout until it succeeds, ctx
// ends or attempts run out: cluster API calls can hang during elections.
func retry(ctx context.Context, timeout time.Duration, what string, fn func(ctx context.Context) error) error {
	var err error
	for i := 0; i < 4; i++ {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		err = fn(cctx)
		cancel()
		if err == nil || ctx.Err() != nil {
			break
		}
		select {
		case <-time.After(time.Duration(i+1) * 200 * time.Millisecond):
		case <-ctx.Done():
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// setup creates (or updates) the streams, the shared worker consumer, the
// coordinator's result consumer and the object store of a pool. Only the
// coordinator calls it; workers bind to what it made.
func setup(ctx context.Context, js jetstream.JetStream, n names, s Settings) (jetstream.Consumer, jetstream.ObjectStore, error) {
	err := retry(ctx, s.CallTimeout, "create task stream "+n.taskStream, func(ctx context.Context) error {
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name: n.taskStream, Subjects: []string{n.taskSubject},
			Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
			Duplicates: 2 * time.Minute, MaxMsgSize: 1 << 20, Discard: jetstream.DiscardNew, Replicas: s.Replicas,
		})
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	err = retry(ctx, s.CallTimeout, "create worker consumer", func(ctx context.Context) error {
		_, err := js.CreateOrUpdateConsumer(ctx, n.taskStream, jetstream.ConsumerConfig{
			Durable: n.workerConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: s.AckWait,
			MaxDeliver: s.MaxDeliver, FilterSubject: n.taskSubject, MaxAckPending: -1,
			MaxWaiting: 4096, // one pull request per free slot of every worker
		})
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	err = retry(ctx, s.CallTimeout, "create result stream "+n.resultStream, func(ctx context.Context) error {
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name: n.resultStream, Subjects: []string{n.resultSubject + ".>"},
			Retention: jetstream.LimitsPolicy, Storage: jetstream.FileStorage,
			MaxAge: s.ResultMaxAge, Duplicates: 2 * time.Minute, MaxMsgSize: 1 << 20, Replicas: s.Replicas,
		})
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	var results jetstream.Consumer
	err = retry(ctx, s.CallTimeout, "create result consumer", func(ctx context.Context) error {
		c, err := js.CreateOrUpdateConsumer(ctx, n.resultStream, jetstream.ConsumerConfig{
			Durable: n.resultConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second,
			DeliverPolicy: jetstream.DeliverNewPolicy,
		})
		results = c
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	var obs jetstream.ObjectStore
	err = retry(ctx, s.CallTimeout, "create object store "+n.bucket, func(ctx context.Context) error {
		o, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: n.bucket, TTL: s.ResultMaxAge, Storage: jetstream.FileStorage, Replicas: s.Replicas})
		obs = o
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return results, obs, nil
}

// bind finds what the coordinator made, waiting for it while the
// coordinator is not up yet.
func bind(ctx context.Context, js jetstream.JetStream, n names, s Settings) (jetstream.Consumer, jetstream.ObjectStore, error) {
	for {
		cctx, cancel := context.WithTimeout(ctx, s.CallTimeout)
		c, err := js.Consumer(cctx, n.taskStream, n.workerConsumer)
		var obs jetstream.ObjectStore
		if err == nil {
			obs, err = js.ObjectStore(cctx, n.bucket)
		}
		cancel()
		if err == nil {
			return c, obs, nil
		}
		if !errors.Is(err, jetstream.ErrStreamNotFound) && !errors.Is(err, jetstream.ErrConsumerNotFound) &&
			!errors.Is(err, jetstream.ErrBucketNotFound) && !errors.Is(err, context.DeadlineExceeded) {
			return nil, nil, fmt.Errorf("bind to pool %s: %w", n.pool, err)
		}
		select {
		case <-ctx.Done():
			return nil, nil, fmt.Errorf("bind to pool %s: no coordinator has created it (%v)", n.pool, err)
		case <-time.After(500 * time.Millisecond):
		}
	}
}
