package export

import (
	"sync"

	"github.com/horizonqs/horizon/trace"
)

// childrenAhead reads the child lists of the nodes a builder is likely to
// expand next (the top of its queue) on goroutines of its own
// (aheadReaders), while the builder waits on the list it needs now: a queried diagram is a child
// list per shown node, each a few random seeks into the file (2,000 of a
// 1.1M-node iteration: 40,000 children), and the reads run on both
// cores. A list read ahead is the one storeSource.children reads (the
// same call); one never asked for is dropped with its error.
type childrenAhead struct {
	reqs    chan *aheadList
	done    sync.WaitGroup
	stopped sync.Once

	mu    sync.Mutex
	lists map[int64]*aheadList // by node id, asked for or read
}

// aheadList is one child list read ahead: ready closes once it is read.
type aheadList struct {
	n     trace.Node
	ready chan struct{}
	p     trace.Node
	kids  []trace.Node
	err   error
}

// aheadReaders is how many lists are read ahead at once: with one, the
// builder waited on it as it had waited on its own reads (0.50 s for the
// 2,000-node diagram either way; 0.41 s with two).
const aheadReaders = 2

// aheadWanted is how many candidates at the top of the queue the builder
// asks to have read ahead after each expansion.
const aheadWanted = 4

// aheadQueue is how many lists wait to be read ahead: a few more than
// the builder asks for at once, so that one that is not taken soon is
// not read at all.
const aheadQueue = 8

// newChildrenAhead starts reading ahead for src; stop ends it.
func newChildrenAhead(src *storeSource) *childrenAhead {
	a := &childrenAhead{reqs: make(chan *aheadList, aheadQueue), lists: map[int64]*aheadList{}}
	// The readers range over reqs itself: stop sets the field to nil.
	reqs := a.reqs
	for range aheadReaders {
		a.done.Add(1)
		go func() {
			defer a.done.Done()
			for l := range reqs {
				l.p, l.kids, l.err = src.read(l.n)
				close(l.ready)
			}
		}()
	}
	return a
}

// want asks for the child lists of ns to be read ahead, as far as the
// queue has room; lists asked for already are not asked again.
func (a *childrenAhead) want(ns []trace.Node) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, n := range ns {
		if n.SubtreeSize <= 1 || a.lists[n.ID] != nil {
			continue
		}
		l := &aheadList{n: n, ready: make(chan struct{})}
		select {
		case a.reqs <- l:
			a.lists[n.ID] = l
		default:
			return
		}
	}
}

// take returns n's child list if it was asked for (waiting for it to be
// read), and forgets it. Only an ended run's lists are read ahead: a
// list read before it is needed is the one read then.
func (a *childrenAhead) take(n trace.Node) (l *aheadList, ok bool) {
	a.mu.Lock()
	l, ok = a.lists[n.ID]
	delete(a.lists, n.ID)
	a.mu.Unlock()
	if !ok {
		return nil, false
	}
	<-l.ready
	return l, true
}

// stop ends the reading ahead and waits for its goroutine: the lists not
// taken are dropped. A second stop does nothing.
func (a *childrenAhead) stop() {
	a.stopped.Do(func() {
		a.mu.Lock()
		close(a.reqs)
		a.reqs = nil // want sends no more
		a.mu.Unlock()
		a.done.Wait()
	})
}
