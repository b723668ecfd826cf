-- Horizon trace schema, version 3: the documented names seek.
--
-- Versions 1 and 2 kept node rows keyed by one integer, run_id << 32 | id,
-- behind a view that decoded it, so SQLite could not use the key for a
-- query on nodes.run_id and nodes.id: every lookup scanned, and a self-join
-- of nodes with their parents was quadratic. Version 3 keys node_rows by
-- the real columns (run_id, id), indexes each finished run's parents, and
-- puts every table's key columns first (the sqlite3 shell of Debian 12,
-- SQLite 3.40, misreports "NULL value in ..." in its integrity check for a
-- WITHOUT ROWID table whose key columns are not its leading columns).
--
-- Upgrading an older file runs this script (after 002 for a version 1
-- file) in one transaction: it copies the node rows into the new table, so
-- a failed or killed upgrade leaves the file as it was.
--
-- Physical design (measured candidates in the README, "The trace file"):
-- node_rows WITHOUT ROWID keyed (run_id, id) with the packed columns of
-- versions 1 and 2, about 34.6 bytes a node: of their columns, beta is
-- stored as its distance from alpha and the stand pat as its distance from
-- the score (1 and 0 for most nodes, which SQLite stores in no bytes), and
-- info's fields are reordered so a QS node's fits in 4 bytes, not 6 (versions
-- 1 and 2's columns as they were cost 39). Children through nodes.parent_id
-- seek on a partial index per run, node_parent_<run> on (id - up) WHERE run_id =
-- <run>, which the recorder builds when a run of 100,000 rows or more
-- finishes (smaller runs are read through the key fast enough): built sorted, it
-- costs about 13 bytes a node and 0.25 s a million nodes once, where a
-- global index kept up row by row halved the recording rate and took 15.
-- Horizon itself finds children by hopping over subtrees on the key, so it
-- needs no index, also while a run is recorded.

DROP VIEW nodes;

-- One node per row. Query it through the nodes view, which decodes info
-- and counts and names the codes; its run_id, id and parent_id are this
-- table's key and index, so lookups through the view seek.
CREATE TABLE node_rows2 (
    run_id INTEGER NOT NULL,  -- the run (runs.id)
    id INTEGER NOT NULL,      -- pre-order visit number within the run; the run node is 0
    up INTEGER NOT NULL,      -- id - parent_id (1 for the run node, whose parent is -1)
    size INTEGER NOT NULL,    -- subtree size: this node and its descendants, ids id .. id+size-1
    info INTEGER NOT NULL,    -- bits 0-2 kind, 3-4 bound, 5-9 cause, 10-18 ply, 19-26 depth+128,
                              -- 27-33 qs_ply+1 (0 outside QS), 34-40 qs_level+1, 41 in check,
                              -- 42 incomplete, 43-46 extension
    counts INTEGER NOT NULL,  -- bits 0-7 moves generated, 8-15 moves searched, 16-23 cut index+1 (0: no cutoff); 255 caps;
                              -- bit 24: a placeholder, written for a node still open (its size covers the rows written so far)
    alpha INTEGER NOT NULL,   -- window on entry: alpha ..
    width INTEGER NOT NULL,   -- .. beta = alpha + width
    score INTEGER NOT NULL,   -- score returned, side to move's view
    stand_diff INTEGER,       -- score - stand pat (the static eval the node computed); NULL when not evaluated
    move INTEGER NOT NULL,    -- move from the parent, engine.Move code (0: none)
    best INTEGER NOT NULL,    -- best move, engine.Move code (0: none)
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

-- Versions 1 and 2 had no QS ply; a QS node's depth there is minus its distance
-- from the QS root (depth 0 at the horizon), so qs_ply = -depth. Their info
-- held qs_level+1 in bits 27-33, in check 34, incomplete 35, extension 36-39.
INSERT INTO node_rows2 (run_id, id, up, size, info, counts, alpha, width, score, stand_diff, move, best)
SELECT k >> 32, k & 4294967295, up, size,
       (info & 134217727)
         | (CASE WHEN (info & 7) = 4 THEN min(1 - (((info >> 19) & 255) - 128), 127) ELSE 0 END << 27)
         | (((info >> 27) & 127) << 34) | (((info >> 34) & 3) << 41) | (((info >> 36) & 15) << 43),
       counts, alpha, beta - alpha, score, score - stand_pat, move, best
FROM node_rows ORDER BY k;

DROP TABLE node_rows;
ALTER TABLE node_rows2 RENAME TO node_rows;

-- Iteration roots, key first.
CREATE TABLE iterations2 (
    run_id INTEGER NOT NULL REFERENCES runs(id), -- the run
    root_id INTEGER NOT NULL,   -- id of the iteration's root node
    iteration INTEGER NOT NULL, -- nominal depth of the iteration
    PRIMARY KEY (run_id, root_id)
) WITHOUT ROWID;
INSERT INTO iterations2 (run_id, root_id, iteration) SELECT run_id, root_id, iteration FROM iterations;
DROP TABLE iterations;
ALTER TABLE iterations2 RENAME TO iterations;

-- The recorder that writes a run, and what it has written so far. SQLite
-- keeps an added column's comment only inside its statement, and a --
-- comment there would end the CREATE TABLE it rewrites: they are /* */.
ALTER TABLE runs ADD COLUMN writer TEXT /* the recording process (boot id, pid, start time) while status is running */;
ALTER TABLE runs ADD COLUMN summary_at TEXT /* when the recorder last stored stats and hotspots (live runs too) */;
ALTER TABLE runs ADD COLUMN file_bytes INTEGER NOT NULL DEFAULT 0 /* the file's size when the run last committed */;

-- The node table with every field decoded, under names users can rely on.
-- run_id and id are the table's key, and parent_id (id - up) is indexed per
-- finished run of 100,000 rows or more: lookups by them seek (write the run id as a literal, as in
-- "WHERE run_id = 3 AND parent_id = 1234", so SQLite can pick the run's
-- index), and joining nodes to their parents is a key lookup per row.
--   run_id       the run (runs.id)
--   id           pre-order visit number within the run; the run node is 0
--   parent_id    the parent's id; -1 for the run node
--   ply          distance from the iteration root (run and iteration roots: 0)
--   iteration    nominal depth of the iteration the node belongs to (run node: 0)
--   move         move from the parent in UCI (e2e4, e7e8q); 0000 for a null move; NULL for run and iteration roots
--   depth        remaining depth on entry; <= 0 in QS
--   alpha, beta  the window on entry
--   kind         kinds.name: run, root, pv, nonpv, qs
--   qs_ply       distance from the QS root (0 at the QS root); NULL outside QS
--   qs_level     the engine's QS level (threshold variant); NULL where it has none
--   in_check     1 when the side to move is in check
--   stand_pat    static eval the node computed; NULL when it computed none
--   score        score returned, side to move's view
--   bound        bounds.name: upper (fail low), lower (fail high), exact, none
--   cutoff       causes.name: why the node stopped or how it got its score
--   cut_index    index in the move ordering of the move that failed high; -1 if none
--   best         best move in UCI; NULL if none
--   generated    moves generated (after the variant's move filter), capped at 255
--   searched     moves searched, capped at 255
--   extension    plies of extension the move into this node got
--   subtree_size the node and its descendants: ids id .. id+subtree_size-1
--   incomplete   1 when the search stopped while the node was open
CREATE VIEW nodes AS
SELECT
    n.run_id AS run_id,
    n.id AS id,
    n.id - n.up AS parent_id,
    (n.info >> 10) & 511 AS ply,
    coalesce((SELECT i.iteration FROM iterations i
              WHERE i.run_id = n.run_id AND i.root_id <= n.id
              ORDER BY i.root_id DESC LIMIT 1), 0) AS iteration,
    CASE n.move WHEN 0 THEN NULL WHEN 98304 THEN '0000' ELSE
        char(97 + (n.move & 7), 49 + ((n.move >> 3) & 7), 97 + ((n.move >> 6) & 7), 49 + ((n.move >> 9) & 7))
        || substr(' pnbrqk', 1 + ((n.move >> 12) & 7), 1 - (((n.move >> 12) & 7) = 0)) END AS move,
    ((n.info >> 19) & 255) - 128 AS depth,
    n.alpha AS alpha,
    n.alpha + n.width AS beta,
    (SELECT name FROM kinds WHERE code = n.info & 7) AS kind,
    nullif((n.info >> 27) & 127, 0) - 1 AS qs_ply,
    nullif((n.info >> 34) & 127, 0) - 1 AS qs_level,
    (n.info >> 41) & 1 AS in_check,
    n.score - n.stand_diff AS stand_pat,
    n.score AS score,
    (SELECT name FROM bounds WHERE code = (n.info >> 3) & 3) AS bound,
    (SELECT name FROM causes WHERE code = (n.info >> 5) & 31) AS cutoff,
    ((n.counts >> 16) & 255) - 1 AS cut_index,
    CASE n.best WHEN 0 THEN NULL WHEN 98304 THEN '0000' ELSE
        char(97 + (n.best & 7), 49 + ((n.best >> 3) & 7), 97 + ((n.best >> 6) & 7), 49 + ((n.best >> 9) & 7))
        || substr(' pnbrqk', 1 + ((n.best >> 12) & 7), 1 - (((n.best >> 12) & 7) = 0)) END AS best,
    n.counts & 255 AS generated,
    (n.counts >> 8) & 255 AS searched,
    (n.info >> 43) & 15 AS extension,
    n.size AS subtree_size,
    (n.info >> 42) & 1 AS incomplete
FROM node_rows n;
