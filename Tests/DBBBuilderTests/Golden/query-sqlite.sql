-- comparisons and logic
SELECT id FROM Visit WHERE (seconds > ?1) AND ((page = ?2) OR (NOT (clicks < ?3)))
-- arguments: [10.0, '/', 3]
-- the key columns
SELECT id FROM Visit WHERE (id > ?1) AND (createdTime IS NOT NULL) AND (modifiedTime IS NULL)
-- arguments: [0]
-- IN, NOT IN, empty IN
SELECT id FROM Visit WHERE (clicks IN (?1, ?2)) AND (page NOT IN (?3)) AND (1 = 0)
-- arguments: [1, 2, '/a']
-- empty NOT IN
SELECT id FROM Visit WHERE 1 = 1
-- arguments: []
-- LIKE, case-sensitive
SELECT id FROM Visit WHERE page GLOB ?1
-- arguments: ['/blog/*?1%']
-- LIKE ignoring ASCII case
SELECT id FROM Visit WHERE referrer LIKE ?1 ESCAPE '\'
-- arguments: ['Ab*?[c%']
-- an array under OR and NOT
SELECT id FROM Visit WHERE EXISTS (SELECT 1 FROM Visit_tags WHERE Visit_tags.Visit_ID = Visit.id AND (Visit_tags.tags = ?1)) OR (NOT (EXISTS (SELECT 1 FROM Visit_tags WHERE Visit_tags.Visit_ID = Visit.id AND (Visit_tags.tags = ?2))))
-- arguments: ['new', 'old']
-- an array without elements
SELECT id FROM Visit WHERE (NOT EXISTS (SELECT 1 FROM Visit_tags WHERE Visit_tags.Visit_ID = Visit.id)) OR (page = ?1)
-- arguments: ['''; DROP TABLE "Visit"; --']
-- arithmetic, text and COALESCE
SELECT id FROM Visit WHERE (((clicks * ?1) + ?2) > (clicks / ?3)) AND ((-(clicks)) < ?4) AND ((page || ?5) = ?6) AND (COALESCE(referrer, ?7) <> ?7)
-- arguments: [2, 1, 3, 0, '?', '/?', 'none']
-- the same value twice is one parameter
SELECT id FROM Visit WHERE (page = ?1) OR (referrer = ?1)
-- arguments: ['/']
-- a reference, an array, IN a subquery, EXISTS
SELECT title FROM Volume WHERE ((SELECT author FROM Volume_author WHERE Volume_ID = Volume.id LIMIT 1) = ?1) OR EXISTS (SELECT 1 FROM Volume_tags WHERE Volume_tags.Volume_ID = Volume.id AND (Volume_tags.tags = ?2)) OR (year IN (SELECT clicks FROM Visit WHERE seconds > ?3)) OR EXISTS (SELECT COUNT(*) FROM Writer WHERE name = ?4)
-- arguments: [1, 'formal', 1.0, 'Knuth']
-- aggregates, grouping, HAVING, order, page
SELECT page, COUNT(*), COUNT(DISTINCT referrer), SUM(clicks), SUM(seconds), AVG(clicks), MIN(day), MAX(seconds) FROM Visit WHERE clicks >= ?1 GROUP BY page HAVING (COUNT(*) > ?2) AND (SUM(clicks) > ?3) ORDER BY SUM(clicks) DESC, page ASC LIMIT ?3 OFFSET ?4
-- arguments: [0, 1, 10, 20]
-- DISTINCT and an offset alone
SELECT DISTINCT page FROM Visit LIMIT ?1 OFFSET ?2
-- arguments: [9223372036854775807, 5]
-- the calendar in select, group, order and HAVING
SELECT dbb_week(day, ?1), dbb_week_start(day, ?1), COUNT(*) FROM Visit GROUP BY dbb_week(day, ?1), dbb_week_start(day, ?1) HAVING dbb_week(day, ?1) IS NOT NULL ORDER BY dbb_week(day, ?1) ASC
-- arguments: ['ru_RU']
-- quarters, half-years, spans and formats
SELECT CASE WHEN day IS NULL THEN NULL ELSE ObjcGetYearAndQuarterUsingLocale(day, ?1) END, CASE WHEN day IS NULL THEN NULL ELSE ObjcGetYearAndHalfYearUsingLocale(day, ?1, ?2, ?3, 'short') END, dbb_align(day, 'quarter', ?4, 'start'), dbb_align(day, 'halfyear', ?4, 'end'), CASE WHEN day IS NULL THEN NULL ELSE dbb_format_date(?5, day, ?6) END FROM Visit WHERE CASE WHEN createdTime IS NULL THEN NULL ELSE dbb_format_date(?7, createdTime, ?4) END = ?8
-- arguments: ['de_DE', '1. HJ %@', 'H2 %@', 'en_US', 'LLLL yyyy', 'ru_RU', 'yyyy', '2024']
-- Decimal and UUID take their column's placeholder
SELECT amount FROM Voucher WHERE (amount COLLATE dbb_decimal > ?1) AND (reference COLLATE NOCASE = ?2)
-- arguments: ['10.5', '0f0f0f0f-0000-0000-0000-000000000001']
-- joins: a reference inner and left, the same class twice, across WHERE, GROUP BY, HAVING, ORDER BY
SELECT Novel.id, "Novel.author".id, "Novel.author".name, "Novel.editor?".name, CASE WHEN Novel.published IS NULL THEN NULL ELSE ObjcGetYearAndQuarterUsingLocale(Novel.published, ?1) END, COUNT(*) FROM Novel JOIN Novel_author AS "Novel.author#" ON "Novel.author#".Novel_ID = Novel.id JOIN Penman AS "Novel.author" ON "Novel.author".id = "Novel.author#".author LEFT JOIN Novel_editor AS "Novel.editor?#" ON "Novel.editor?#".Novel_ID = Novel.id LEFT JOIN Penman AS "Novel.editor?" ON "Novel.editor?".id = "Novel.editor?#".editor WHERE ("Novel.author".name <> ?2) AND ("Novel.editor?".country GLOB ?3) GROUP BY Novel.id, "Novel.author".id, "Novel.author".name, "Novel.editor?".name, CASE WHEN Novel.published IS NULL THEN NULL ELSE ObjcGetYearAndQuarterUsingLocale(Novel.published, ?1) END HAVING MAX("Novel.author".born) > ?4 ORDER BY "Novel.author".name ASC, "Novel.editor?".name DESC
-- arguments: ['de_DE', '''; DROP TABLE "Penman"; --', 'U*', 1900]
-- a class joined to itself, and onward from a join
SELECT Penman.name, "Penman.mentor?".name, "Penman.mentor?.mentor?".name FROM Penman LEFT JOIN Penman_mentor AS "Penman.mentor?#" ON "Penman.mentor?#".Penman_ID = Penman.id LEFT JOIN Penman AS "Penman.mentor?" ON "Penman.mentor?".id = "Penman.mentor?#".mentor LEFT JOIN Penman_mentor AS "Penman.mentor?.mentor?#" ON "Penman.mentor?.mentor?#".Penman_ID = "Penman.mentor?".id LEFT JOIN Penman AS "Penman.mentor?.mentor?" ON "Penman.mentor?.mentor?".id = "Penman.mentor?.mentor?#".mentor WHERE ("Penman.mentor?".born < ?1) OR ("Penman.mentor?".country IS NULL)
-- arguments: [1900]
-- an array of objects, left, with COUNT(DISTINCT) and an expression of the joined class
SELECT Crew.name, COUNT(DISTINCT "Crew.members?".id), SUM("Crew.members?".born), MAX("Crew.members?".born) FROM Crew LEFT JOIN Crew_members AS "Crew.members?#" ON "Crew.members?#".Crew_ID = Crew.id LEFT JOIN Penman AS "Crew.members?" ON "Crew.members?".id = "Crew.members?#".members GROUP BY Crew.name
-- arguments: []
-- a join made without reading through it
SELECT COUNT(*) FROM Crew JOIN Crew_members AS "Crew.members#" ON "Crew.members#".Crew_ID = Crew.id JOIN Penman AS "Crew.members" ON "Crew.members".id = "Crew.members#".members
-- arguments: []
-- a chain of joins longer than the dialect's names
SELECT "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor".name FROM Penman JOIN Penman_mentor AS "Penman.mentor#" ON "Penman.mentor#".Penman_ID = Penman.id JOIN Penman AS "Penman.mentor" ON "Penman.mentor".id = "Penman.mentor#".mentor JOIN Penman_mentor AS "Penman.mentor.mentor#" ON "Penman.mentor.mentor#".Penman_ID = "Penman.mentor".id JOIN Penman AS "Penman.mentor.mentor" ON "Penman.mentor.mentor".id = "Penman.mentor.mentor#".mentor JOIN Penman_mentor AS "Penman.mentor.mentor.mentor#" ON "Penman.mentor.mentor.mentor#".Penman_ID = "Penman.mentor.mentor".id JOIN Penman AS "Penman.mentor.mentor.mentor" ON "Penman.mentor.mentor.mentor".id = "Penman.mentor.mentor.mentor#".mentor JOIN Penman_mentor AS "Penman.mentor.mentor.mentor.mentor#" ON "Penman.mentor.mentor.mentor.mentor#".Penman_ID = "Penman.mentor.mentor.mentor".id JOIN Penman AS "Penman.mentor.mentor.mentor.mentor" ON "Penman.mentor.mentor.mentor.mentor".id = "Penman.mentor.mentor.mentor.mentor#".mentor JOIN Penman_mentor AS "Penman.mentor.mentor.mentor.mentor.mentor#" ON "Penman.mentor.mentor.mentor.mentor.mentor#".Penman_ID = "Penman.mentor.mentor.mentor.mentor".id JOIN Penman AS "Penman.mentor.mentor.mentor.mentor.mentor" ON "Penman.mentor.mentor.mentor.mentor.mentor".id = "Penman.mentor.mentor.mentor.mentor.mentor#".mentor JOIN Penman_mentor AS "Penman.mentor.mentor.mentor.mentor.mentor.mentor#" ON "Penman.mentor.mentor.mentor.mentor.mentor.mentor#".Penman_ID = "Penman.mentor.mentor.mentor.mentor.mentor".id JOIN Penman AS "Penman.mentor.mentor.mentor.mentor.mentor.mentor" ON "Penman.mentor.mentor.mentor.mentor.mentor.mentor".id = "Penman.mentor.mentor.mentor.mentor.mentor.mentor#".mentor JOIN Penman_mentor AS "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor#" ON "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor#".Penman_ID = "Penman.mentor.mentor.mentor.mentor.mentor.mentor".id JOIN Penman AS "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor" ON "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor".id = "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor#".mentor JOIN Penman_mentor AS "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor#" ON "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor#".Penman_ID = "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor".id JOIN Penman AS "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor" ON "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor".id = "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor#".mentor JOIN Penman_mentor AS "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor#" ON "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor#".Penman_ID = "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor".id JOIN Penman AS "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor" ON "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor".id = "Penman.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor.mentor#".mentor
-- arguments: []
-- a typed fetch of objects
BEGIN DEFERRED TRANSACTION
SELECT id, createdTime, modifiedTime, clicks, day, page, referrer, seconds FROM Visit WHERE (id > ?1) OR EXISTS (SELECT 1 FROM Visit_tags WHERE Visit_tags.Visit_ID = Visit.id AND (Visit_tags.tags = ?2)) ORDER BY modifiedTime DESC, page ASC, id LIMIT 5 OFFSET 10
COMMIT TRANSACTION
-- a typed fetch of objects across joins: id IN a query with the joins, a sort by a joined value
BEGIN DEFERRED TRANSACTION
SELECT id, createdTime, modifiedTime, pages, published, title FROM Novel WHERE id IN (SELECT Novel.id FROM Novel JOIN Novel_author AS "Novel.author#" ON "Novel.author#".Novel_ID = Novel.id JOIN Penman AS "Novel.author" ON "Novel.author".id = "Novel.author#".author JOIN Penman_mentor AS "Novel.author.mentor#" ON "Novel.author.mentor#".Penman_ID = "Novel.author".id JOIN Penman AS "Novel.author.mentor" ON "Novel.author.mentor".id = "Novel.author.mentor#".mentor LEFT JOIN Novel_editor AS "Novel.editor?#" ON "Novel.editor?#".Novel_ID = Novel.id LEFT JOIN Penman AS "Novel.editor?" ON "Novel.editor?".id = "Novel.editor?#".editor WHERE ("Novel.author".name = ?1) OR ("Novel.editor?".id IS NULL)) ORDER BY (SELECT "Novel.author.mentor".name FROM Novel AS "Novel#" JOIN Novel_author AS "Novel.author#" ON "Novel.author#".Novel_ID = "Novel#".id JOIN Penman AS "Novel.author" ON "Novel.author".id = "Novel.author#".author JOIN Penman_mentor AS "Novel.author.mentor#" ON "Novel.author.mentor#".Penman_ID = "Novel.author".id JOIN Penman AS "Novel.author.mentor" ON "Novel.author.mentor".id = "Novel.author.mentor#".mentor WHERE "Novel#".id = Novel.id) ASC, pages DESC
COMMIT TRANSACTION
