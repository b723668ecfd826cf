-- Horizon trace schema, version 1.
--
-- A trace holds runs (one search of one position with one QS variant) and
-- every node each run visited. Node ids are pre-order visit numbers within a
-- run, so the subtree of node N is exactly the ids N .. N+subtree_size-1 and
-- the children of N are found by hopping: the first child is N+1, the next
-- one starts where the previous one's subtree ends. That is why there is no
-- parent index: the primary key already answers "children of N" and
-- "subtree of N" as range lookups, and a row stays near 40 bytes.
--
-- Query the stable names runs(...) and nodes(...) (a view that decodes the
-- compact table node_rows); the lookup tables kinds, bounds and causes
-- explain the codes.

-- Names of node kinds (engine.NodeKind), filled by Horizon when it opens
-- the file for writing.
CREATE TABLE kinds (
    code INTEGER PRIMARY KEY, -- the code stored in node rows
    name TEXT NOT NULL,       -- short name: run, root, pv, nonpv, qs
    meaning TEXT NOT NULL     -- one line of explanation
);

-- Names of score bounds (engine.Bound); exact = upper|lower.
CREATE TABLE bounds (
    code INTEGER PRIMARY KEY, -- the code stored in node rows
    name TEXT NOT NULL,       -- none, upper (fail low), lower (fail high), exact
    meaning TEXT NOT NULL     -- one line of explanation
);

-- Names of cutoff causes (engine.Cause): why a node stopped before trying
-- every move, or how it got its score without searching them.
CREATE TABLE causes (
    code INTEGER PRIMARY KEY, -- the code stored in node rows
    name TEXT NOT NULL,       -- beta, standpat, tt, delta, see, ...
    meaning TEXT NOT NULL     -- one line of explanation
);

-- One row per run: a search of one position with one QS variant.
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, -- run id; node rows carry it
    created TEXT NOT NULL,                -- when recording started, RFC 3339 UTC
    fen TEXT NOT NULL,                    -- root position
    variant TEXT NOT NULL,                -- QS variant name; another engine's run: the engine's name
    options TEXT NOT NULL,                -- every search option as JSON, to repeat the run exactly;
                                          -- another engine's run: what its stream declared (mate, infinity, ...)
    limits TEXT NOT NULL,                 -- depth, node limit, ... as JSON
    version TEXT NOT NULL,                -- Horizon version that recorded the run
    status TEXT NOT NULL,                 -- running, complete, interrupted (cancelled), truncated (a limit stopped
                                          -- the search before its depth: nodes, time, size), failed (write error);
                                          -- readers show a running run whose recorder died as abandoned
    filter TEXT NOT NULL DEFAULT '',      -- recording filter: '' (all nodes), 'last-iteration', 'under e2e4 e7e5', ...
    nodes INTEGER NOT NULL DEFAULT 0,     -- positions the search visited (UCI info nodes): an unfiltered run has
                                          -- one row more, the run node; a filtered one fewer rows
    qs_nodes INTEGER NOT NULL DEFAULT 0,  -- of them, quiescence nodes
    rows INTEGER NOT NULL DEFAULT 0,      -- node rows stored for this run
    max_ply INTEGER NOT NULL DEFAULT 0,   -- deepest ply reached
    max_qs_ply INTEGER NOT NULL DEFAULT 0,-- deepest QS node's distance in plies from its QS root
    elapsed_ms INTEGER NOT NULL DEFAULT 0,-- wall time of the search; 0 until it ends, or when not known
    best_move TEXT,                       -- UCI; NULL when none
    score INTEGER,                        -- the reported root's score, side to move's view, in the engine's units:
                                          -- Horizon's centipawns (a mate k plies away: 31000 - k), another
                                          -- engine's own numbers (its mates and infinity as declared in options);
                                          -- NULL when the search gave no answer
    pv TEXT,                              -- principal variation, UCI moves separated by spaces
    depth INTEGER                         -- last completed iteration
);

-- The compact node table: one row per node, fields packed into integers so
-- a row costs about 40 bytes. Read it through the nodes view unless you
-- need the speed.
CREATE TABLE node_rows (
    k INTEGER PRIMARY KEY, -- run_id << 32 | id (id: pre-order visit number within the run, run node = 0)
    up INTEGER NOT NULL,   -- id - parent_id (1 for the run node, whose parent is -1)
    size INTEGER NOT NULL, -- subtree size: this node and its descendants, ids id .. id+size-1
    info INTEGER NOT NULL, -- bits 0-2 kind, 3-4 bound, 5-9 cause, 10-18 ply, 19-26 depth+128,
                           -- 27-33 qs_level+1, 34 in check, 35 incomplete, 36-39 extension
    counts INTEGER NOT NULL, -- bits 0-7 moves generated, 8-15 moves searched, 16-23 cut index+1 (0: no cutoff); 255 caps
    alpha INTEGER NOT NULL,  -- window on entry
    beta INTEGER NOT NULL,
    score INTEGER NOT NULL,  -- score returned, side to move's view
    stand_pat INTEGER,       -- static eval the node computed (stand pat in QS); NULL when not evaluated
    move INTEGER NOT NULL,   -- move from the parent, engine.Move code (0: none)
    best INTEGER NOT NULL    -- best move, engine.Move code (0: none)
);

-- The iteration roots of each run, written as each iteration starts, so
-- every node's iteration is one lookup (also while a run is still being
-- recorded): a node belongs to the iteration whose root_id is the largest
-- one not above its id. The root's row in node_rows has its subtree size.
CREATE TABLE iterations (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    iteration INTEGER NOT NULL, -- nominal depth of the iteration
    root_id INTEGER NOT NULL,   -- id of the iteration's root node
    PRIMARY KEY (run_id, root_id)
) WITHOUT ROWID;

-- Summary counts of a run's rows, kept up to date by the recorder.
-- dim is 'ply' (value = ply), 'qs_ply' (value = distance from the QS root),
-- 'qs_level' (value = engine QS level) or 'iteration' (value = nominal depth).
CREATE TABLE stats (
    run_id INTEGER NOT NULL REFERENCES runs(id), -- the run
    dim TEXT NOT NULL,            -- what value counts: ply, qs_ply, qs_level, iteration
    value INTEGER NOT NULL,       -- the ply, QS ply, level or iteration
    nodes INTEGER NOT NULL,       -- rows with that value
    qs_nodes INTEGER NOT NULL,    -- of them, QS nodes
    root_id INTEGER,              -- for dim = 'iteration': the iteration root's id
    PRIMARY KEY (run_id, dim, value)
) WITHOUT ROWID;

-- The biggest nodes of a run, kept up to date by the recorder.
-- rank_by 'size': QS roots (first QS node below a full-width node) by
-- subtree size; 'chain': extension chains' top nodes by subtree size (rank
-- 0 counts the run's chains); 'growth': full-width nodes by
-- subtree_size^(1/(depth+1)).
CREATE TABLE hotspots (
    run_id INTEGER NOT NULL REFERENCES runs(id), -- the run
    rank_by TEXT NOT NULL,  -- size (QS trees), chain (extension chains) or growth (full-width nodes)
    rank INTEGER NOT NULL,  -- 1 = biggest; rank 0 of chain: the count of the run's chains
    node_id INTEGER NOT NULL, -- the ranked node (-1 for rank 0 of chain)
    growth REAL NOT NULL,   -- growth: subtree_size^(1/(max(depth,0)+1)); size and chain: the subtree size;
                            -- rank 0 of chain: the chains' count
    PRIMARY KEY (run_id, rank_by, rank)
) WITHOUT ROWID;

-- The node table with every field decoded, under names users can rely on.
-- Filtering on run_id and id ranges is fastest through node_rows.k
-- (run_id << 32 | id), as the view's columns are computed, but works here.
--   run_id       the run (runs.id)
--   id           pre-order visit number within the run; the run node is 0
--   parent_id    the parent's id; -1 for the run node
--   ply          distance from the iteration root (run and iteration roots: 0)
--   iteration    nominal depth of the iteration the node belongs to (run node: 0)
--   move         move from the parent in UCI (e2e4, e7e8q); NULL for run and iteration roots
--   depth        remaining depth on entry; <= 0 in QS
--   alpha, beta  the window on entry
--   kind         kinds.name: run, root, pv, nonpv, qs
--   qs_level     the engine's QS level (threshold variant), -1 outside QS
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
    n.k >> 32 AS run_id,
    n.k & 4294967295 AS id,
    (n.k & 4294967295) - n.up AS parent_id,
    (n.info >> 10) & 511 AS ply,
    coalesce((SELECT i.iteration FROM iterations i
              WHERE i.run_id = n.k >> 32 AND i.root_id <= (n.k & 4294967295)
              ORDER BY i.root_id DESC LIMIT 1), 0) AS iteration,
    CASE WHEN n.move = 0 THEN NULL ELSE
        char(97 + (n.move & 7), 49 + ((n.move >> 3) & 7), 97 + ((n.move >> 6) & 7), 49 + ((n.move >> 9) & 7))
        || substr(' pnbrqk', 1 + ((n.move >> 12) & 7), 1 - (((n.move >> 12) & 7) = 0)) END AS move,
    ((n.info >> 19) & 255) - 128 AS depth,
    n.alpha AS alpha,
    n.beta AS beta,
    (SELECT name FROM kinds WHERE code = n.info & 7) AS kind,
    ((n.info >> 27) & 127) - 1 AS qs_level,
    (n.info >> 34) & 1 AS in_check,
    n.stand_pat AS stand_pat,
    n.score AS score,
    (SELECT name FROM bounds WHERE code = (n.info >> 3) & 3) AS bound,
    (SELECT name FROM causes WHERE code = (n.info >> 5) & 31) AS cutoff,
    ((n.counts >> 16) & 255) - 1 AS cut_index,
    CASE WHEN n.best = 0 THEN NULL ELSE
        char(97 + (n.best & 7), 49 + ((n.best >> 3) & 7), 97 + ((n.best >> 6) & 7), 49 + ((n.best >> 9) & 7))
        || substr(' pnbrqk', 1 + ((n.best >> 12) & 7), 1 - (((n.best >> 12) & 7) = 0)) END AS best,
    n.counts & 255 AS generated,
    (n.counts >> 8) & 255 AS searched,
    (n.info >> 36) & 15 AS extension,
    n.size AS subtree_size,
    (n.info >> 35) & 1 AS incomplete
FROM node_rows n;
