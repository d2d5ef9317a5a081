-- section: register
BEGIN IMMEDIATE TRANSACTION
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='dbb_columns'
SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index', 'view') AND name COLLATE NOCASE IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Voucher'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Voucher_links'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Voucher_prices'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Voucher_stages'
SELECT name, type, "notnull", dflt_value, hidden, pk FROM pragma_table_xinfo(?)
-- PRAGMA table_xinfo='Voucher_tokens'
CREATE TABLE IF NOT EXISTS Voucher (id Integer PRIMARY KEY AUTOINCREMENT, createdTime Real, modifiedTime Real, address Text, alternates Text, amount Text, counts Text, fee Text, home Text, link Text, previous Text, reference Text, stage Text, token Text, urgency Integer)
CREATE TABLE IF NOT EXISTS Voucher_links (id Integer PRIMARY KEY AUTOINCREMENT, Voucher_ID Integer, links Text)
CREATE INDEX IF NOT EXISTS Voucher_links_idx ON Voucher_links (Voucher_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Voucher_links WHERE Voucher_ID NOT IN (SELECT id FROM Voucher)
CREATE TRIGGER IF NOT EXISTS Voucher_links_owner_deleted AFTER DELETE ON Voucher BEGIN DELETE FROM Voucher_links WHERE Voucher_ID = OLD.id; END
CREATE TABLE IF NOT EXISTS Voucher_prices (id Integer PRIMARY KEY AUTOINCREMENT, Voucher_ID Integer, prices Text)
CREATE INDEX IF NOT EXISTS Voucher_prices_idx ON Voucher_prices (Voucher_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Voucher_prices WHERE Voucher_ID NOT IN (SELECT id FROM Voucher)
CREATE TRIGGER IF NOT EXISTS Voucher_prices_owner_deleted AFTER DELETE ON Voucher BEGIN DELETE FROM Voucher_prices WHERE Voucher_ID = OLD.id; END
CREATE TABLE IF NOT EXISTS Voucher_stages (id Integer PRIMARY KEY AUTOINCREMENT, Voucher_ID Integer, stages Text)
CREATE INDEX IF NOT EXISTS Voucher_stages_idx ON Voucher_stages (Voucher_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Voucher_stages WHERE Voucher_ID NOT IN (SELECT id FROM Voucher)
CREATE TRIGGER IF NOT EXISTS Voucher_stages_owner_deleted AFTER DELETE ON Voucher BEGIN DELETE FROM Voucher_stages WHERE Voucher_ID = OLD.id; END
CREATE TABLE IF NOT EXISTS Voucher_tokens (id Integer PRIMARY KEY AUTOINCREMENT, Voucher_ID Integer, tokens Text)
CREATE INDEX IF NOT EXISTS Voucher_tokens_idx ON Voucher_tokens (Voucher_ID)
SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?
DELETE FROM Voucher_tokens WHERE Voucher_ID NOT IN (SELECT id FROM Voucher)
CREATE TRIGGER IF NOT EXISTS Voucher_tokens_owner_deleted AFTER DELETE ON Voucher BEGIN DELETE FROM Voucher_tokens WHERE Voucher_ID = OLD.id; END
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
-- section: insert
BEGIN IMMEDIATE TRANSACTION
INSERT INTO Voucher (createdTime, modifiedTime, address, alternates, amount, counts, fee, home, link, previous, reference, stage, token, urgency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
INSERT INTO Voucher_links (Voucher_ID, links) VALUES (?, ?)
INSERT INTO Voucher_links (Voucher_ID, links) VALUES (?, ?)
INSERT INTO Voucher_prices (Voucher_ID, prices) VALUES (?, ?)
INSERT INTO Voucher_prices (Voucher_ID, prices) VALUES (?, ?)
INSERT INTO Voucher_prices (Voucher_ID, prices) VALUES (?, ?)
INSERT INTO Voucher_stages (Voucher_ID, stages) VALUES (?, ?)
INSERT INTO Voucher_stages (Voucher_ID, stages) VALUES (?, ?)
INSERT INTO Voucher_tokens (Voucher_ID, tokens) VALUES (?, ?)
INSERT INTO Voucher_tokens (Voucher_ID, tokens) VALUES (?, ?)
INSERT INTO Voucher_tokens (Voucher_ID, tokens) VALUES (?, ?)
COMMIT TRANSACTION
-- section: fetch by id
BEGIN DEFERRED TRANSACTION
SELECT id, createdTime, modifiedTime, address, alternates, amount, counts, fee, home, link, previous, reference, stage, token, urgency FROM Voucher WHERE ("id" = ?)
SELECT Voucher_ID, links FROM Voucher_links WHERE Voucher_ID BETWEEN ? AND ? ORDER BY Voucher_ID, id
SELECT Voucher_ID, prices FROM Voucher_prices WHERE Voucher_ID BETWEEN ? AND ? ORDER BY Voucher_ID, id
SELECT Voucher_ID, stages FROM Voucher_stages WHERE Voucher_ID BETWEEN ? AND ? ORDER BY Voucher_ID, id
SELECT Voucher_ID, tokens FROM Voucher_tokens WHERE Voucher_ID BETWEEN ? AND ? ORDER BY Voucher_ID, id
COMMIT TRANSACTION
-- section: typed conditions and sorting
BEGIN DEFERRED TRANSACTION
SELECT id, createdTime, modifiedTime, address, alternates, amount, counts, fee, home, link, previous, reference, stage, token, urgency FROM Voucher WHERE (amount COLLATE dbb_decimal > ?1) AND (token COLLATE NOCASE = ?2) AND (reference COLLATE NOCASE IN (?3)) AND (stage = ?4) AND (link IS NOT NULL) ORDER BY amount COLLATE dbb_decimal DESC, token COLLATE NOCASE ASC
COMMIT TRANSACTION
BEGIN DEFERRED TRANSACTION
SELECT id, createdTime, modifiedTime, address, alternates, amount, counts, fee, home, link, previous, reference, stage, token, urgency FROM Voucher WHERE EXISTS (SELECT 1 FROM Voucher_tokens WHERE Voucher_tokens.Voucher_ID = Voucher.id AND (Voucher_tokens.tokens COLLATE NOCASE = ?1)) AND EXISTS (SELECT 1 FROM Voucher_prices WHERE Voucher_prices.Voucher_ID = Voucher.id AND (Voucher_prices.prices COLLATE dbb_decimal = ?2))
SELECT Voucher_ID, links FROM Voucher_links WHERE Voucher_ID BETWEEN ? AND ? ORDER BY Voucher_ID, id
SELECT Voucher_ID, prices FROM Voucher_prices WHERE Voucher_ID BETWEEN ? AND ? ORDER BY Voucher_ID, id
SELECT Voucher_ID, stages FROM Voucher_stages WHERE Voucher_ID BETWEEN ? AND ? ORDER BY Voucher_ID, id
SELECT Voucher_ID, tokens FROM Voucher_tokens WHERE Voucher_ID BETWEEN ? AND ? ORDER BY Voucher_ID, id
COMMIT TRANSACTION
-- section: update the changed columns
BEGIN IMMEDIATE TRANSACTION
UPDATE Voucher SET modifiedTime = ?, address = ?, amount = ?, token = ? WHERE id = ?
COMMIT TRANSACTION
-- section: conditional update
BEGIN IMMEDIATE TRANSACTION
UPDATE Voucher SET modifiedTime = ?, fee = ? WHERE id = ? AND modifiedTime = ?
COMMIT TRANSACTION
