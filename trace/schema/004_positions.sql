-- Horizon trace schema, version 4: a run's nodes are positions.
--
-- runs.nodes counts the positions the search visited, as engines count
-- nodes (UCI 'info nodes'); the run node Horizon adds as the parent of the
-- iterations (id 0, kind 'run') is not one. Up to version 3 it was counted,
-- so an unfiltered run had as many rows as nodes; now it has one more.
UPDATE runs SET nodes = nodes - 1 WHERE nodes > 0;
