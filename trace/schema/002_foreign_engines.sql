-- Horizon trace schema, version 2: runs of other engines.
--
-- Horizon records the searches of other engines too (`horizon trace
-- --engine`, `horizon import`): their runs say which engine searched and
-- whether it returns fail-hard or fail-soft scores, so that readers apply
-- only the rules that hold for that engine.

-- SQLite keeps an added column's comment only inside its statement, and a
-- -- comment there would end the CREATE TABLE it rewrites: they are /* */.
ALTER TABLE runs ADD COLUMN engine TEXT /* NULL for Horizon's own engine, else the other engine's name (its UCI id name) */;
ALTER TABLE runs ADD COLUMN fail_hard INTEGER NOT NULL DEFAULT 0 /* 1: the engine declared fail-hard scores (each within the node's window); 0: fail-soft, and Horizon's */;
