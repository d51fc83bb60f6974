-- Marks a data step written in Go (ent/entdb/json_numbers.go,
-- repairJSONNumbers), run in this migration's transaction: every number
-- beyond float64's range stored in a JSON column before the transports
-- refused them (1e400 in metadata, issue 34) becomes the nearest finite
-- value, ±1.7976931348623157e308, so every list can read it again.
-- The schema does not change.
SELECT 1;
