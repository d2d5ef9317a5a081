-- section: register: tables, join tables, indexes, triggers
BEGIN
SELECT pg_advisory_xact_lock(4918566668959509857)
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
CREATE TABLE IF NOT EXISTS "Venture" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "createdTime" double precision, "modifiedTime" double precision, "name" text)
CREATE TABLE IF NOT EXISTS "Member" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "createdTime" double precision, "modifiedTime" double precision, "age" bigint, "firstName" text, "lastName" text)
CREATE TABLE IF NOT EXISTS "Company" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "createdTime" double precision, "modifiedTime" double precision, "name" text)
CREATE TABLE IF NOT EXISTS "Venture_projectLead" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Venture_ID" bigint REFERENCES "Venture" ("id") ON DELETE CASCADE, "projectLead" bigint REFERENCES "Member" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Venture_projectLead_idx" ON "Venture_projectLead" ("Venture_ID")
CREATE INDEX IF NOT EXISTS "Venture_projectLead_target_idx" ON "Venture_projectLead" ("projectLead")
CREATE TABLE IF NOT EXISTS "Venture_subProject" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Venture_ID" bigint REFERENCES "Venture" ("id") ON DELETE CASCADE, "subProject" bigint REFERENCES "Venture" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Venture_subProject_idx" ON "Venture_subProject" ("Venture_ID")
CREATE INDEX IF NOT EXISTS "Venture_subProject_target_idx" ON "Venture_subProject" ("subProject")
CREATE TABLE IF NOT EXISTS "Venture_tags" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Venture_ID" bigint REFERENCES "Venture" ("id") ON DELETE CASCADE, "tags" text)
CREATE INDEX IF NOT EXISTS "Venture_tags_idx" ON "Venture_tags" ("Venture_ID")
CREATE TABLE IF NOT EXISTS "Member_birthdays" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "birthdays" double precision)
CREATE INDEX IF NOT EXISTS "Member_birthdays_idx" ON "Member_birthdays" ("Member_ID")
CREATE TABLE IF NOT EXISTS "Member_children" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "children" bigint REFERENCES "Member" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Member_children_idx" ON "Member_children" ("Member_ID")
CREATE INDEX IF NOT EXISTS "Member_children_target_idx" ON "Member_children" ("children")
CREATE TABLE IF NOT EXISTS "Member_company" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "company" bigint REFERENCES "Company" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Member_employer_idx" ON "Member_company" ("Member_ID")
CREATE INDEX IF NOT EXISTS "Member_company_target_idx" ON "Member_company" ("company")
CREATE TABLE IF NOT EXISTS "Member_luckyNumbers" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "luckyNumbers" bigint)
CREATE INDEX IF NOT EXISTS "Member_luckyNumbers_idx" ON "Member_luckyNumbers" ("Member_ID")
CREATE TABLE IF NOT EXISTS "Member_nicknames" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "nicknames" text)
CREATE INDEX IF NOT EXISTS "Member_nicknames_idx" ON "Member_nicknames" ("Member_ID")
CREATE TABLE IF NOT EXISTS "Member_spouse" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "spouse" bigint REFERENCES "Member" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Member_spouse_idx" ON "Member_spouse" ("Member_ID")
CREATE INDEX IF NOT EXISTS "Member_spouse_target_idx" ON "Member_spouse" ("spouse")
CREATE INDEX IF NOT EXISTS "Member_lastName" ON "Member" ("lastName")
CREATE TABLE IF NOT EXISTS "Company_blurb" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Company_ID" bigint REFERENCES "Company" ("id") ON DELETE CASCADE, "blurb" bytea)
CREATE INDEX IF NOT EXISTS "Company_blurb_idx" ON "Company_blurb" ("Company_ID")
CREATE TABLE IF NOT EXISTS "Company_suppliers" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Company_ID" bigint REFERENCES "Company" ("id") ON DELETE CASCADE, "suppliers" bigint REFERENCES "Company" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Company_suppliers_idx" ON "Company_suppliers" ("Company_ID")
CREATE INDEX IF NOT EXISTS "Company_suppliers_target_idx" ON "Company_suppliers" ("suppliers")
COMMIT
-- section: register again: nothing to do
BEGIN
SELECT pg_advisory_xact_lock(4918566668959509857)
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = 'id' AND is_identity = 'NO' AND column_default IS NULL
SELECT ic.relname, a.attname, c.conname, (SELECT string_agg(f.conname || ' of ' || f.conrelid::regclass::text, ', ') FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = x.indexrelid) FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0] LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.contype = 'u' WHERE n.nspname = current_schema() AND t.relname = ?1 AND x.indisunique AND NOT x.indisprimary AND x.indnkeyatts = 1 AND x.indpred IS NULL AND x.indexprs IS NULL
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = 'id' AND is_identity = 'NO' AND column_default IS NULL
SELECT ic.relname, a.attname, c.conname, (SELECT string_agg(f.conname || ' of ' || f.conrelid::regclass::text, ', ') FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = x.indexrelid) FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0] LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.contype = 'u' WHERE n.nspname = current_schema() AND t.relname = ?1 AND x.indisunique AND NOT x.indisprimary AND x.indnkeyatts = 1 AND x.indpred IS NULL AND x.indexprs IS NULL
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = 'id' AND is_identity = 'NO' AND column_default IS NULL
SELECT ic.relname, a.attname, c.conname, (SELECT string_agg(f.conname || ' of ' || f.conrelid::regclass::text, ', ') FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = x.indexrelid) FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0] LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.contype = 'u' WHERE n.nspname = current_schema() AND t.relname = ?1 AND x.indisunique AND NOT x.indisprimary AND x.indnkeyatts = 1 AND x.indpred IS NULL AND x.indexprs IS NULL
CREATE TABLE IF NOT EXISTS "Venture_projectLead" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Venture_ID" bigint REFERENCES "Venture" ("id") ON DELETE CASCADE, "projectLead" bigint REFERENCES "Member" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Venture_projectLead_idx" ON "Venture_projectLead" ("Venture_ID")
CREATE INDEX IF NOT EXISTS "Venture_projectLead_target_idx" ON "Venture_projectLead" ("projectLead")
CREATE TABLE IF NOT EXISTS "Venture_subProject" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Venture_ID" bigint REFERENCES "Venture" ("id") ON DELETE CASCADE, "subProject" bigint REFERENCES "Venture" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Venture_subProject_idx" ON "Venture_subProject" ("Venture_ID")
CREATE INDEX IF NOT EXISTS "Venture_subProject_target_idx" ON "Venture_subProject" ("subProject")
CREATE TABLE IF NOT EXISTS "Venture_tags" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Venture_ID" bigint REFERENCES "Venture" ("id") ON DELETE CASCADE, "tags" text)
CREATE INDEX IF NOT EXISTS "Venture_tags_idx" ON "Venture_tags" ("Venture_ID")
CREATE TABLE IF NOT EXISTS "Member_birthdays" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "birthdays" double precision)
CREATE INDEX IF NOT EXISTS "Member_birthdays_idx" ON "Member_birthdays" ("Member_ID")
CREATE TABLE IF NOT EXISTS "Member_children" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "children" bigint REFERENCES "Member" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Member_children_idx" ON "Member_children" ("Member_ID")
CREATE INDEX IF NOT EXISTS "Member_children_target_idx" ON "Member_children" ("children")
CREATE TABLE IF NOT EXISTS "Member_company" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "company" bigint REFERENCES "Company" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Member_employer_idx" ON "Member_company" ("Member_ID")
CREATE INDEX IF NOT EXISTS "Member_company_target_idx" ON "Member_company" ("company")
CREATE TABLE IF NOT EXISTS "Member_luckyNumbers" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "luckyNumbers" bigint)
CREATE INDEX IF NOT EXISTS "Member_luckyNumbers_idx" ON "Member_luckyNumbers" ("Member_ID")
CREATE TABLE IF NOT EXISTS "Member_nicknames" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "nicknames" text)
CREATE INDEX IF NOT EXISTS "Member_nicknames_idx" ON "Member_nicknames" ("Member_ID")
CREATE TABLE IF NOT EXISTS "Member_spouse" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Member_ID" bigint REFERENCES "Member" ("id") ON DELETE CASCADE, "spouse" bigint REFERENCES "Member" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Member_spouse_idx" ON "Member_spouse" ("Member_ID")
CREATE INDEX IF NOT EXISTS "Member_spouse_target_idx" ON "Member_spouse" ("spouse")
CREATE INDEX IF NOT EXISTS "Member_lastName" ON "Member" ("lastName")
CREATE TABLE IF NOT EXISTS "Company_blurb" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Company_ID" bigint REFERENCES "Company" ("id") ON DELETE CASCADE, "blurb" bytea)
CREATE INDEX IF NOT EXISTS "Company_blurb_idx" ON "Company_blurb" ("Company_ID")
CREATE TABLE IF NOT EXISTS "Company_suppliers" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Company_ID" bigint REFERENCES "Company" ("id") ON DELETE CASCADE, "suppliers" bigint REFERENCES "Company" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Company_suppliers_idx" ON "Company_suppliers" ("Company_ID")
CREATE INDEX IF NOT EXISTS "Company_suppliers_target_idx" ON "Company_suppliers" ("suppliers")
COMMIT
-- section: migrate: a new column
BEGIN
SELECT pg_advisory_xact_lock(4918566668959509857)
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END, CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0, (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name AND k.column_name = c.column_name) FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position
SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = 'id' AND is_identity = 'NO' AND column_default IS NULL
SELECT ic.relname, a.attname, c.conname, (SELECT string_agg(f.conname || ' of ' || f.conrelid::regclass::text, ', ') FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = x.indexrelid) FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0] LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.contype = 'u' WHERE n.nspname = current_schema() AND t.relname = ?1 AND x.indisunique AND NOT x.indisprimary AND x.indnkeyatts = 1 AND x.indpred IS NULL AND x.indexprs IS NULL
LOCK TABLE "Company" IN SHARE MODE
SELECT count(*) FROM "Company" WHERE "name" IS NULL
ALTER TABLE "Company" ALTER COLUMN "name" SET NOT NULL
ALTER TABLE "Company" ADD COLUMN "founded" double precision
CREATE TABLE IF NOT EXISTS "Company_blurb" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Company_ID" bigint REFERENCES "Company" ("id") ON DELETE CASCADE, "blurb" bytea)
CREATE INDEX IF NOT EXISTS "Company_blurb_idx" ON "Company_blurb" ("Company_ID")
CREATE TABLE IF NOT EXISTS "Company_suppliers" ("id" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Company_ID" bigint REFERENCES "Company" ("id") ON DELETE CASCADE, "suppliers" bigint REFERENCES "Company" ("id") ON DELETE CASCADE)
CREATE INDEX IF NOT EXISTS "Company_suppliers_idx" ON "Company_suppliers" ("Company_ID")
CREATE INDEX IF NOT EXISTS "Company_suppliers_target_idx" ON "Company_suppliers" ("suppliers")
COMMIT
-- section: insert a graph
BEGIN
WITH new_rows AS (SELECT nextval(s.seq) AS id, u.* FROM (SELECT CAST(pg_get_serial_sequence('"Member"', 'id') AS regclass) AS seq) AS s CROSS JOIN unnest(CAST(? AS double precision[]), CAST(? AS double precision[]), CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS text[])) WITH ORDINALITY AS u(c0, c1, c2, c3, c4, n)), inserted AS (INSERT INTO "Member" ("id", "createdTime", "modifiedTime", "age", "firstName", "lastName") SELECT id, c0, c1, c2, c3, c4 FROM new_rows) SELECT id FROM new_rows ORDER BY n
WITH new_rows AS (SELECT nextval(s.seq) AS id, u.* FROM (SELECT CAST(pg_get_serial_sequence('"Company"', 'id') AS regclass) AS seq) AS s CROSS JOIN unnest(CAST(? AS double precision[]), CAST(? AS double precision[]), CAST(? AS text[])) WITH ORDINALITY AS u(c0, c1, c2, n)), inserted AS (INSERT INTO "Company" ("id", "createdTime", "modifiedTime", "name") SELECT id, c0, c1, c2 FROM new_rows) SELECT id FROM new_rows ORDER BY n
INSERT INTO "Member_company" ("Member_ID", "company") SELECT o, v FROM unnest(CAST(? AS bigint[]), CAST(? AS bigint[])) WITH ORDINALITY AS u(o, v, n) ORDER BY n
INSERT INTO "Member_nicknames" ("Member_ID", "nicknames") SELECT o, v FROM unnest(CAST(? AS bigint[]), CAST(? AS text[])) WITH ORDINALITY AS u(o, v, n) ORDER BY n
INSERT INTO "Member_spouse" ("Member_ID", "spouse") SELECT o, v FROM unnest(CAST(? AS bigint[]), CAST(? AS bigint[])) WITH ORDINALITY AS u(o, v, n) ORDER BY n
COMMIT
-- section: update one changed column
BEGIN
UPDATE "Member" AS dbb_target SET "modifiedTime" = dbb_rows.m, "age" = dbb_rows.c0 FROM unnest(CAST(? AS bigint[]), CAST(? AS double precision[]), CAST(? AS bigint[])) AS dbb_rows(id, m, c0) WHERE dbb_target."id" = dbb_rows.id RETURNING dbb_target."id"
COMMIT
-- section: save unchanged: nothing
BEGIN
COMMIT
-- section: update a join property
BEGIN
UPDATE "Member" AS dbb_target SET "modifiedTime" = dbb_rows.m FROM unnest(CAST(? AS bigint[]), CAST(? AS double precision[])) AS dbb_rows(id, m) WHERE dbb_target."id" = dbb_rows.id RETURNING dbb_target."id"
DELETE FROM "Member_nicknames" WHERE "Member_ID" = ANY(CAST(? AS bigint[]))
INSERT INTO "Member_nicknames" ("Member_ID", "nicknames") SELECT o, v FROM unnest(CAST(? AS bigint[]), CAST(? AS text[])) WITH ORDINALITY AS u(o, v, n) ORDER BY n
COMMIT
-- section: batch insert
BEGIN
WITH new_rows AS (SELECT nextval(s.seq) AS id, u.* FROM (SELECT CAST(pg_get_serial_sequence('"Member"', 'id') AS regclass) AS seq) AS s CROSS JOIN unnest(CAST(? AS double precision[]), CAST(? AS double precision[]), CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS text[])) WITH ORDINALITY AS u(c0, c1, c2, c3, c4, n)), inserted AS (INSERT INTO "Member" ("id", "createdTime", "modifiedTime", "age", "firstName", "lastName") SELECT id, c0, c1, c2, c3, c4 FROM new_rows) SELECT id FROM new_rows ORDER BY n
COMMIT
-- section: query: conditions with arguments, sorting
BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY
SELECT "id", "createdTime", "modifiedTime", "age", "firstName", "lastName" FROM "Member" WHERE ("lastName" = ?) AND ("age" > ?) ORDER BY "age" ASC, "firstName" ASC
SELECT "Member_ID", "birthdays" FROM "Member_birthdays" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "children" FROM "Member_children" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "company" FROM "Member_company" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "id", "createdTime", "modifiedTime", "name" FROM "Company" WHERE "id" IN (SELECT value::bigint FROM jsonb_array_elements_text(CAST(? AS jsonb)))
SELECT "Member_ID", "luckyNumbers" FROM "Member_luckyNumbers" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "nicknames" FROM "Member_nicknames" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "spouse" FROM "Member_spouse" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "id", "createdTime", "modifiedTime", "age", "firstName", "lastName" FROM "Member" WHERE "id" IN (SELECT value::bigint FROM jsonb_array_elements_text(CAST(? AS jsonb)))
SELECT "Company_ID", "blurb" FROM "Company_blurb" WHERE "Company_ID" BETWEEN ? AND ? ORDER BY "Company_ID", "id"
SELECT "Company_ID", "suppliers" FROM "Company_suppliers" WHERE "Company_ID" BETWEEN ? AND ? ORDER BY "Company_ID", "id"
SELECT "Member_ID", "birthdays" FROM "Member_birthdays" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "children" FROM "Member_children" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "company" FROM "Member_company" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "luckyNumbers" FROM "Member_luckyNumbers" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "nicknames" FROM "Member_nicknames" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "spouse" FROM "Member_spouse" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
COMMIT
-- section: query: a join-property condition, OR a reference
BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY
SELECT "id", "createdTime", "modifiedTime", "age", "firstName", "lastName" FROM "Member" WHERE ("id" IN (SELECT "Member_ID" FROM "Member_nicknames" WHERE "Member_ID" IS NOT NULL AND ("nicknames" = ?))) OR ((SELECT "spouse" FROM "Member_spouse" WHERE "Member_ID" = "Member"."id" LIMIT 1) = ?)
SELECT "Member_ID", "birthdays" FROM "Member_birthdays" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "children" FROM "Member_children" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "company" FROM "Member_company" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "id", "createdTime", "modifiedTime", "name" FROM "Company" WHERE "id" IN (SELECT value::bigint FROM jsonb_array_elements_text(CAST(? AS jsonb)))
SELECT "Member_ID", "luckyNumbers" FROM "Member_luckyNumbers" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "nicknames" FROM "Member_nicknames" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "spouse" FROM "Member_spouse" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Company_ID", "blurb" FROM "Company_blurb" WHERE "Company_ID" BETWEEN ? AND ? ORDER BY "Company_ID", "id"
SELECT "Company_ID", "suppliers" FROM "Company_suppliers" WHERE "Company_ID" BETWEEN ? AND ? ORDER BY "Company_ID", "id"
COMMIT
-- section: query: distinct, property subset, descending
BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY
SELECT "id", "createdTime", "modifiedTime", "lastName" FROM "Member" WHERE "id" IN (SELECT MAX("id") FROM "Member" GROUP BY "lastName") ORDER BY "lastName" DESC
COMMIT
-- section: query: ids list
BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY
SELECT "id", "createdTime", "modifiedTime", "age", "firstName", "lastName" FROM "Member" WHERE "id" IN (SELECT value::bigint FROM jsonb_array_elements_text(CAST(? AS jsonb)))
SELECT "Member_ID", "birthdays" FROM "Member_birthdays" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "children" FROM "Member_children" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "company" FROM "Member_company" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "id", "createdTime", "modifiedTime", "name" FROM "Company" WHERE "id" IN (SELECT value::bigint FROM jsonb_array_elements_text(CAST(? AS jsonb)))
SELECT "Member_ID", "luckyNumbers" FROM "Member_luckyNumbers" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "nicknames" FROM "Member_nicknames" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Member_ID", "spouse" FROM "Member_spouse" WHERE "Member_ID" BETWEEN ? AND ? ORDER BY "Member_ID", "id"
SELECT "Company_ID", "blurb" FROM "Company_blurb" WHERE "Company_ID" BETWEEN ? AND ? ORDER BY "Company_ID", "id"
SELECT "Company_ID", "suppliers" FROM "Company_suppliers" WHERE "Company_ID" BETWEEN ? AND ? ORDER BY "Company_ID", "id"
COMMIT
-- section: all ids, count
SELECT "id" FROM "Member" ORDER BY "id"
-- section: delete one, delete by ids, delete all
BEGIN
DELETE FROM "Member" WHERE "id" IN (SELECT value::bigint FROM jsonb_array_elements_text(CAST(? AS jsonb)))
COMMIT
BEGIN
DELETE FROM "Member" WHERE "id" IN (SELECT value::bigint FROM jsonb_array_elements_text(CAST(? AS jsonb)))
COMMIT
BEGIN
DELETE FROM "Company"
COMMIT
-- section: tracing off
