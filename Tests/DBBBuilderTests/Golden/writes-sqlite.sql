-- values, NULL and an expression
UPDATE Visit SET modifiedTime = ?1, page = ?2, referrer = ?3, clicks = CASE WHEN typeof(((clicks * ?4) + ?5)) = 'integer' THEN (clicks * ?4) + ?5 ELSE abs(-9223372036854775807 - 1) END WHERE (seconds > ?6) AND (page <> ?2)
-- arguments: ["now", "\'\'\'; DROP TABLE \"Visit\"; --\'", "NULL", "2", "1", "10.0"]
-- an optional set from an expression, every row
UPDATE Visit SET modifiedTime = ?1, referrer = COALESCE(referrer, ?2) || ?3 WHERE (1 = 1)
-- arguments: ["now", "\'\'", "\'?\'"]
-- Decimal and UUID take their column's placeholder
UPDATE Voucher SET modifiedTime = ?1, amount = ?2, reference = ?3 WHERE amount COLLATE dbb_decimal < ?2
-- arguments: ["now", "\'10.5\'", "\'0f0f0f0f-0000-0000-0000-000000000001\'"]
-- an update by reference and array
UPDATE Volume SET modifiedTime = ?1, year = ?2 WHERE ((SELECT author FROM Volume_author WHERE Volume_ID = Volume.id LIMIT 1) = ?3) OR EXISTS (SELECT 1 FROM Volume_tags WHERE Volume_tags.Volume_ID = Volume.id AND (Volume_tags.tags = ?4))
-- arguments: ["now", "1968", "1", "\'formal\'"]
-- a delete
DELETE FROM Visit WHERE (clicks = ?1) AND (day IS NULL)
-- arguments: ["0"]
-- a delete by array and subquery
DELETE FROM Volume WHERE (NOT (EXISTS (SELECT 1 FROM Volume_tags WHERE Volume_tags.Volume_ID = Volume.id AND (Volume_tags.tags = ?1)))) AND (year IN (SELECT clicks FROM Visit))
-- arguments: ["\'keep\'"]
-- a delete of every row
DELETE FROM Visit WHERE (1 = 1)
-- arguments: []
