package trace

import (
	"context"
	"fmt"
)

// The shape of a tree read from a file is untrusted: a damaged or edited
// trace can hold any subtree size, parent or id. Every reader that walks a
// tree by those numbers (diff, the viewer, the exporter) checks what
// it is about to follow with CheckChildren and bounds its depth by
// MaxNesting, so that a bad number gives one clear error instead of a loop
// that never ends or memory that never stops growing. check.Run reports
// the same faults as violations instead.

// MaxNesting bounds how deep a reader follows a tree. The recorder stores
// plies up to 511 below an iteration root, which hangs below the run node;
// anything deeper is not a search tree but a damaged one.
const MaxNesting = 600

// DamagedError says what is wrong with a node read from a trace. It wraps
// ErrCorrupt.
type DamagedError struct {
	Run    int64
	Node   int64
	Detail string // "has subtree size -5", ...
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("damaged trace: node %d %s (run %d)", e.Node, e.Detail, e.Run)
}

// Unwrap lets errors.Is match ErrCorrupt.
func (e *DamagedError) Unwrap() error { return ErrCorrupt }

func nodeDamaged(n Node, format string, a ...any) error {
	return &DamagedError{Run: n.RunID, Node: n.ID, Detail: fmt.Sprintf(format, a...)}
}

// CheckNode returns a *DamagedError when n's subtree size cannot be true of
// any tree: below 1, or reaching past the id space of a run.
func CheckNode(n Node) error {
	if n.SubtreeSize < 1 || n.ID < 0 {
		return nodeDamaged(n, "has subtree size %d", n.SubtreeSize)
	}
	if n.SubtreeSize > 1<<32 || n.End() > 1<<32 {
		return nodeDamaged(n, "has subtree size %d, past the end of the run's ids", n.SubtreeSize)
	}
	return nil
}

// CheckChildren returns a *DamagedError unless kids (in search order, as
// Reader.Children returns them) can be parent's children: each has a
// subtree size of at least 1, lies inside the parent's id range after the
// parent, and starts after the previous child's subtree ends; and there are
// at most MaxChildren of them. A reader that hops from child to child by
// their sizes, or descends into them, relies on exactly this.
func CheckChildren(parent Node, kids []Node) error {
	if err := CheckNode(parent); err != nil {
		return err
	}
	if len(kids) > MaxChildren {
		return nodeDamaged(parent, "has %d children; no search node has more than %d", len(kids), MaxChildren)
	}
	next := parent.ID + 1
	for _, k := range kids {
		if err := CheckChild(parent, k); err != nil {
			return err
		}
		if k.ID < next {
			return nodeDamaged(k, "overlaps the subtree before it in node %d's children (it starts at %d, the previous one ends at %d)", parent.ID, k.ID, next)
		}
		next = k.End()
	}
	return nil
}

// ReadChildren reads node id's children through r, then the node itself,
// and checks them: all of them with CheckChildren when they are the whole
// list in search order, each with CheckChild otherwise. It returns the
// node as read after its children. The order is the point: in a run
// being recorded the open nodes (the run node down to the node being
// searched) grow between two reads, so a parent read before its children
// can end before its last, open child read later, and a sound run would
// read as damaged ("node 3321 has subtree size 2567, which runs past its
// parent 0's subtree [0, 5632)"). Read after, the parent covers every
// child the file held before. A reader that holds a parent read earlier
// checks its children here, not against that copy.
func ReadChildren(ctx context.Context, r Reader, run, id int64, order Order, offset, limit int) (Node, []Node, error) {
	kids, err := r.Children(ctx, run, id, order, offset, limit)
	if err != nil {
		return Node{}, nil, err
	}
	p, err := r.Node(ctx, run, id)
	if err != nil {
		return Node{}, nil, err
	}
	return checkChildren(p, kids, order == BySearch && offset == 0 && limit <= 0)
}

// RunChildren reads node n's children in run through r and checks them
// as ReadChildren does, for a reader that holds n as read before them and
// run as read when it opened the file. While the run may still grow it is
// ReadChildren, node read again after its children. A run whose status is
// final (complete, interrupted, truncated) was closed by its recorder
// before it was read: its file no longer changes, so n is the node as it
// would read again, and is checked instead, sparing a query for each child
// list (about a sixth of export's time). Every partial status re-reads:
// running; abandoned, which a run recorded from another machine reads as
// while its recorder still writes, and whose recorder, if it did die, no
// longer changes it, so the re-read costs only time; and failed.
func RunChildren(ctx context.Context, r Reader, run Run, n Node, order Order, offset, limit int) (Node, []Node, error) {
	if run.Status.Partial() {
		return ReadChildren(ctx, r, run.ID, n.ID, order, offset, limit)
	}
	p := n
	p.RunID = run.ID // n is run's node, as the children are read from run
	kids, err := ChildrenOf(ctx, r, p, order, offset, limit)
	if err != nil {
		return Node{}, nil, err
	}
	return checkChildren(n, kids, order == BySearch && offset == 0 && limit <= 0)
}

// ChildrenOfReader is a Reader that reads the children of a node its
// caller holds without reading the node again: a wrapper of a Store (a
// command's row counter) passes ChildrenOf on.
type ChildrenOfReader interface {
	ChildrenOf(ctx context.Context, parent Node, order Order, offset, limit int) ([]Node, error)
}

// ChildrenOf returns parent's children through r, as r.Children does, for
// a caller that holds parent as it reads now (a node of a run whose
// recorder has finished it). A *Store, or a ChildrenOfReader, reads them
// without reading parent and the run's iterations again (two of a child
// list's three queries); any other reader, a type that embeds a *Store to
// change what Children gives included, through its Children.
func ChildrenOf(ctx context.Context, r Reader, parent Node, order Order, offset, limit int) ([]Node, error) {
	switch s := r.(type) {
	case *Store:
		return s.childrenOf(ctx, parent, order, offset, limit)
	case ChildrenOfReader:
		return s.ChildrenOf(ctx, parent, order, offset, limit)
	}
	return r.Children(ctx, parent.RunID, parent.ID, order, offset, limit)
}

// checkChildren checks kids against parent: all of them with
// CheckChildren when they are the whole list in search order, each with
// CheckChild otherwise.
func checkChildren(p Node, kids []Node, whole bool) (Node, []Node, error) {
	if whole {
		return p, kids, CheckChildren(p, kids)
	}
	if err := CheckNode(p); err != nil {
		return Node{}, nil, err
	}
	for _, k := range kids {
		if err := CheckChild(p, k); err != nil {
			return Node{}, nil, err
		}
	}
	return p, kids, nil
}

// CheckChild returns a *DamagedError unless k can be a child of parent: a
// subtree size of at least 1, inside the parent's id range, after it. It
// does not look at k's parent id: readers that find children by id range
// (diff's chunks) meet rows whose parent has no row, and skip them.
func CheckChild(parent, k Node) error {
	if err := CheckNode(k); err != nil {
		return err
	}
	switch {
	case k.ID <= parent.ID:
		return nodeDamaged(k, "comes before its parent %d", parent.ID)
	case k.End() > parent.End():
		return nodeDamaged(k, "has subtree size %d, which runs past its parent %d's subtree [%d, %d)",
			k.SubtreeSize, parent.ID, parent.ID, parent.End())
	}
	return nil
}

// CheckPath returns a *DamagedError unless path (as Reader.Path returns
// it: the run node first) is a chain of parents and children at most
// MaxNesting deep.
func CheckPath(path []Node) error {
	for i, n := range path {
		if err := CheckDepth(n, i); err != nil {
			return err
		}
		if i == 0 {
			if err := CheckNode(n); err != nil {
				return err
			}
			continue
		}
		if n.Parent != path[i-1].ID {
			return nodeDamaged(n, "has parent %d, but its path comes through node %d", n.Parent, path[i-1].ID)
		}
		if err := CheckChild(path[i-1], n); err != nil {
			return err
		}
	}
	return nil
}

// CheckDepth returns a *DamagedError when a walk reached depth levels below
// the run node at node n.
func CheckDepth(n Node, depth int) error {
	if depth > MaxNesting {
		return nodeDamaged(n, "lies %d levels below the run node; no search goes deeper than %d", depth, MaxNesting)
	}
	return nil
}
