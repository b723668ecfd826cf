-- Horizon trace schema, version 7: nested searches.
--
-- Engines search a node's own position again from inside the node:
-- internal iterative deepening, a singular-extension test (leaving one
-- move out), razoring's QS probe, ProbCut, a null-move verification. Such
-- a search is stored as a child of the node that makes it, with no move
-- (node_rows.move 0, as roots have, but below a node that is no run node):
-- its position is its parent's, and so is its side to move, so its window
-- and score are not negated. This table says why it was made. A Horizon
-- that reads up to version 6 refuses the file (its user_version is newer)
-- rather than reading these nodes as iteration roots.
CREATE TABLE nested (
    run_id INTEGER NOT NULL REFERENCES runs(id), -- the run
    id INTEGER NOT NULL,         -- the nested search's root: a node_rows id of the run
    reason TEXT NOT NULL,        -- why: iid, singular, razor, probcut, verify, or the engine's own word
    excluded INTEGER NOT NULL,   -- the move a singular search leaves out, engine.Move code (0: none)
    uncounted INTEGER NOT NULL,  -- 1: the engine's node count has no node for the root (a loop over the node's moves)
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
