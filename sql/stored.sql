-- Lookups in stored values that are compressed (pglz, lz4) or out of line
-- (TOAST): ->, ->>, #> and #>> read a prefix of such a value and fetch more
-- only when the lookup needs it. The answers must be those of the whole
-- value, and of jsonb.
CREATE TEMP TABLE docs (id int, doc text);
INSERT INTO docs VALUES
	-- 20 members (key index in front), 57 kB; "dup" early and again last
	(1, '{"type":"big","dup":1,"n":-2.5,"tags":["a","b",{"deep":[10,20,30]}],' ||
		(SELECT string_agg(format('"k%s":"%s"', g, repeat(chr(97 + g % 26), 3800)), ',')
		 FROM generate_series(1, 15) g) ||
		',"tail":{"x":{"y":"end"}},"dup":2}'),
	-- the first member over 64 kB: the key index goes after the members
	(2, '{"payload":"' || repeat('xyz', 30000) || '","id":7,"meta":{"a":[1,2,3]},"id":8,' ||
		(SELECT string_agg(format('"m%s":%s', g, g), ',') FROM generate_series(1, 10) g) || '}'),
	-- a small object (no key index) with a large member first, duplicates last
	(3, '{"blob":"' || repeat('q', 50000) || '","k":1,"k":{"z":[true,false,null]}}'),
	-- an array root
	(4, '[' || (SELECT string_agg(format('{"i":%s,"s":"%s"}', g, repeat('s', 300)), ',')
				FROM generate_series(0, 199) g) || ']'),
	-- 100 members: a trailing key index
	(5, '{' || (SELECT string_agg(format('"f%s":["%s",%s]', g, repeat('f', 400), g), ',')
				FROM generate_series(1, 100) g) || '}'),
	-- 10 members, hard to compress: compressed and out of line
	(6, '{"type":"hashes",' || (SELECT string_agg(format('"h%s":"%s"', g,
			(SELECT string_agg(md5(g::text || '-' || i::text), '') FROM generate_series(1, 64) i)), ',')
		FROM generate_series(1, 8) g) || ',"r":"' || repeat('r', 30000) || '"}');

CREATE TEMP TABLE stored_pglz (id int, doc fastjson);
ALTER TABLE stored_pglz ALTER COLUMN doc SET COMPRESSION pglz;
CREATE TEMP TABLE stored_lz4 (id int, doc fastjson);
ALTER TABLE stored_lz4 ALTER COLUMN doc SET COMPRESSION lz4;
CREATE TEMP TABLE stored_external (id int, doc fastjson);
ALTER TABLE stored_external ALTER COLUMN doc SET STORAGE EXTERNAL;
INSERT INTO stored_pglz SELECT id, doc::fastjson FROM docs;
INSERT INTO stored_lz4 SELECT id, doc::fastjson FROM docs;
INSERT INTO stored_external SELECT id, doc::fastjson FROM docs;
-- how each is stored
SELECT id, pg_column_compression(p.doc) AS pglz, pg_column_compression(l.doc) AS lz4,
	pg_column_compression(e.doc) AS external, pg_column_size(e.doc) > 2000 AS external_out_of_line
FROM stored_pglz p JOIN stored_lz4 l USING (id) JOIN stored_external e USING (id) ORDER BY id;

CREATE TEMP TABLE paths (path text[]);
INSERT INTO paths VALUES ('{type}'), ('{dup}'), ('{n}'), ('{tags,2,deep,-1}'), ('{tags,-3}'), ('{k15}'),
	('{tail,x,y}'), ('{tail,x,z}'), ('{missing}'), ('{id}'), ('{meta,a,1}'), ('{m10}'), ('{payload}'),
	('{k}'), ('{k,z,0}'), ('{blob}'), ('{0,i}'), ('{-1,i}'), ('{150,s}'), ('{200,i}'), ('{-201}'),
	('{f1,1}'), ('{f100,1}'), ('{f50,0}'), ('{f101}'), ('{type,0}'), ('{}'), ('{tags,x}'), ('{tags,NULL}'),
	('{h1}'), ('{h8}'), ('{r}');

-- every path in every stored form against the same value held whole (a cast
-- from text makes a new, plain value) and against jsonb
SELECT s.form, count(*) AS lookups,
	count(*) FILTER (WHERE (s.doc #> p.path) IS NOT NULL) AS found,
	bool_and((s.doc #> p.path) IS NOT DISTINCT FROM (s.doc::text::fastjson #> p.path)) AS path_same,
	bool_and((s.doc #>> p.path) IS NOT DISTINCT FROM (s.doc::text::fastjson #>> p.path)) AS path_text_same,
	bool_and((s.doc #> p.path)::jsonb IS NOT DISTINCT FROM (s.doc::text::jsonb #> p.path)) AS path_as_jsonb,
	bool_and(cardinality(p.path) <> 1 OR
			 ((s.doc -> p.path[1]) IS NOT DISTINCT FROM (s.doc::text::fastjson -> p.path[1]) AND
			  (s.doc ->> p.path[1]) IS NOT DISTINCT FROM (s.doc::text::fastjson ->> p.path[1]))) AS arrow_same
FROM (SELECT 'pglz' AS form, id, doc FROM stored_pglz
	  UNION ALL SELECT 'lz4', id, doc FROM stored_lz4
	  UNION ALL SELECT 'external', id, doc FROM stored_external) s, paths p
GROUP BY s.form ORDER BY s.form;

-- the last of duplicate keys wins in a prefix too
SELECT id, doc ->> 'dup' AS dup, doc ->> 'id' AS id_member, doc -> 'k' AS k FROM stored_pglz WHERE id <= 3 ORDER BY id;

-- a member near the start of an out-of-line value reads a few TOAST blocks,
-- not the whole value (blocks of the TOAST table fetched in this transaction)
BEGIN;
CREATE TEMP TABLE toast_blocks (step text, fetched bigint);
INSERT INTO toast_blocks SELECT 'before', pg_stat_get_xact_blocks_fetched(reltoastrelid)
	FROM pg_class WHERE oid = 'stored_external'::regclass;
SELECT doc ->> 'type' AS type FROM stored_external WHERE id = 1;
INSERT INTO toast_blocks SELECT 'lookup', pg_stat_get_xact_blocks_fetched(reltoastrelid)
	FROM pg_class WHERE oid = 'stored_external'::regclass;
SELECT length(doc::text) AS text_length FROM stored_external WHERE id = 1;
INSERT INTO toast_blocks SELECT 'whole', pg_stat_get_xact_blocks_fetched(reltoastrelid)
	FROM pg_class WHERE oid = 'stored_external'::regclass;
SELECT (SELECT fetched FROM toast_blocks WHERE step = 'lookup') - (SELECT fetched FROM toast_blocks WHERE step = 'before')
		<= 2 AS lookup_reads_a_prefix,
	(SELECT fetched FROM toast_blocks WHERE step = 'whole') - (SELECT fetched FROM toast_blocks WHERE step = 'lookup')
		>= 5 AS text_reads_it_all;
COMMIT;
