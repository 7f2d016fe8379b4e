package mcts

import (
	"sync"

	"gdlab/engine/search"
)

// pipeline runs the playouts of a search's batches on the workers. With one
// worker it plays each batch at once. With several it keeps one batch in
// play while the search selects the next: start waits for the batch in
// play, backs it up and then launches the new one, so the tree work of
// selection overlaps the playouts. Under a Next-call budget the pipeline
// is off (a batch is played and backed up before the next is selected),
// because a playout's Next calls are known only when it ends.
type pipeline struct {
	t       *tree
	size    int        // leaves per batch
	overlap bool       // keep a batch in play while selecting
	bufs    [2][]*leaf // the batch in play and the one being selected
	cur     int        // index of the buffer being selected
	pending []*leaf    // the batch in play, or nil
	wg      sync.WaitGroup
}

func newPipeline(t *tree, b search.Budget) *pipeline {
	p := &pipeline{t: t, size: 1}
	if n := len(t.work); n > 1 {
		p.size = n * leavesPerWorker
		if t.opt.leafBatch() > 1 {
			// A leaf's batch of playouts is work enough to start a
			// worker for, and each leaf more in play is a virtual loss
			// more that selection sees.
			p.size = n
		}
		p.overlap = b.NextCalls == 0
	}
	for i := range p.bufs {
		p.bufs[i] = make([]*leaf, p.size)
	}
	return p
}

// inFlight is the number of leaves in play.
func (p *pipeline) inFlight() int { return len(p.pending) }

// next returns a buffer for a batch of k leaves, not the one in play.
func (p *pipeline) next(k int) []*leaf { return p.bufs[p.cur][:k] }

// start backs up the batch in play, if any, and plays batch.
func (p *pipeline) start(batch []*leaf) error {
	if err := p.drain(); err != nil {
		return err
	}
	n := min(len(p.t.work), len(batch))
	if n == 1 {
		p.t.work[0].runAll(batch, 0, 1)
		p.pending = batch
		return p.drain()
	}
	for i := range n {
		p.wg.Add(1)
		go func(w *worker) {
			defer p.wg.Done()
			w.runAll(batch, i, n)
		}(p.t.work[i])
	}
	p.pending = batch
	p.cur = 1 - p.cur
	if !p.overlap {
		return p.drain()
	}
	return nil
}

// drain waits for the batch in play and backs it up, in batch order.
func (p *pipeline) drain() error {
	if p.pending == nil {
		return nil
	}
	p.wg.Wait()
	batch := p.pending
	p.pending = nil
	for _, l := range batch {
		if err := p.t.backupLeaf(l); err != nil {
			return err
		}
	}
	return nil
}
