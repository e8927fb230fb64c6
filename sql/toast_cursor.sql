-- Lookups in values out of line read through a cursor (src/fastjson_toast.c):
-- each chunk is looked for next to the last one read, and by the TOAST index
-- when it is not there. Whatever the order of the chunks in the TOAST table
-- (loaded in order, updated, deleted and reused, two columns interleaved,
-- two tables through one call site, uncommitted and rolled back), every
-- lookup must give jsonb's answer on the same document.
CREATE TABLE tc_src (id int PRIMARY KEY, body text);
-- 300 events of 9 to 17 kB (in the stored form, 2 to 5 chunks), their keys
-- at the start, in a nested object and at the end; and every tenth 3.6 kB of
-- hashes (hard to compress: kept as a tape, out of line too).
INSERT INTO tc_src
SELECT i, CASE WHEN i % 10 = 0 THEN
		format('{"id":%s,"type":"small","pad":"%s","last":%s}', i,
			   (SELECT string_agg(md5(i::text || 's' || j::text), '') FROM generate_series(1, 55) j), i * 7)
	ELSE
		format('{"id":%s,"type":"%s","user":{"name":"u%s","geo":{"city":"c%s"}},"payload":[%s],"last":%s}',
			   i, (ARRAY['push', 'pull', 'watch'])[1 + i % 3], i, i % 7,
			   (SELECT string_agg(format('{"h":"%s","w":"some words %s","n":%s}', md5(i::text || '-' || j::text), j % 10, j), ',')
				FROM generate_series(1, 180 + (i % 5) * 40) j), i * 7)
	END
FROM generate_series(1, 300) i;

CREATE TABLE tc (id int, doc fastjson, doc2 fastjson);
ALTER TABLE tc ALTER COLUMN doc SET STORAGE external, ALTER COLUMN doc2 SET STORAGE external;
INSERT INTO tc SELECT id, body::fastjson, NULL FROM tc_src ORDER BY id;
CREATE TABLE tc_jsonb AS SELECT id, body::jsonb AS j FROM tc_src;

-- every value is out of line; most in the stored form, every tenth a tape
SELECT reltoastrelid::regclass AS toast FROM pg_class WHERE relname = 'tc' \gset
SELECT count(DISTINCT chunk_id) AS out_of_line FROM :toast;
SELECT fastjson_storage_form(doc) AS form, count(*) FROM tc GROUP BY 1 ORDER BY 1;

-- The lookups compared with jsonb's: the number of rows where any differs.
CREATE FUNCTION tc_diffs(tab regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
	EXECUTE format($q$
		SELECT count(*) FROM %s t JOIN tc_jsonb r USING (id)
		WHERE (t.doc->>'type') IS DISTINCT FROM (r.j->>'type')
		   OR (t.doc->>'last')::int IS DISTINCT FROM (r.j->>'last')::int
		   OR (t.doc #>> '{user,geo,city}') IS DISTINCT FROM (r.j #>> '{user,geo,city}')
		   OR (t.doc->'payload'->-1->>'h') IS DISTINCT FROM (r.j->'payload'->-1->>'h')
		   OR (t.doc ? 'pad') IS DISTINCT FROM (r.j ? 'pad')
		   OR (t.doc @> '{"type":"pull"}') IS DISTINCT FROM (r.j @> '{"type":"pull"}')
		   OR (t.doc->'user')::text::jsonb IS DISTINCT FROM (r.j->'user')
		   OR t.doc::text::jsonb IS DISTINCT FROM r.j
		   OR t.doc::jsonb IS DISTINCT FROM r.j
		   OR t.doc::bytea::fastjson::jsonb IS DISTINCT FROM r.j
		$q$, tab) INTO n;
	RETURN n;
END $$;

-- TOAST index scans on tab's TOAST table, as the statistics count them
CREATE FUNCTION tc_toast_scans(tab regclass) RETURNS bigint LANGUAGE sql AS $$
	SELECT coalesce(idx_scan, 0) FROM pg_stat_all_tables
	WHERE relid = (SELECT reltoastrelid FROM pg_class WHERE oid = tab) $$;

-- loaded in order: the right answers
SELECT tc_diffs('tc') AS diffs;
-- and the chunks found without the index: a scan of the 270 values out of
-- line for their first key makes one index scan (the first value's), where
-- PostgreSQL's own reading makes one a value
SELECT pg_stat_force_next_flush();
SELECT tc_toast_scans('tc') AS scans_before \gset
SELECT count(*) FROM tc WHERE doc->>'type' = 'pull';
SELECT pg_stat_force_next_flush();
SELECT tc_toast_scans('tc') - :scans_before AS index_scans_few \gset
SELECT :index_scans_few BETWEEN 1 AND 10 AS few_index_scans;
-- the same for whole values (output, casts), read through a cursor of their
-- own: fewer than one index scan in five values (a value's short last chunk
-- is looked for on a few pages from where the last one was, and the index
-- finds it when it is farther)
SELECT tc_toast_scans('tc') AS scans_before \gset
SELECT sum(length(doc::text)) > 0 AS output FROM tc;
SELECT pg_stat_force_next_flush();
SELECT tc_toast_scans('tc') - :scans_before AS index_scans_few \gset
SELECT :index_scans_few BETWEEN 1 AND 60 AS under_one_in_five;

-- updated: every third value is new, its chunks at the end of the TOAST table
UPDATE tc_jsonb SET j = jsonb_set(j, '{last}', to_jsonb((j->>'last')::int + 1)) WHERE id % 3 = 0;
UPDATE tc t SET doc = r.j::text::fastjson FROM tc_jsonb r WHERE t.id = r.id AND t.id % 3 = 0;
SELECT tc_diffs('tc') AS diffs;

-- deleted, vacuumed, and inserted again into the space freed
DELETE FROM tc WHERE id % 4 = 1;
VACUUM tc;
INSERT INTO tc SELECT t.id, r.j::text::fastjson, NULL FROM tc_src t JOIN tc_jsonb r USING (id)
WHERE t.id % 4 = 1 ORDER BY t.id DESC;
SELECT tc_diffs('tc') AS diffs;

-- two columns out of line: their chunks interleave in the TOAST table
UPDATE tc SET doc2 = doc;
SELECT count(*) AS diffs FROM tc t JOIN tc_jsonb r USING (id)
WHERE (t.doc2->>'last')::int IS DISTINCT FROM (r.j->>'last')::int
   OR (t.doc->>'last')::int IS DISTINCT FROM (r.j->>'last')::int
   OR (t.doc2 #>> '{user,name}') IS DISTINCT FROM (r.j #>> '{user,name}');

-- two tables through one call site: the cursor follows each TOAST table
CREATE TABLE tc2 (id int, doc fastjson);
ALTER TABLE tc2 ALTER COLUMN doc SET STORAGE external;
INSERT INTO tc2 SELECT id, j::text::fastjson FROM tc_jsonb ORDER BY id;
SELECT count(*) AS diffs FROM (SELECT id, doc FROM tc UNION ALL SELECT id, doc FROM tc2) t
JOIN tc_jsonb r USING (id)
WHERE (t.doc->>'last')::int IS DISTINCT FROM (r.j->>'last')::int;

-- rewritten by VACUUM FULL: the same answers
VACUUM FULL tc;
SELECT tc_diffs('tc') AS diffs;

-- in a transaction: its own new values, then none of them after ROLLBACK
BEGIN;
UPDATE tc SET doc = ('{"id":0,"type":"new","last":-1,"payload":[' ||
	(SELECT string_agg(format('"%s"', md5(g::text)), ',') FROM generate_series(1, 200) g) || ']}')::fastjson
WHERE id % 2 = 0;
SELECT count(*) FILTER (WHERE doc->>'type' = 'new') AS new, count(*) FILTER (WHERE (doc->>'last')::int = -1) AS last
FROM tc;
ROLLBACK;
SELECT tc_diffs('tc') AS diffs;

-- storage main (the type's storage before 0.2): values over a page's worth
-- go out of line, read the same way
CREATE TABLE tc3 (id int, doc fastjson);
ALTER TABLE tc3 ALTER COLUMN doc SET STORAGE main;
INSERT INTO tc3 SELECT id, (j || jsonb_build_object('more',
	(SELECT jsonb_agg(md5(id::text || 'm' || g::text)) FROM generate_series(1, 300) g)))::text::fastjson
FROM tc_jsonb ORDER BY id;
SELECT reltoastrelid::regclass AS toast3 FROM pg_class WHERE relname = 'tc3' \gset
SELECT count(DISTINCT chunk_id) AS out_of_line FROM :toast3;
SELECT count(*) AS diffs FROM tc3 t JOIN tc_jsonb r USING (id)
WHERE (t.doc->>'last')::int IS DISTINCT FROM (r.j->>'last')::int
   OR (t.doc #>> '{user,geo,city}') IS DISTINCT FROM (r.j #>> '{user,geo,city}')
   OR (t.doc->'more'->>299) IS DISTINCT FROM md5(t.id::text || 'm300');

-- compressed by PostgreSQL, then out of line: values a function copied
-- (plain tapes, which PostgreSQL compresses as jsonb's) with pglz, and with
-- lz4 where the build has it (PostgreSQL 19's default; it keeps any saving).
-- Their compressed chunks are read through the cursor too (for pglz only
-- those a prefix needs), and PostgreSQL decompresses them.
SELECT CASE WHEN 'lz4' = ANY (enumvals) THEN 'lz4' ELSE 'pglz' END AS method
FROM pg_settings WHERE name = 'default_toast_compression' \gset
CREATE TABLE tc4 (id int, doc fastjson COMPRESSION pglz);
CREATE TABLE tc5 (id int, doc fastjson);
ALTER TABLE tc5 ALTER COLUMN doc SET COMPRESSION :method;
INSERT INTO tc4 SELECT id, j::text::fastjson #> '{}' FROM tc_jsonb ORDER BY id;
INSERT INTO tc5 SELECT id, j::text::fastjson #> '{}' FROM tc_jsonb ORDER BY id;
SELECT reltoastrelid::regclass AS toast4 FROM pg_class WHERE relname = 'tc4' \gset
SELECT reltoastrelid::regclass AS toast5 FROM pg_class WHERE relname = 'tc5' \gset
SELECT (SELECT count(*) FROM tc4 WHERE pg_column_compression(doc) IS NOT NULL) AS pglz_compressed,
	(SELECT count(*) FROM tc5 WHERE pg_column_compression(doc) IS NOT NULL) AS compressed,
	(SELECT count(DISTINCT chunk_id) FROM :toast4) AS out_of_line_pglz,
	(SELECT count(DISTINCT chunk_id) FROM :toast5) AS out_of_line;
SELECT count(*) AS diffs FROM (SELECT id, doc FROM tc4 UNION ALL SELECT id, doc FROM tc5) t
JOIN tc_jsonb r USING (id)
WHERE (t.doc->>'type') IS DISTINCT FROM (r.j->>'type')
   OR (t.doc->>'last')::int IS DISTINCT FROM (r.j->>'last')::int
   OR (t.doc #>> '{user,geo,city}') IS DISTINCT FROM (r.j #>> '{user,geo,city}')
   OR (t.doc->'payload'->-1->>'h') IS DISTINCT FROM (r.j->'payload'->-1->>'h')
   OR (t.doc @> '{"type":"pull"}') IS DISTINCT FROM (r.j @> '{"type":"pull"}')
   OR (t.doc ? 'pad') IS DISTINCT FROM (r.j ? 'pad')
   OR t.doc::text::jsonb IS DISTINCT FROM r.j
   OR t.doc::bytea::fastjson::jsonb IS DISTINCT FROM r.j;
-- read without the index, but for a few values: as above, for a lookup and
-- for whole values (the statistics are counted at the end of each statement).
-- A lookup in an lz4 value reads all its chunks (lz4 cannot say how many a
-- prefix needs), short last chunks included, so fewer than one in five.
SELECT pg_stat_force_next_flush();
SELECT tc_toast_scans('tc4') AS before4, tc_toast_scans('tc5') AS before5 \gset
SELECT count(*) FROM tc4 WHERE doc->>'type' = 'pull';
SELECT count(*) FROM tc5 WHERE doc->>'type' = 'pull';
SELECT pg_stat_force_next_flush();
SELECT tc_toast_scans('tc4') - :before4 BETWEEN 1 AND 10 AS few_pglz,
	tc_toast_scans('tc5') - :before5 BETWEEN 1 AND 60 AS few \gset
SELECT :'few_pglz' AS few_pglz, :'few' AS few;
SELECT tc_toast_scans('tc4') AS before4, tc_toast_scans('tc5') AS before5 \gset
SELECT sum(length(doc::text)) FROM tc4;
SELECT sum(length(doc::text)) FROM tc5;
SELECT pg_stat_force_next_flush();
SELECT tc_toast_scans('tc4') - :before4 BETWEEN 1 AND 60 AS whole_pglz,
	tc_toast_scans('tc5') - :before5 BETWEEN 1 AND 60 AS whole \gset
SELECT :'whole_pglz' AS whole_pglz, :'whole' AS whole;

-- The TOAST table stays locked for the lookups of one call site across
-- subtransactions: a lookup whose subtransaction rolled back, releasing the
-- lock it took, and the same lookup again in the next one (a plpgsql simple
-- expression keeps its state, and so its cursor, for the transaction). Each
-- lookup after the rollback must hold the lock as the first one did (and
-- answer as before). Whether the first holds it depends on the version: 19
-- shows no lock on the TOAST table after a lookup, 15 to 18 do.
CREATE FUNCTION tc_lock_after_rollback(d fastjson, toast regclass) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	t text;
	h boolean;
	first boolean;
	held text := '';
BEGIN
	FOR i IN 1..3 LOOP
		BEGIN
			t := d->>'type';
			h := EXISTS (SELECT 1 FROM pg_locks WHERE relation = toast
				AND pid = pg_backend_pid() AND mode = 'AccessShareLock' AND granted);
			IF i = 1 THEN
				first := h;
			END IF;
			held := held || t || ':' || CASE WHEN h = first THEN 'as first' ELSE 'not as first' END || ' ';
			IF i < 3 THEN
				RAISE EXCEPTION 'roll back';
			END IF;
		EXCEPTION WHEN raise_exception THEN
			NULL;
		END;
	END LOOP;
	RETURN held;
END $$;
SELECT reltoastrelid::regclass AS toast3 FROM pg_class WHERE relname = 'tc3' \gset
SELECT tc_lock_after_rollback(doc, :'toast3') FROM tc3 WHERE id = 1;

-- A cursor kept across the commands of a transaction (a PL/pgSQL function's
-- expression keeps it) counts the TOAST table's pages again in each command:
-- after this transaction's TRUNCATE (a new file, or the same file cut short
-- for a table created in the transaction) or CLUSTER, it must not look for
-- chunks on pages that are gone ("could not read block" before).
CREATE FUNCTION tc_type(d fastjson) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN d->>'type';
END $$;
CREATE TABLE tc6 (id int PRIMARY KEY, doc fastjson);
INSERT INTO tc6 SELECT id, body::fastjson FROM tc_src ORDER BY id;
BEGIN;
SELECT count(tc_type(doc)) FROM tc6;
TRUNCATE tc6;
INSERT INTO tc6 SELECT id, body::fastjson FROM tc_src WHERE id <= 3;
SELECT id, tc_type(doc), (SELECT j->>'type' FROM tc_jsonb r WHERE r.id = tc6.id) AS jsonb FROM tc6 ORDER BY id;
COMMIT;
BEGIN;
CREATE TABLE tc7 (id int PRIMARY KEY, doc fastjson);
INSERT INTO tc7 SELECT id, body::fastjson FROM tc_src ORDER BY id;
SELECT count(tc_type(doc)) FROM tc7;
TRUNCATE tc7;
INSERT INTO tc7 SELECT id, body::fastjson FROM tc_src WHERE id <= 3;
SELECT id, tc_type(doc) FROM tc7 ORDER BY id;
COMMIT;
INSERT INTO tc6 SELECT id, body::fastjson FROM tc_src WHERE id > 3 ORDER BY id;
BEGIN;
SELECT count(tc_type(doc)) FROM tc6;
DELETE FROM tc6 WHERE id > 3;
CLUSTER tc6 USING tc6_pkey;
SELECT id, tc_type(doc) FROM tc6 ORDER BY id;
COMMIT;

DROP TABLE tc, tc2, tc3, tc4, tc5, tc6, tc7, tc_src, tc_jsonb;
DROP FUNCTION tc_diffs(regclass), tc_toast_scans(regclass), tc_lock_after_rollback(fastjson, regclass),
	tc_type(fastjson);
