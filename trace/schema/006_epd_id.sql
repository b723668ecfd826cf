-- Horizon trace schema, version 6: which EPD record a run searched.
--
-- A suite traced from an EPD file (trace --epd, compare --epd, trace
-- --engine --epd) is one run per record; the record's id opcode
-- ("WAC.002") names the position as the suite and its users do, where the
-- FEN alone does not. NULL for a run given its position by FEN, for a
-- record without an id, for a stream read by horizon import (its position
-- record has none), for a run of trace --engine whose engine searched
-- another position than the record's, and for every run recorded before
-- version 6.

-- An added column's comment is /* */: see 002_foreign_engines.sql.
ALTER TABLE runs ADD COLUMN epd_id TEXT /* the id opcode of the EPD record whose position the run searched; NULL when none */;
