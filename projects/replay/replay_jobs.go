package replay

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/stratahq/strata/projects/engine"
)

// Jobs runs replays in the background for the server and keeps the last
// ones' reports in memory: a replay writes nothing to the warehouse, so its
// report lives as long as the process (a restarted server has none; the
// CLI's --format json keeps one for good).
type Jobs struct {
	eng  *engine.Engine
	keep int

	mu   sync.Mutex
	jobs map[string]*Job
	seq  int
	wg   sync.WaitGroup
}

// Job is one replay started by Start.
type Job struct {
	ID       string    `json:"id"`
	Pipeline string    `json:"pipeline"`
	Options  Options   `json:"options"`
	State    string    `json:"state"` // running, done or error
	Done     int       `json:"done"`  // partitions replayed so far
	Total    int       `json:"total"`
	Error    string    `json:"error,omitempty"`
	Started  time.Time `json:"started_at"`
	Report   *Report   `json:"report,omitempty"`
}

// Job states.
const (
	JobRunning = "running"
	JobDone    = "done"
	JobError   = "error"
)

// NewJobs keeps the reports of the last keep replays.
func NewJobs(e *engine.Engine, keep int) *Jobs {
	return &Jobs{eng: e, keep: max(keep, 1), jobs: map[string]*Job{}}
}

// Start checks opt and starts the replay; ctx bounds it (the server's
// lifetime, not the request's). A bad option is refused here, before
// anything runs.
func (j *Jobs) Start(ctx context.Context, opt Options) (*Job, error) {
	pl, err := j.eng.Pipeline(opt.Pipeline)
	if err != nil {
		return nil, err
	}
	if _, err := resolveGates(pl, opt.ExpectUnchanged); err != nil {
		return nil, err
	}
	if _, err := engine.ParseEngine(opt.Engine); err != nil {
		return nil, err
	}
	if opt.Last < 0 || (opt.Last > 0 && (opt.From != "" || opt.To != "")) {
		return nil, fmt.Errorf("give last (a positive number) or from/to, not both")
	}
	j.mu.Lock()
	j.seq++
	job := &Job{ID: fmt.Sprintf("replay-%s-%d-%d", pl.ID, time.Now().Unix(), j.seq), Pipeline: pl.ID, Options: opt, State: JobRunning, Started: time.Now().UTC()}
	j.jobs[job.ID] = job
	j.trim()
	j.mu.Unlock()
	j.wg.Add(1)
	go func() {
		defer j.wg.Done()
		rep, err := Run(ctx, j.eng, opt, func(done, total int, _ *engine.PartitionReplay) {
			j.mu.Lock()
			job.Done, job.Total = done, total
			j.mu.Unlock()
		})
		j.mu.Lock()
		defer j.mu.Unlock()
		if err != nil {
			job.State, job.Error = JobError, err.Error()
			return
		}
		job.State, job.Report, job.Total, job.Done = JobDone, rep, len(rep.Partitions), len(rep.Partitions)
	}()
	return j.snapshot(job), nil
}

// Get returns a copy of a job; false when unknown (or dropped).
func (j *Jobs) Get(id string) (*Job, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	job, ok := j.jobs[id]
	if !ok {
		return nil, false
	}
	return j.snapshot(job), true
}

// Wait waits for every started replay to end (after its ctx is cancelled).
func (j *Jobs) Wait() { j.wg.Wait() }

// snapshot copies a job under j.mu (the report is not written after done).
func (j *Jobs) snapshot(job *Job) *Job {
	cp := *job
	return &cp
}

// trim drops the oldest finished jobs beyond keep, under j.mu.
func (j *Jobs) trim() {
	if len(j.jobs) <= j.keep {
		return
	}
	var done []*Job
	for _, job := range j.jobs {
		if job.State != JobRunning {
			done = append(done, job)
		}
	}
	sort.Slice(done, func(a, b int) bool { return done[a].Started.Before(done[b].Started) })
	for _, job := range done {
		if len(j.jobs) <= j.keep {
			return
		}
		delete(j.jobs, job.ID)
	}
}
