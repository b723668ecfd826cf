-- Horizon trace schema, version 2: runs of other engines.
--
-- Horizon records the searches of other engines too (`horizon trace
-- --engine`, `horizon import`): their runs say which engine searched and
-- whether it returns fail-hard or fail-soft scores, so that readers apply
-- only the rules that hold for that engine.

-- The engine that searched: NULL for Horizon's own engine, else the other
-- engine's name (its UCI `id name`).
ALTER TABLE runs ADD COLUMN engine TEXT;
-- 1 when the engine declared fail-hard scores (every score within the
-- node's window), 0 for fail-soft (and for Horizon's engine).
ALTER TABLE runs ADD COLUMN fail_hard INTEGER NOT NULL DEFAULT 0;
