-- Horizon trace schema, version 8: figures of big subtrees.
--
-- A diagram cut from a big subtree sums up the rows it leaves out (its
-- "+N nodes" summaries): their count, the QS ones, their deepest plies.
-- Adding them up from the rows costs the subtree's size, however few
-- nodes the diagram shows. This table keeps those figures for every node
-- whose subtree spans 64 ids or more (a fraction of a percent of the
-- file), so a reader adds up a stored subtree in one lookup and scans only
-- the rows under no stored subtree. The recorder adds up a subtree's
-- figures as its nodes close and writes them in the commit of its top's
-- row (so a run being recorded, or abandoned by a killed recorder, has
-- those of its closed subtrees); the upgrade of an older file writes them
-- for its finished runs. Rows under no stored subtree (a run recorded
-- before version 8 and never upgraded, an open node's) are read as before.
-- A Horizon that reads up to version 7 refuses the file (its user_version
-- is newer).
CREATE TABLE subtree_counts (
    run_id INTEGER NOT NULL REFERENCES runs(id), -- the run
    id INTEGER NOT NULL,              -- the subtree's top: a node_rows id of the run; the subtree is ids id to id + node_rows.size - 1
    rows INTEGER NOT NULL,            -- the rows of the subtree (its nodes recorded with a row), the top's included
    qs_rows INTEGER NOT NULL,         -- of them, QS nodes (node_rows.info kind 4)
    max_qs_ply INTEGER NOT NULL,      -- the deepest QS ply stored with those QS rows (nodes.qs_ply); -1 when there is none
    max_qs_node_ply INTEGER NOT NULL, -- the deepest ply (nodes.ply) of those QS rows; -1 when there is none
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
