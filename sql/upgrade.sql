-- ALTER EXTENSION fastjson UPDATE from 0.1: a database that stored documents
-- and built indexes with 0.1 gives every value, index and query answer back
-- as before, and has 0.2's objects afterwards.
SELECT current_database() AS regress_db \gset
CREATE DATABASE fastjson_upgrade;
\c fastjson_upgrade
SET client_min_messages = warning;
CREATE EXTENSION fastjson VERSION '0.1';
SELECT extversion FROM pg_extension WHERE extname = 'fastjson';
SELECT typstorage FROM pg_type WHERE typname = 'fastjson';
CREATE TABLE docs (id int PRIMARY KEY, doc fastjson);
CREATE TABLE wide_01 (doc fastjson);
INSERT INTO docs
SELECT g, format('{"id":%s,"k":"%s","n":%s,"tags":[%s],"nested":{"x":%s,"s":"%s"},"big":"%s"}',
	g, chr(97 + g % 5), CASE WHEN g % 3 = 0 THEN g || '.50' ELSE g::text END,
	(SELECT string_agg(format('"t%s"', t), ',') FROM generate_series(1, g % 4) t),
	g % 7, repeat('é', g % 9), CASE WHEN g % 10 = 0 THEN repeat(md5(g::text), 200) ELSE '' END)::fastjson
FROM generate_series(1, 500) g;
INSERT INTO docs VALUES (501, '{"a":1,"a":2}'), (502, '[1.0,1e2,-0.0]'), (503, '"\u0000"'), (504, 'null');
CREATE INDEX docs_gin ON docs USING gin (doc);
CREATE INDEX docs_gin_path ON docs USING gin (doc fastjson_path_ops);
CREATE INDEX docs_hash ON docs USING hash (doc);
CREATE INDEX docs_btree ON docs (doc);
CREATE FUNCTION answers() RETURNS TABLE (q text, ids int[]) LANGUAGE sql AS $$
	SELECT 'gin @>', array_agg(id ORDER BY id) FROM docs WHERE doc @> '{"k":"c","nested":{"x":2}}'
	UNION ALL SELECT 'gin ?', array_agg(id ORDER BY id) FROM docs WHERE doc ? 'a'
	UNION ALL SELECT 'hash =', array_agg(id ORDER BY id) FROM docs WHERE doc = (SELECT doc FROM docs WHERE id = 42)
	UNION ALL SELECT 'btree <', array_agg(id ORDER BY id) FROM docs WHERE doc < '{"id":3}'
	UNION ALL SELECT '->>', array_agg(id ORDER BY id) FROM docs WHERE doc ->> 'n' = '300.50'
	UNION ALL SELECT '#>>', array_agg(id ORDER BY id) FROM docs WHERE (doc #>> '{nested,x}')::int = 6 AND id < 50
$$;
CREATE VIEW agg_view AS
SELECT fastjson_agg(doc -> 'id' ORDER BY id) AS a, fastjson_object_agg(id, doc -> 'k' ORDER BY id) AS o FROM docs WHERE id <= 5;
CREATE TABLE agg_before AS SELECT a::text, o::text FROM agg_view;
SET enable_seqscan = off;
CREATE TABLE before AS SELECT id, fastjson_send(doc) AS bytes, doc::text AS text, fastjson_hash(doc) AS hash FROM docs;
CREATE TABLE answers_before AS SELECT * FROM answers();
ALTER EXTENSION fastjson UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'fastjson';
-- every value byte for byte, its text and its hash
SELECT count(*) AS rows,
	count(*) FILTER (WHERE fastjson_send(d.doc) = b.bytes AND d.doc::text = b.text AND fastjson_hash(d.doc) = b.hash) AS same
FROM docs d JOIN before b USING (id);
-- every query answers as before, through its index
SELECT q, a.ids = b.ids AS same_answer, cardinality(a.ids) AS n FROM answers() a JOIN answers_before b USING (q) ORDER BY q;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE doc @> '{"k":"c"}';
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE doc = '{"a":2}';
-- the indexes still work for new rows
INSERT INTO docs VALUES (600, '{"k":"c","nested":{"x":2,"s":"new"}}');
SELECT id FROM docs WHERE doc @> '{"k":"c","nested":{"x":2}}' AND id > 499 ORDER BY id;
SELECT id FROM docs WHERE doc = '{"nested":{"s":"new","x":2.0},"k":"c"}';
-- a view made with 0.1's aggregates answers as before; they now combine
SELECT v.a::text = b.a AND v.o::text = b.o AS view_same FROM agg_view v, agg_before b;
SELECT aggfnoid::regprocedure, aggtransfn::regprocedure, aggcombinefn, aggfinalfn, aggtranstype::regtype
FROM pg_aggregate WHERE aggfnoid::regprocedure::text LIKE 'fastjson%' ORDER BY aggfnoid::regprocedure::text COLLATE "C";
-- the type's storage is extended from 0.2 on: a table made now gets it, the
-- tables made with 0.1 keep main, and values move between them unchanged
SELECT typstorage FROM pg_type WHERE typname = 'fastjson';
CREATE TABLE docs_02 (id int, doc fastjson);
SELECT attrelid::regclass AS tab, attstorage FROM pg_attribute
WHERE attrelid IN ('docs'::regclass, 'wide_01'::regclass, 'docs_02'::regclass) AND attname = 'doc' ORDER BY 1;
INSERT INTO docs_02 SELECT id, doc FROM docs;
SELECT count(*) AS rows, count(*) FILTER (WHERE fastjson_send(n.doc) = b.bytes) AS same
FROM docs_02 n JOIN before b USING (id);
-- a document of 4 kB that hardly compresses stays in its row in a table made
-- with 0.1 (main), and goes out of line in one made now, read back the same
INSERT INTO wide_01 SELECT format('{"h":"%s"}', string_agg(md5(i::text), ''))::fastjson FROM generate_series(1, 120) i;
INSERT INTO docs_02 SELECT 700, doc FROM wide_01;
SELECT c.relname AS tab, pg_relation_size(c.reltoastrelid) > 0 AS out_of_line
FROM pg_class c WHERE c.relname IN ('wide_01', 'docs_02') ORDER BY 1;
SELECT (SELECT doc FROM wide_01) = (SELECT doc FROM docs_02 WHERE id = 700) AS same_700,
	(SELECT length(doc ->> 'h') FROM docs_02 WHERE id = 700) AS h_length;
DROP TABLE docs_02, wide_01;
-- 0.2's objects are there
SELECT count(*) FROM fastjson_ndjson_lines(e'{"a":1}\n{"a":');
RESET enable_seqscan;
-- and the extension drops cleanly, with every object the update made
DROP EXTENSION fastjson CASCADE;
SELECT count(*) AS left_behind FROM pg_proc WHERE proname LIKE 'fastjson%';
\c :regress_db
DROP DATABASE fastjson_upgrade;
