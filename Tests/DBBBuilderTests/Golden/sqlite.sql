-- section: register: tables, join tables, indexes, triggers
BEGIN IMMEDIATE TRANSACTION
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='dbb_columns'
SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index', 'view') AND name COLLATE NOCASE IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Venture'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Venture_projectLead'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Venture_subProject'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Venture_tags'
SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index', 'view') AND name COLLATE NOCASE IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_birthdays'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_children'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_company'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_luckyNumbers'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_nicknames'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_spouse'
SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index', 'view') AND name COLLATE NOCASE IN (?, ?, ?, ?, ?, ?, ?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Company'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Company_blurb'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Company_suppliers'
CREATE TABLE IF NOT EXISTS Venture (id Integer PRIMARY KEY AUTOINCREMENT, createdTime Real, modifiedTime Real, name Text)
CREATE TABLE IF NOT EXISTS Member (id Integer PRIMARY KEY AUTOINCREMENT, createdTime Real, modifiedTime Real, age Integer, firstName Text, lastName Text)
CREATE TABLE IF NOT EXISTS Company (id Integer PRIMARY KEY AUTOINCREMENT, createdTime Real, modifiedTime Real, name Text)
CREATE TABLE IF NOT EXISTS Venture_projectLead (id Integer PRIMARY KEY AUTOINCREMENT, Venture_ID Integer, projectLead Integer)
CREATE INDEX IF NOT EXISTS Venture_projectLead_idx ON Venture_projectLead (Venture_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Venture_projectLead WHERE Venture_ID NOT IN (SELECT id FROM Venture)
CREATE TRIGGER IF NOT EXISTS Venture_projectLead_owner_deleted AFTER DELETE ON Venture BEGIN DELETE FROM Venture_projectLead WHERE Venture_ID = OLD.id; END
CREATE INDEX IF NOT EXISTS Venture_projectLead_target_idx ON Venture_projectLead (projectLead)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Venture_projectLead WHERE projectLead NOT IN (SELECT id FROM Member)
CREATE TRIGGER IF NOT EXISTS Venture_projectLead_target_deleted AFTER DELETE ON Member BEGIN DELETE FROM Venture_projectLead WHERE projectLead = OLD.id; END
CREATE TABLE IF NOT EXISTS Venture_subProject (id Integer PRIMARY KEY AUTOINCREMENT, Venture_ID Integer, subProject Integer)
CREATE INDEX IF NOT EXISTS Venture_subProject_idx ON Venture_subProject (Venture_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Venture_subProject WHERE Venture_ID NOT IN (SELECT id FROM Venture)
CREATE TRIGGER IF NOT EXISTS Venture_subProject_owner_deleted AFTER DELETE ON Venture BEGIN DELETE FROM Venture_subProject WHERE Venture_ID = OLD.id; END
CREATE INDEX IF NOT EXISTS Venture_subProject_target_idx ON Venture_subProject (subProject)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Venture_subProject WHERE subProject NOT IN (SELECT id FROM Venture)
CREATE TRIGGER IF NOT EXISTS Venture_subProject_target_deleted AFTER DELETE ON Venture BEGIN DELETE FROM Venture_subProject WHERE subProject = OLD.id; END
CREATE TABLE IF NOT EXISTS Venture_tags (id Integer PRIMARY KEY AUTOINCREMENT, Venture_ID Integer, tags Text)
CREATE INDEX IF NOT EXISTS Venture_tags_idx ON Venture_tags (Venture_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Venture_tags WHERE Venture_ID NOT IN (SELECT id FROM Venture)
CREATE TRIGGER IF NOT EXISTS Venture_tags_owner_deleted AFTER DELETE ON Venture BEGIN DELETE FROM Venture_tags WHERE Venture_ID = OLD.id; END
CREATE TABLE IF NOT EXISTS Member_birthdays (id Integer PRIMARY KEY AUTOINCREMENT, Member_ID Integer, birthdays DateTimeStamp)
CREATE INDEX IF NOT EXISTS Member_birthdays_idx ON Member_birthdays (Member_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Member_birthdays WHERE Member_ID NOT IN (SELECT id FROM Member)
CREATE TRIGGER IF NOT EXISTS Member_birthdays_owner_deleted AFTER DELETE ON Member BEGIN DELETE FROM Member_birthdays WHERE Member_ID = OLD.id; END
CREATE TABLE IF NOT EXISTS Member_children (id Integer PRIMARY KEY AUTOINCREMENT, Member_ID Integer, children Integer)
CREATE INDEX IF NOT EXISTS Member_children_idx ON Member_children (Member_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Member_children WHERE Member_ID NOT IN (SELECT id FROM Member)
CREATE TRIGGER IF NOT EXISTS Member_children_owner_deleted AFTER DELETE ON Member BEGIN DELETE FROM Member_children WHERE Member_ID = OLD.id; END
CREATE INDEX IF NOT EXISTS Member_children_target_idx ON Member_children (children)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Member_children WHERE children NOT IN (SELECT id FROM Member)
CREATE TRIGGER IF NOT EXISTS Member_children_target_deleted AFTER DELETE ON Member BEGIN DELETE FROM Member_children WHERE children = OLD.id; END
CREATE TABLE IF NOT EXISTS Member_company (id Integer PRIMARY KEY AUTOINCREMENT, Member_ID Integer, company Integer)
CREATE INDEX IF NOT EXISTS Member_employer_idx ON Member_company (Member_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Member_company WHERE Member_ID NOT IN (SELECT id FROM Member)
CREATE TRIGGER IF NOT EXISTS Member_company_owner_deleted AFTER DELETE ON Member BEGIN DELETE FROM Member_company WHERE Member_ID = OLD.id; END
CREATE INDEX IF NOT EXISTS Member_company_target_idx ON Member_company (company)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Member_company WHERE company NOT IN (SELECT id FROM Company)
CREATE TRIGGER IF NOT EXISTS Member_company_target_deleted AFTER DELETE ON Company BEGIN DELETE FROM Member_company WHERE company = OLD.id; END
CREATE TABLE IF NOT EXISTS Member_luckyNumbers (id Integer PRIMARY KEY AUTOINCREMENT, Member_ID Integer, luckyNumbers Integer)
CREATE INDEX IF NOT EXISTS Member_luckyNumbers_idx ON Member_luckyNumbers (Member_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Member_luckyNumbers WHERE Member_ID NOT IN (SELECT id FROM Member)
CREATE TRIGGER IF NOT EXISTS Member_luckyNumbers_owner_deleted AFTER DELETE ON Member BEGIN DELETE FROM Member_luckyNumbers WHERE Member_ID = OLD.id; END
CREATE TABLE IF NOT EXISTS Member_nicknames (id Integer PRIMARY KEY AUTOINCREMENT, Member_ID Integer, nicknames Text)
CREATE INDEX IF NOT EXISTS Member_nicknames_idx ON Member_nicknames (Member_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Member_nicknames WHERE Member_ID NOT IN (SELECT id FROM Member)
CREATE TRIGGER IF NOT EXISTS Member_nicknames_owner_deleted AFTER DELETE ON Member BEGIN DELETE FROM Member_nicknames WHERE Member_ID = OLD.id; END
CREATE TABLE IF NOT EXISTS Member_spouse (id Integer PRIMARY KEY AUTOINCREMENT, Member_ID Integer, spouse Integer)
CREATE INDEX IF NOT EXISTS Member_spouse_idx ON Member_spouse (Member_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Member_spouse WHERE Member_ID NOT IN (SELECT id FROM Member)
CREATE TRIGGER IF NOT EXISTS Member_spouse_owner_deleted AFTER DELETE ON Member BEGIN DELETE FROM Member_spouse WHERE Member_ID = OLD.id; END
CREATE INDEX IF NOT EXISTS Member_spouse_target_idx ON Member_spouse (spouse)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Member_spouse WHERE spouse NOT IN (SELECT id FROM Member)
CREATE TRIGGER IF NOT EXISTS Member_spouse_target_deleted AFTER DELETE ON Member BEGIN DELETE FROM Member_spouse WHERE spouse = OLD.id; END
CREATE INDEX IF NOT EXISTS Member_lastName ON Member (lastName)
CREATE TABLE IF NOT EXISTS Company_blurb (id Integer PRIMARY KEY AUTOINCREMENT, Company_ID Integer, blurb BLOB)
CREATE INDEX IF NOT EXISTS Company_blurb_idx ON Company_blurb (Company_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Company_blurb WHERE Company_ID NOT IN (SELECT id FROM Company)
CREATE TRIGGER IF NOT EXISTS Company_blurb_owner_deleted AFTER DELETE ON Company BEGIN DELETE FROM Company_blurb WHERE Company_ID = OLD.id; END
CREATE TABLE IF NOT EXISTS Company_suppliers (id Integer PRIMARY KEY AUTOINCREMENT, Company_ID Integer, suppliers Integer)
CREATE INDEX IF NOT EXISTS Company_suppliers_idx ON Company_suppliers (Company_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Company_suppliers WHERE Company_ID NOT IN (SELECT id FROM Company)
CREATE TRIGGER IF NOT EXISTS Company_suppliers_owner_deleted AFTER DELETE ON Company BEGIN DELETE FROM Company_suppliers WHERE Company_ID = OLD.id; END
CREATE INDEX IF NOT EXISTS Company_suppliers_target_idx ON Company_suppliers (suppliers)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Company_suppliers WHERE suppliers NOT IN (SELECT id FROM Company)
CREATE TRIGGER IF NOT EXISTS Company_suppliers_target_deleted AFTER DELETE ON Company BEGIN DELETE FROM Company_suppliers WHERE suppliers = OLD.id; END
CREATE TABLE IF NOT EXISTS dbb_columns (table_name Text NOT NULL, property Text NOT NULL, column_name Text NOT NULL, class_name Text NOT NULL, swift_type Text NOT NULL, storage Text NOT NULL, join_table Text, target_table Text, mapped Boolean NOT NULL DEFAULT 1, PRIMARY KEY (table_name, property))
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
COMMIT TRANSACTION
-- section: register again: nothing to do
BEGIN IMMEDIATE TRANSACTION
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='dbb_columns'
SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index', 'view') AND name COLLATE NOCASE IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Venture'
SELECT table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped FROM dbb_columns WHERE lower(table_name) = lower(?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Venture_projectLead'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Venture_subProject'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Venture_tags'
SELECT count(*) FROM pragma_index_list(?) WHERE origin = 'pk'
-- PRAGMA index_list='Venture'
SELECT l.name, i.name, CASE l.origin WHEN 'u' THEN '' END, (SELECT group_concat(m.name || '.' || f."from", ', ') FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table' AND f."table" = ?1 COLLATE NOCASE AND f."to" = i.name COLLATE NOCASE) FROM pragma_index_list(?1) l, pragma_index_info(l.name) i WHERE l."unique" = 1 AND l.partial = 0 AND l.origin <> 'pk' AND i.name IS NOT NULL AND (SELECT count(*) FROM pragma_index_info(l.name)) = 1
-- PRAGMA index_list='Venture'
SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index', 'view') AND name COLLATE NOCASE IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member'
SELECT table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped FROM dbb_columns WHERE lower(table_name) = lower(?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_birthdays'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_children'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_company'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_luckyNumbers'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_nicknames'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Member_spouse'
SELECT count(*) FROM pragma_index_list(?) WHERE origin = 'pk'
-- PRAGMA index_list='Member'
SELECT l.name, i.name, CASE l.origin WHEN 'u' THEN '' END, (SELECT group_concat(m.name || '.' || f."from", ', ') FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table' AND f."table" = ?1 COLLATE NOCASE AND f."to" = i.name COLLATE NOCASE) FROM pragma_index_list(?1) l, pragma_index_info(l.name) i WHERE l."unique" = 1 AND l.partial = 0 AND l.origin <> 'pk' AND i.name IS NOT NULL AND (SELECT count(*) FROM pragma_index_info(l.name)) = 1
-- PRAGMA index_list='Member'
SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index', 'view') AND name COLLATE NOCASE IN (?, ?, ?, ?, ?, ?, ?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Company'
SELECT table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped FROM dbb_columns WHERE lower(table_name) = lower(?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Company_blurb'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Company_suppliers'
SELECT count(*) FROM pragma_index_list(?) WHERE origin = 'pk'
-- PRAGMA index_list='Company'
SELECT l.name, i.name, CASE l.origin WHEN 'u' THEN '' END, (SELECT group_concat(m.name || '.' || f."from", ', ') FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table' AND f."table" = ?1 COLLATE NOCASE AND f."to" = i.name COLLATE NOCASE) FROM pragma_index_list(?1) l, pragma_index_info(l.name) i WHERE l."unique" = 1 AND l.partial = 0 AND l.origin <> 'pk' AND i.name IS NOT NULL AND (SELECT count(*) FROM pragma_index_info(l.name)) = 1
-- PRAGMA index_list='Company'
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
COMMIT TRANSACTION
-- section: migrate: a new column
BEGIN IMMEDIATE TRANSACTION
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='dbb_columns'
SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index', 'view') AND name COLLATE NOCASE IN (?, ?, ?, ?, ?, ?, ?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Company'
SELECT table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped FROM dbb_columns WHERE lower(table_name) = lower(?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Company_blurb'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Company_suppliers'
SELECT count(*) FROM pragma_index_list(?) WHERE origin = 'pk'
-- PRAGMA index_list='Company'
SELECT l.name, i.name, CASE l.origin WHEN 'u' THEN '' END, (SELECT group_concat(m.name || '.' || f."from", ', ') FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table' AND f."table" = ?1 COLLATE NOCASE AND f."to" = i.name COLLATE NOCASE) FROM pragma_index_list(?1) l, pragma_index_info(l.name) i WHERE l."unique" = 1 AND l.partial = 0 AND l.origin <> 'pk' AND i.name IS NOT NULL AND (SELECT count(*) FROM pragma_index_info(l.name)) = 1
-- PRAGMA index_list='Company'
SELECT count(*) FROM Company WHERE name IS NULL
SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE
SELECT DISTINCT m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table' AND f."table" = ? COLLATE NOCASE
-- PRAGMA foreign_key_list='Venture'
-- PRAGMA foreign_key_list='sqlite_sequence'
-- PRAGMA foreign_key_list='Member'
-- PRAGMA foreign_key_list='Company'
-- PRAGMA foreign_key_list='Venture_projectLead'
-- PRAGMA foreign_key_list='Venture_subProject'
-- PRAGMA foreign_key_list='Venture_tags'
-- PRAGMA foreign_key_list='Member_birthdays'
-- PRAGMA foreign_key_list='Member_children'
-- PRAGMA foreign_key_list='Member_company'
-- PRAGMA foreign_key_list='Member_luckyNumbers'
-- PRAGMA foreign_key_list='Member_nicknames'
-- PRAGMA foreign_key_list='Member_spouse'
-- PRAGMA foreign_key_list='Company_blurb'
-- PRAGMA foreign_key_list='Company_suppliers'
-- PRAGMA foreign_key_list='dbb_columns'
SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid
-- PRAGMA table_xinfo='Company'
SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = ? COLLATE NOCASE AND sql IS NOT NULL ORDER BY type, name
SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'
SELECT seq FROM sqlite_sequence WHERE name = ? COLLATE NOCASE
CREATE TABLE "Company_dbb_rebuild" (id Integer PRIMARY KEY AUTOINCREMENT, createdTime Real, modifiedTime Real, name Text NOT NULL)
INSERT INTO "Company_dbb_rebuild" ("id", "createdTime", "modifiedTime", "name") SELECT "id", "createdTime", "modifiedTime", "name" FROM "Company"
DROP TABLE "Company"
PRAGMA legacy_alter_table = ON
ALTER TABLE "Company_dbb_rebuild" RENAME TO "Company"
CREATE TRIGGER Company_blurb_owner_deleted AFTER DELETE ON Company BEGIN DELETE FROM Company_blurb WHERE Company_ID = OLD.id; END
CREATE TRIGGER Company_suppliers_owner_deleted AFTER DELETE ON Company BEGIN DELETE FROM Company_suppliers WHERE Company_ID = OLD.id; END
CREATE TRIGGER Company_suppliers_target_deleted AFTER DELETE ON Company BEGIN DELETE FROM Company_suppliers WHERE suppliers = OLD.id; END
CREATE TRIGGER Member_company_target_deleted AFTER DELETE ON Company BEGIN DELETE FROM Member_company WHERE company = OLD.id; END
PRAGMA legacy_alter_table = OFF
ALTER TABLE Company ADD COLUMN founded Real
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE
SELECT 0 WHERE ? IS NOT NULL
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
INSERT INTO dbb_columns (table_name, property, column_name, class_name, swift_type, storage, join_table, target_table, mapped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
UPDATE dbb_columns SET column_name = ?, class_name = ?, swift_type = ?, storage = ?, join_table = ?, target_table = ?, mapped = ? WHERE table_name = ? AND property = ?
UPDATE dbb_columns SET column_name = ?, class_name = ?, swift_type = ?, storage = ?, join_table = ?, target_table = ?, mapped = ? WHERE table_name = ? AND property = ?
UPDATE dbb_columns SET column_name = ?, class_name = ?, swift_type = ?, storage = ?, join_table = ?, target_table = ?, mapped = ? WHERE table_name = ? AND property = ?
COMMIT TRANSACTION
-- section: insert a graph
BEGIN IMMEDIATE TRANSACTION
INSERT INTO Member (createdTime, modifiedTime, age, firstName, lastName) VALUES (?, ?, ?, ?, ?)
INSERT INTO Company (createdTime, modifiedTime, name) VALUES (?, ?, ?)
INSERT INTO Member (createdTime, modifiedTime, age, firstName, lastName) VALUES (?, ?, ?, ?, ?)
INSERT INTO Member_company (Member_ID, company) VALUES (?, ?)
INSERT INTO Member_nicknames (Member_ID, nicknames) VALUES (?, ?)
INSERT INTO Member_nicknames (Member_ID, nicknames) VALUES (?, ?)
INSERT INTO Member_company (Member_ID, company) VALUES (?, ?)
INSERT INTO Member_spouse (Member_ID, spouse) VALUES (?, ?)
COMMIT TRANSACTION
-- section: update one changed column
BEGIN IMMEDIATE TRANSACTION
UPDATE Member SET modifiedTime = ?, age = ? WHERE id = ?
COMMIT TRANSACTION
-- section: save unchanged: nothing
BEGIN IMMEDIATE TRANSACTION
COMMIT TRANSACTION
-- section: update a join property
BEGIN IMMEDIATE TRANSACTION
UPDATE Member SET modifiedTime = ? WHERE id = ?
DELETE FROM Member_nicknames WHERE Member_ID = ?
INSERT INTO Member_nicknames (Member_ID, nicknames) VALUES (?, ?)
COMMIT TRANSACTION
-- section: batch insert
BEGIN IMMEDIATE TRANSACTION
INSERT INTO Member (createdTime, modifiedTime, age, firstName, lastName) VALUES (?, ?, ?, ?, ?)
INSERT INTO Member (createdTime, modifiedTime, age, firstName, lastName) VALUES (?, ?, ?, ?, ?)
COMMIT TRANSACTION
-- section: query: conditions with arguments, sorting
BEGIN DEFERRED TRANSACTION
SELECT id, createdTime, modifiedTime, age, firstName, lastName FROM Member WHERE ("lastName" = ?) AND ("age" > ?) ORDER BY age ASC, firstName ASC
SELECT Member_ID, birthdays FROM Member_birthdays WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, children FROM Member_children WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, company FROM Member_company WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT id, createdTime, modifiedTime, name FROM Company WHERE id IN (SELECT value FROM json_each(?))
SELECT Member_ID, luckyNumbers FROM Member_luckyNumbers WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, nicknames FROM Member_nicknames WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, spouse FROM Member_spouse WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT id, createdTime, modifiedTime, age, firstName, lastName FROM Member WHERE id IN (SELECT value FROM json_each(?))
SELECT Company_ID, blurb FROM Company_blurb WHERE Company_ID BETWEEN ? AND ? ORDER BY Company_ID, id
SELECT Company_ID, suppliers FROM Company_suppliers WHERE Company_ID BETWEEN ? AND ? ORDER BY Company_ID, id
SELECT Member_ID, birthdays FROM Member_birthdays WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, children FROM Member_children WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, company FROM Member_company WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, luckyNumbers FROM Member_luckyNumbers WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, nicknames FROM Member_nicknames WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, spouse FROM Member_spouse WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
COMMIT TRANSACTION
-- section: query: a join-property condition, OR a reference
BEGIN DEFERRED TRANSACTION
SELECT id, createdTime, modifiedTime, age, firstName, lastName FROM Member WHERE (id IN (SELECT Member_ID FROM Member_nicknames WHERE Member_ID IS NOT NULL AND ("nicknames" = ?))) OR ((SELECT spouse FROM Member_spouse WHERE Member_ID = Member.id LIMIT 1) = ?)
SELECT Member_ID, birthdays FROM Member_birthdays WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, children FROM Member_children WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, company FROM Member_company WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT id, createdTime, modifiedTime, name FROM Company WHERE id IN (SELECT value FROM json_each(?))
SELECT Member_ID, luckyNumbers FROM Member_luckyNumbers WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, nicknames FROM Member_nicknames WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, spouse FROM Member_spouse WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Company_ID, blurb FROM Company_blurb WHERE Company_ID BETWEEN ? AND ? ORDER BY Company_ID, id
SELECT Company_ID, suppliers FROM Company_suppliers WHERE Company_ID BETWEEN ? AND ? ORDER BY Company_ID, id
COMMIT TRANSACTION
-- section: query: distinct, property subset, descending
BEGIN DEFERRED TRANSACTION
SELECT id, createdTime, modifiedTime, lastName FROM Member WHERE id IN (SELECT MAX(id) FROM Member GROUP BY lastName) ORDER BY lastName DESC
COMMIT TRANSACTION
-- section: query: ids list
BEGIN DEFERRED TRANSACTION
SELECT id, createdTime, modifiedTime, age, firstName, lastName FROM Member WHERE id IN (SELECT value FROM json_each(?))
SELECT Member_ID, birthdays FROM Member_birthdays WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, children FROM Member_children WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, company FROM Member_company WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT id, createdTime, modifiedTime, name FROM Company WHERE id IN (SELECT value FROM json_each(?))
SELECT Member_ID, luckyNumbers FROM Member_luckyNumbers WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, nicknames FROM Member_nicknames WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Member_ID, spouse FROM Member_spouse WHERE Member_ID BETWEEN ? AND ? ORDER BY Member_ID, id
SELECT Company_ID, blurb FROM Company_blurb WHERE Company_ID BETWEEN ? AND ? ORDER BY Company_ID, id
SELECT Company_ID, suppliers FROM Company_suppliers WHERE Company_ID BETWEEN ? AND ? ORDER BY Company_ID, id
COMMIT TRANSACTION
-- section: all ids, count
SELECT id FROM Member ORDER BY id
-- section: delete one, delete by ids, delete all
BEGIN IMMEDIATE TRANSACTION
DELETE FROM Member WHERE id IN (SELECT value FROM json_each(?))
-- TRIGGER Member_spouse_target_deleted
-- DELETE FROM Member_spouse WHERE spouse = OLD.id
-- TRIGGER Member_spouse_owner_deleted
-- DELETE FROM Member_spouse WHERE Member_ID = OLD.id
-- TRIGGER Member_nicknames_owner_deleted
-- DELETE FROM Member_nicknames WHERE Member_ID = OLD.id
-- TRIGGER Member_luckyNumbers_owner_deleted
-- DELETE FROM Member_luckyNumbers WHERE Member_ID = OLD.id
-- TRIGGER Member_company_owner_deleted
-- DELETE FROM Member_company WHERE Member_ID = OLD.id
-- TRIGGER Member_children_target_deleted
-- DELETE FROM Member_children WHERE children = OLD.id
-- TRIGGER Member_children_owner_deleted
-- DELETE FROM Member_children WHERE Member_ID = OLD.id
-- TRIGGER Member_birthdays_owner_deleted
-- DELETE FROM Member_birthdays WHERE Member_ID = OLD.id
-- TRIGGER Venture_projectLead_target_deleted
-- DELETE FROM Venture_projectLead WHERE projectLead = OLD.id
COMMIT TRANSACTION
BEGIN IMMEDIATE TRANSACTION
DELETE FROM Member WHERE id IN (SELECT value FROM json_each(?))
-- TRIGGER Member_spouse_target_deleted
-- DELETE FROM Member_spouse WHERE spouse = OLD.id
-- TRIGGER Member_spouse_owner_deleted
-- DELETE FROM Member_spouse WHERE Member_ID = OLD.id
-- TRIGGER Member_nicknames_owner_deleted
-- DELETE FROM Member_nicknames WHERE Member_ID = OLD.id
-- TRIGGER Member_luckyNumbers_owner_deleted
-- DELETE FROM Member_luckyNumbers WHERE Member_ID = OLD.id
-- TRIGGER Member_company_owner_deleted
-- DELETE FROM Member_company WHERE Member_ID = OLD.id
-- TRIGGER Member_children_target_deleted
-- DELETE FROM Member_children WHERE children = OLD.id
-- TRIGGER Member_children_owner_deleted
-- DELETE FROM Member_children WHERE Member_ID = OLD.id
-- TRIGGER Member_birthdays_owner_deleted
-- DELETE FROM Member_birthdays WHERE Member_ID = OLD.id
-- TRIGGER Venture_projectLead_target_deleted
-- DELETE FROM Venture_projectLead WHERE projectLead = OLD.id
COMMIT TRANSACTION
BEGIN IMMEDIATE TRANSACTION
DELETE FROM Company
-- TRIGGER Member_company_target_deleted
-- DELETE FROM Member_company WHERE company = OLD.id
-- TRIGGER Company_suppliers_target_deleted
-- DELETE FROM Company_suppliers WHERE suppliers = OLD.id
-- TRIGGER Company_suppliers_owner_deleted
-- DELETE FROM Company_suppliers WHERE Company_ID = OLD.id
-- TRIGGER Company_blurb_owner_deleted
-- DELETE FROM Company_blurb WHERE Company_ID = OLD.id
COMMIT TRANSACTION
-- section: tracing off
