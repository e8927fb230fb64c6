-- Lookups in stored values: kept by fastjson in blocks compressed on their
-- own (the stored form of a large value made by an input function), in the
-- row or out of line; or kept as a tape that PostgreSQL compressed (pglz,
-- lz4) or moved out of line (TOAST). ->, ->>, #> and #>> read only the blocks,
-- or the prefix, they need. The answers must be those of the whole value
-- (doc #> '{}', a plain copy), and of jsonb.
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
	-- 10 members, hard to compress: kept as a tape, out of line
	(6, '{"type":"hashes",' || (SELECT string_agg(format('"h%s":"%s"', g,
			(SELECT string_agg(md5(g::text || '-' || i::text), '') FROM generate_series(1, 64) i)), ',')
		FROM generate_series(1, 9) g) || '}'),
	-- 60 members (key index in front), each an array of 50 objects of hashes,
	-- words and numbers: in blocks, out of line
	(7, '{' || (SELECT string_agg(format('"k%s":[%s]', g,
			(SELECT string_agg(format('{"text":"%s%s","n":%s.5}', md5((g * 100 + i)::text), repeat(' word', 10), i), ',')
			 FROM generate_series(1, 50) i)), ',')
		FROM generate_series(1, 60) g) || '}'),
	-- 40 members, about 5 kB: in blocks, in the row
	(8, '{' || (SELECT string_agg(format('"m%s":"%s"', g, repeat(chr(97 + g % 26), 60 + g)), ',')
				FROM generate_series(1, 40) g) || ',"m1":"last"}'),
	-- 7 members (no key index), a large one in the middle, as an event of a
	-- log: in blocks with its root's keys in the header, out of line
	(9, '{"id":"9","type":"event","actor":{"login":"someone"},"payload":[' ||
		(SELECT string_agg(format('{"text":"%s%s","n":%s.5}', md5(i::text), repeat(' word', 10), i), ',')
		 FROM generate_series(1, 3000) i) || '],"public":true,"created_at":"2026-12-03","dup":9}');

CREATE TEMP TABLE stored_pglz (id int, doc fastjson);
ALTER TABLE stored_pglz ALTER COLUMN doc SET COMPRESSION pglz;
CREATE TEMP TABLE stored_lz4 (id int, doc fastjson);
ALTER TABLE stored_lz4 ALTER COLUMN doc SET COMPRESSION lz4;
CREATE TEMP TABLE stored_external (id int, doc fastjson);
ALTER TABLE stored_external ALTER COLUMN doc SET STORAGE EXTERNAL;
INSERT INTO stored_pglz SELECT id, doc::fastjson FROM docs;
INSERT INTO stored_lz4 SELECT id, doc::fastjson FROM docs;
INSERT INTO stored_external SELECT id, doc::fastjson FROM docs;
-- how each is stored: in blocks (nothing for PostgreSQL to compress: in the
-- row if it fits, else out of line), or as a tape (compressed by PostgreSQL)
SELECT id, fastjson_storage_form(p.doc) AS form, pg_column_compression(p.doc) AS pglz,
	pg_column_compression(l.doc) AS lz4, pg_column_compression(e.doc) AS external,
	pg_column_size(p.doc) < octet_length(d.doc) AS smaller_than_text,
	(SELECT pg_relation_size(reltoastrelid) > 0 FROM pg_class WHERE oid = 'stored_pglz'::regclass) AS toast_used
FROM stored_pglz p JOIN stored_lz4 l USING (id) JOIN stored_external e USING (id) JOIN docs d USING (id) ORDER BY id;

CREATE TEMP TABLE paths (path text[]);
INSERT INTO paths VALUES ('{type}'), ('{dup}'), ('{n}'), ('{tags,2,deep,-1}'), ('{tags,-3}'), ('{k15}'),
	('{tail,x,y}'), ('{tail,x,z}'), ('{missing}'), ('{id}'), ('{meta,a,1}'), ('{m10}'), ('{payload}'),
	('{k}'), ('{k,z,0}'), ('{blob}'), ('{0,i}'), ('{-1,i}'), ('{150,s}'), ('{200,i}'), ('{-201}'),
	('{f1,1}'), ('{f100,1}'), ('{f50,0}'), ('{f101}'), ('{type,0}'), ('{}'), ('{tags,x}'), ('{tags,NULL}'),
	('{h1}'), ('{h8}'), ('{r}'), ('{k1,0,text}'), ('{k30,25,n}'), ('{k60}'), ('{k60,49,n}'), ('{k60,-1,text}'), ('{m1}'), ('{m40}'), ('{m20,0}'),
	('{created_at}'), ('{actor,login}'), ('{user,screen_name}'), ('{payload,2999,n}'), ('{public}');

-- every path in every stored form against the same value held whole (a cast
-- from text makes a new, plain value) and against jsonb
SELECT s.form, count(*) AS lookups,
	count(*) FILTER (WHERE (s.doc #> p.path) IS NOT NULL) AS found,
	bool_and((s.doc #> p.path) IS NOT DISTINCT FROM ((s.doc #> '{}') #> p.path)) AS path_same,
	bool_and((s.doc #>> p.path) IS NOT DISTINCT FROM ((s.doc #> '{}') #>> p.path)) AS path_text_same,
	bool_and((s.doc #> p.path)::jsonb IS NOT DISTINCT FROM (s.doc::text::jsonb #> p.path)) AS path_as_jsonb,
	bool_and(cardinality(p.path) <> 1 OR
			 ((s.doc -> p.path[1]) IS NOT DISTINCT FROM ((s.doc #> '{}') -> p.path[1]) AND
			  (s.doc ->> p.path[1]) IS NOT DISTINCT FROM ((s.doc #> '{}') ->> p.path[1]))) AS arrow_same
FROM (SELECT 'pglz' AS form, id, doc FROM stored_pglz
	  UNION ALL SELECT 'lz4', id, doc FROM stored_lz4
	  UNION ALL SELECT 'external', id, doc FROM stored_external) s, paths p
GROUP BY s.form ORDER BY s.form;

-- @> on a large value looks up only the keys of a small object on its right
-- (reading their blocks, or a prefix), and so does <@ with the sides swapped:
-- the answers are those of the whole value (doc #> '{}'), and of jsonb
CREATE TEMP TABLE rhs (r fastjson);
INSERT INTO rhs VALUES ('{"type":"big"}'), ('{"type":"small"}'), ('{"tags":["a"]}'), ('{"tags":[{"deep":[20]}]}'),
	('{"tail":{"x":{"y":"end"}}}'), ('{"dup":2}'), ('{"dup":1}'), ('{"k":{"z":[null]}}'), ('{"id":8}'), ('{"id":7}'),
	('{"missing":1}'), ('{"type":"big","missing":1}'), ('{"k1":[{"n":1.5}]}'), ('{"k60":[{"n":50.5}]}'),
	('{"k60":[{"n":51.5}]}'), ('{"m1":"last"}'), ('{"m1":"b"}'), ('{}'), ('[]'), ('{"type":"hashes"}'), ('1'), ('[{"i":0}]');
SELECT s.form, count(*) AS checks, count(*) FILTER (WHERE s.doc @> r.r) AS contained,
	bool_and((s.doc @> r.r) = ((s.doc #> '{}') @> r.r)) AS same,
	bool_and((s.doc @> r.r) = (s.doc::jsonb @> r.r::jsonb)) AS same_as_jsonb,
	bool_and((r.r <@ s.doc) = (s.doc @> r.r)) AS contained_same
FROM (SELECT 'pglz' AS form, id, doc FROM stored_pglz
	  UNION ALL SELECT 'lz4', id, doc FROM stored_lz4
	  UNION ALL SELECT 'external', id, doc FROM stored_external) s, rhs r
GROUP BY s.form ORDER BY s.form;

-- ? on a large value looks the key up as -> does (an object root decides);
-- an array root is checked whole (its string elements count): the answers
-- are those of the whole value, and of jsonb
CREATE TEMP TABLE stored_array (id int, doc fastjson);
INSERT INTO stored_array SELECT 9, ('[' || string_agg(format('"elem%s","%s",{"elem%s":1}', g, repeat('e', 300), g), ',') || ']')::fastjson
FROM generate_series(1, 100) g;
CREATE TEMP TABLE keys (k text);
INSERT INTO keys VALUES ('type'), ('dup'), ('tail'), ('x'), ('missing'), ('k60'), ('m40'), ('id'), ('payload'), ('blob'),
	('h8'), ('f100'), ('i'), ('elem7'), ('elem100'), ('elem101'), (''), ('created_at'), ('user'), ('public');
SELECT s.form, count(*) AS checks, count(*) FILTER (WHERE s.doc ? k.k) AS present,
	bool_and((s.doc ? k.k) = ((s.doc #> '{}') ? k.k)) AS same,
	bool_and((s.doc ? k.k) = (s.doc::jsonb ? k.k)) AS same_as_jsonb
FROM (SELECT 'pglz' AS form, id, doc FROM stored_pglz
	  UNION ALL SELECT 'lz4', id, doc FROM stored_lz4
	  UNION ALL SELECT 'external', id, doc FROM stored_external
	  UNION ALL SELECT 'array', id, doc FROM stored_array) s, keys k
GROUP BY s.form ORDER BY s.form;
SELECT fastjson_storage_form(doc) AS form, doc ? 'elem7' AS string_element, doc ? 'e' AS not_an_element FROM stored_array;

-- ?| and ?& as ? does, key by key (an array root is read whole, once)
CREATE TEMP TABLE key_sets (ks text[]);
INSERT INTO key_sets VALUES ('{type,dup}'), ('{missing,type}'), ('{missing,nothing}'), ('{}'), ('{NULL,k60}'),
	('{NULL}'), ('{elem7,elem101}'), ('{elem7,elem100}'), ('{m40,m1,m2}'), ('{h1,h8,blob}'), ('{payload,id,m10}');
SELECT s.form, count(*) AS checks, count(*) FILTER (WHERE s.doc ?| k.ks) AS any_present,
	count(*) FILTER (WHERE s.doc ?& k.ks) AS all_present,
	bool_and((s.doc ?| k.ks) = ((s.doc #> '{}') ?| k.ks) AND (s.doc ?& k.ks) = ((s.doc #> '{}') ?& k.ks)) AS same,
	bool_and((s.doc ?| k.ks) = (s.doc::jsonb ?| k.ks) AND (s.doc ?& k.ks) = (s.doc::jsonb ?& k.ks)) AS same_as_jsonb
FROM (SELECT 'pglz' AS form, id, doc FROM stored_pglz
	  UNION ALL SELECT 'lz4', id, doc FROM stored_lz4
	  UNION ALL SELECT 'external', id, doc FROM stored_external
	  UNION ALL SELECT 'array', id, doc FROM stored_array) s, key_sets k
GROUP BY s.form ORDER BY s.form;

-- -> n and ->> n on a large value read the element as #> does (only the
-- blocks, or the prefix, it needs), with jsonb's rules: an object has no
-- elements, and a scalar root is element 0 (and -1) of itself
CREATE TEMP TABLE stored_scalar (id int, doc fastjson);
INSERT INTO stored_scalar VALUES (10, to_json(repeat('scalar ', 2000))::text::fastjson);
SELECT fastjson_storage_form(doc) AS form, doc -> 1 AS second, doc ->> -2 AS second_last,
	length(doc ->> 0) AS first_length, length(doc ->> -1) AS last_length FROM stored_scalar;
SELECT s.form, count(*) AS checks, count(*) FILTER (WHERE (s.doc -> n) IS NOT NULL) AS found,
	bool_and((s.doc -> n) IS NOT DISTINCT FROM ((s.doc #> '{}') -> n)) AS same,
	bool_and((s.doc ->> n) IS NOT DISTINCT FROM ((s.doc #> '{}') ->> n)) AS text_same,
	bool_and((s.doc -> n)::jsonb IS NOT DISTINCT FROM (s.doc::jsonb -> n)) AS same_as_jsonb
FROM (SELECT 'pglz' AS form, id, doc FROM stored_pglz
	  UNION ALL SELECT 'lz4', id, doc FROM stored_lz4
	  UNION ALL SELECT 'external', id, doc FROM stored_external
	  UNION ALL SELECT 'array', id, doc FROM stored_array
	  UNION ALL SELECT 'scalar', id, doc FROM stored_scalar) s,
	unnest(ARRAY[0, 1, 2, -1, -2, 150, 199, 200, 299, 300, -300, -301]) n
GROUP BY s.form ORDER BY s.form;

-- the last of duplicate keys wins in a prefix too
SELECT id, doc ->> 'dup' AS dup, doc ->> 'id' AS id_member, doc -> 'k' AS k FROM stored_pglz WHERE id <= 3 ORDER BY id;

-- a member near the start of an out-of-line value reads a few TOAST blocks,
-- not the whole value (blocks of the TOAST table fetched in this
-- transaction): a tape kept out of line (row 6), and a value in blocks (7),
-- where a member near the end costs no more than one near the start
-- TOAST blocks of rel fetched so far in this transaction
CREATE FUNCTION pg_temp.toast_fetched(rel regclass) RETURNS bigint LANGUAGE sql
	AS $$ SELECT pg_stat_get_xact_blocks_fetched(reltoastrelid) FROM pg_class WHERE oid = rel $$;
SELECT id, fastjson_storage_form(doc) AS form FROM stored_external WHERE id IN (6, 7) ORDER BY id;
BEGIN;
CREATE TEMP TABLE toast_blocks (step text, fetched bigint);
INSERT INTO toast_blocks VALUES ('before', pg_temp.toast_fetched('stored_external'));
SELECT doc ->> 'type' AS type FROM stored_external WHERE id = 6;
INSERT INTO toast_blocks VALUES ('lookup', pg_temp.toast_fetched('stored_external'));
SELECT length(doc::text) AS text_length FROM stored_external WHERE id = 6;
INSERT INTO toast_blocks VALUES ('whole', pg_temp.toast_fetched('stored_external'));
SELECT doc #>> '{k1,0,n}' AS first_member FROM stored_external WHERE id = 7;
INSERT INTO toast_blocks VALUES ('blocks first', pg_temp.toast_fetched('stored_external'));
SELECT doc #>> '{k60,49,n}' AS last_member FROM stored_external WHERE id = 7;
INSERT INTO toast_blocks VALUES ('blocks last', pg_temp.toast_fetched('stored_external'));
SELECT length(doc::text) AS text_length FROM stored_external WHERE id = 7;
INSERT INTO toast_blocks VALUES ('blocks whole', pg_temp.toast_fetched('stored_external'));
CREATE TEMP TABLE toast_steps AS
SELECT step, fetched - lag(fetched) OVER (ORDER BY ctid) AS blocks FROM toast_blocks;
SELECT (SELECT blocks FROM toast_steps WHERE step = 'lookup') <= 2 AS tape_lookup_reads_a_prefix,
	(SELECT blocks FROM toast_steps WHERE step = 'whole') > (SELECT blocks FROM toast_steps WHERE step = 'lookup')
		AS tape_text_reads_more,
	(SELECT blocks FROM toast_steps WHERE step = 'blocks first') * 2 <
		(SELECT blocks FROM toast_steps WHERE step = 'blocks whole') AS first_member_reads_under_half,
	(SELECT blocks FROM toast_steps WHERE step = 'blocks last') * 2 <
		(SELECT blocks FROM toast_steps WHERE step = 'blocks whole') AS last_member_reads_under_half;
COMMIT;

-- the members after an event's large payload (row 9: "public", "created_at"
-- and "dup"), kept as they are in the header of the stored form (its tail),
-- are read from the first TOAST chunk, as the first member is: no block
-- past the first is fetched, nor decoded
SELECT id, fastjson_storage_form(doc) AS form, pg_column_size(doc) > 20000 AS large FROM stored_external WHERE id = 9;
BEGIN;
CREATE TEMP TABLE toast_blocks3 (step text, fetched bigint);
INSERT INTO toast_blocks3 VALUES ('before', pg_temp.toast_fetched('stored_external'));
SELECT doc ->> 'id' AS first_member FROM stored_external WHERE id = 9;
INSERT INTO toast_blocks3 VALUES ('first', pg_temp.toast_fetched('stored_external'));
SELECT doc ->> 'dup' AS last_member, doc -> 'public' AS public, doc ? 'created_at' AS has_created_at,
	doc @> '{"created_at":"2026-12-03"}' AS contains_created_at FROM stored_external WHERE id = 9;
INSERT INTO toast_blocks3 VALUES ('tail', pg_temp.toast_fetched('stored_external'));
SELECT length(doc::text) AS text_length FROM stored_external WHERE id = 9;
INSERT INTO toast_blocks3 VALUES ('whole', pg_temp.toast_fetched('stored_external'));
CREATE TEMP TABLE toast_steps3 AS
SELECT step, fetched - lag(fetched) OVER (ORDER BY ctid) AS blocks FROM toast_blocks3;
SELECT (SELECT blocks FROM toast_steps3 WHERE step = 'tail') <= 4 * (SELECT blocks FROM toast_steps3 WHERE step = 'first')
		AS tail_reads_as_the_first_member,
	(SELECT blocks FROM toast_steps3 WHERE step = 'whole') > 8 * (SELECT blocks FROM toast_steps3 WHERE step = 'first')
		AS whole_reads_many_more;
COMMIT;

-- the same for -> n near the start of an array root, and for ?&, ?| and <@
-- on keys near the start of an object (row 7), out of line: each query reads
-- fewer TOAST blocks than the whole value (a few a key, where the whole
-- value is 16)
CREATE TEMP TABLE array_external (doc fastjson);
ALTER TABLE array_external ALTER COLUMN doc SET STORAGE EXTERNAL;
INSERT INTO array_external SELECT ('[' || string_agg(format('{"i":%s,"h":"%s%s"}', g,
		(SELECT string_agg(md5((g * 100 + i)::text), '') FROM generate_series(1, 4) i), repeat(' word', 30)), ',') || ']')::fastjson
	FROM generate_series(0, 299) g;
SELECT fastjson_storage_form(doc) AS form, pg_column_size(doc) > 20000 AS large FROM array_external;
BEGIN;
CREATE TEMP TABLE toast_blocks2 (rel regclass, step text, fetched bigint);
INSERT INTO toast_blocks2 VALUES ('array_external', 'before', pg_temp.toast_fetched('array_external'));
SELECT doc -> 2 ->> 'i' AS i FROM array_external;
INSERT INTO toast_blocks2 VALUES ('array_external', 'element', pg_temp.toast_fetched('array_external'));
SELECT length(doc::text) AS text_length FROM array_external;
INSERT INTO toast_blocks2 VALUES ('array_external', 'whole', pg_temp.toast_fetched('array_external'));
INSERT INTO toast_blocks2 VALUES ('stored_external', 'before', pg_temp.toast_fetched('stored_external'));
SELECT doc ?& '{k1,k2}' AS has_k1_k2 FROM stored_external WHERE id = 7;
INSERT INTO toast_blocks2 VALUES ('stored_external', 'all keys', pg_temp.toast_fetched('stored_external'));
SELECT doc ?| '{nothing,k3}' AS has_k3 FROM stored_external WHERE id = 7;
INSERT INTO toast_blocks2 VALUES ('stored_external', 'any key', pg_temp.toast_fetched('stored_external'));
SELECT '{"k1":[{"n":1.5}]}' <@ doc AS k1_contained FROM stored_external WHERE id = 7;
INSERT INTO toast_blocks2 VALUES ('stored_external', 'contained', pg_temp.toast_fetched('stored_external'));
SELECT length(doc::text) AS text_length FROM stored_external WHERE id = 7;
INSERT INTO toast_blocks2 VALUES ('stored_external', 'whole', pg_temp.toast_fetched('stored_external'));
CREATE TEMP TABLE toast_steps2 AS
SELECT rel, step, fetched - lag(fetched) OVER (PARTITION BY rel ORDER BY ctid) AS blocks FROM toast_blocks2;
SELECT t.rel, t.step, t.blocks < w.blocks AS reads_less_than_whole
FROM toast_steps2 t JOIN toast_steps2 w ON w.rel = t.rel AND w.step = 'whole'
WHERE t.step NOT IN ('before', 'whole') ORDER BY t.rel::text DESC, t.step;
COMMIT;

-- Tapes of 800 to 2,000 bytes are stored in blocks only when that makes
-- them a quarter smaller (and their first 256 bytes compress by an eighth);
-- shorter tapes never. Lookups and output are the same either way.
CREATE TEMP TABLE small_tapes (id int, doc fastjson);
INSERT INTO small_tapes VALUES
	(1, ('{"a":"' || repeat('x', 600) || '","b":1}')::fastjson),
	(2, ('{"a":"' || repeat('x', 900) || '","b":2}')::fastjson),
	(3, (SELECT ('{"a":"' || string_agg(md5(g::text), '') || '","b":3}')::fastjson FROM generate_series(1, 30) g)),
	(4, (SELECT ('{"a":[' || string_agg(format('{"url":"https://api.example.com/repos/o/n/%s","id":%s}', g, g), ',')
		|| '],"b":4}')::fastjson FROM generate_series(1, 20) g));
SELECT id, octet_length(fastjson_send(doc)) AS tape_bytes, fastjson_storage_form(doc) AS form,
	length(doc ->> 'a') AS a_length, doc -> 'b' AS b, doc #>> '{a,19,url}' AS last_url,
	doc::text::jsonb = doc::jsonb AS same_as_jsonb
FROM small_tapes ORDER BY id;

-- A lookup decodes first as much of block 0 as the query's last lookup
-- needed: keys found near the start, then far into the first kilobytes, then
-- near the start again, in one query, give jsonb's answers.
CREATE TEMP TABLE first_prefix AS
SELECT g AS id, ('{"a":' || g || ',"pad":"' || repeat('y', (g % 40) * 60) || '","b":{"c":' || g || '}}')::text AS txt
FROM generate_series(1, 400) g;
SELECT count(*) AS rows,
	bool_and((txt::fastjson #>> '{b,c}') IS NOT DISTINCT FROM (txt::jsonb #>> '{b,c}')) AS nested_same,
	bool_and((txt::fastjson ->> 'a') IS NOT DISTINCT FROM (txt::jsonb ->> 'a')) AS first_same,
	bool_and((txt::fastjson @> '{"b":{"c":7}}') = (txt::jsonb @> '{"b":{"c":7}}')) AS contains_same
FROM first_prefix;
CREATE TEMP TABLE first_prefix_docs AS SELECT id, txt::fastjson AS doc FROM first_prefix;
SELECT count(*) FILTER (WHERE fastjson_storage_form(doc) = 'blocks') AS in_blocks,
	sum((doc #>> '{b,c}')::int) = (SELECT sum(id) FROM first_prefix) AS nested_sum,
	sum((doc ->> 'a')::int) = (SELECT sum(id) FROM first_prefix) AS first_sum,
	count(*) FILTER (WHERE doc @> '{"b":{"c":7}}') AS contains_7
FROM (SELECT doc FROM first_prefix_docs ORDER BY (id % 40), id) s;

-- Past the first kilobyte (here behind a long string, with a member after it
-- too long for the tail), a lookup starts with a short prefix and, when it
-- goes on, decodes block 0 at once as far as the query's last value found
-- there needed: too little when the values end later row by row, too much
-- when they end sooner (DESC). The answers are jsonb's.
CREATE TEMP TABLE far_prefix AS
SELECT g AS id, ('{"a":' || g || ',"pad":"' || md5(g::text) || md5((-g)::text) || repeat('y', (g % 40) * 60) ||
	'","b":{"c":' || g || '},"z":"' || repeat('z', 200) || '"}')::text AS txt
FROM generate_series(1, 400) g;
CREATE TEMP TABLE far_prefix_docs AS SELECT id, txt::fastjson AS doc, txt::jsonb AS j FROM far_prefix;
SELECT count(*) FILTER (WHERE fastjson_storage_form(doc) = 'blocks') AS in_blocks,
	min(pg_column_size(doc)) > 127 AS four_byte_headers FROM far_prefix_docs;
SELECT string_agg(doc #>> '{b,c}', ',') = string_agg(j #>> '{b,c}', ',') AS nested_same,
	count(*) FILTER (WHERE doc @> '{"b":{"c":7}}') AS contains_7,
	count(*) FILTER (WHERE doc -> 'b' ->> 'c' = (id + 0)::text) AS arrow_chain_rows
FROM (SELECT id, doc, j FROM far_prefix_docs ORDER BY (id % 40), id) s;
SELECT string_agg(doc #>> '{b,c}', ',') = string_agg(j #>> '{b,c}', ',') AS nested_same_desc,
	count(*) FILTER (WHERE doc @> '{"b":{"c":7}}') AS contains_7_desc,
	count(*) FILTER (WHERE doc -> 'b' ->> 'c' = (id + 0)::text) AS arrow_chain_rows_desc
FROM (SELECT id, doc, j FROM far_prefix_docs ORDER BY (id % 40) DESC, id) s;

-- Many values in blocks, out of line: a lookup reads the first TOAST chunk
-- and decodes block 0 only as far as it needs (a key near the start); once
-- most lookups of a query needed another fetch (a key near the end), the
-- rest read each value whole in one fetch. Every answer is jsonb's.
CREATE TEMP TABLE many_external (id int, doc fastjson);
ALTER TABLE many_external ALTER COLUMN doc SET STORAGE EXTERNAL;
INSERT INTO many_external
SELECT g, ('{"kind":"k' || g % 3 || '","user":{"geo":{"city":"c' || g % 5 || '"}},"items":[' ||
	(SELECT string_agg(format('{"sku":"%s","text":"%s","n":%s}', md5((g * 1000 + i)::text),
		repeat(chr(97 + (g + i) % 26), 20 + i % 7), i), ',') FROM generate_series(1, 20 + g % 60) i) ||
	'],"seq":' || g || '}')::fastjson
FROM generate_series(1, 60) g;
SELECT count(*) AS rows, count(*) FILTER (WHERE fastjson_storage_form(doc) = 'blocks') AS in_blocks,
	count(*) FILTER (WHERE pg_column_size(doc) > 2000) AS out_of_line_sized
FROM many_external;
SELECT (SELECT count(*) FROM many_external WHERE doc ->> 'kind' = 'k1') AS kind_k1,
	(SELECT count(*) FROM many_external WHERE doc::jsonb ->> 'kind' = 'k1') AS jsonb_kind_k1,
	(SELECT sum((doc ->> 'seq')::int) FROM many_external) AS seq_sum,
	(SELECT sum((doc::jsonb ->> 'seq')::int) FROM many_external) AS jsonb_seq_sum,
	(SELECT count(*) FROM many_external WHERE doc #>> '{user,geo,city}' = 'c2') AS city_c2,
	(SELECT count(*) FROM many_external WHERE doc::jsonb #>> '{user,geo,city}' = 'c2') AS jsonb_city_c2,
	(SELECT count(*) FROM many_external WHERE doc @> '{"seq":42}') AS seq_42,
	(SELECT bool_and(doc #> '{items,-1}' = (doc #> '{}') #> '{items,-1}') FROM many_external) AS last_item_same;

-- A large value made by an input function or a cast is held as its plain tape
-- until PostgreSQL stores or copies it (fastjson_store.c): read as it is, it
-- is a tape and gives the answers of the stored value; stored, copied into a
-- plan's constant, an array, a record, a sort, a materialized CTE or a
-- PL/pgSQL variable, it is in blocks, the same tape as a value stored from a
-- table.
CREATE TEMP TABLE pending_src AS
SELECT g AS id, ('{"kind":"k' || g % 3 || '","items":[' ||
	(SELECT string_agg(format('{"sku":"%s","n":%s}', md5((g * 100 + i)::text), i), ',') FROM generate_series(1, 40 + 20 * g) i) ||
	'],"seq":' || g || '}') AS txt
FROM generate_series(1, 5) g;
CREATE TEMP TABLE pending_stored AS SELECT id, txt::fastjson AS doc FROM pending_src;
SELECT p.id, fastjson_storage_form(s.doc) AS stored_form,
	fastjson_storage_form(p.txt::fastjson) AS cast_form,
	fastjson_send(p.txt::fastjson) = fastjson_send(s.doc) AS same_tape,
	(p.txt::fastjson ->> 'seq') = (s.doc ->> 'seq') AS arrow_same,
	(p.txt::fastjson #> '{items,39}') = (s.doc #> '{items,39}') AS path_same,
	p.txt::fastjson @> '{"kind":"k1"}' AS contains_k1,
	p.txt::fastjson = s.doc AS equal,
	fastjson_hash(p.txt::fastjson) = fastjson_hash(s.doc) AS same_hash,
	(p.txt::fastjson)::text = s.doc::text AS text_same
FROM pending_src p JOIN pending_stored s USING (id) ORDER BY p.id;
-- copies: an array, a record, a sort, a materialized CTE, DISTINCT
SELECT (SELECT array_agg(txt::fastjson ORDER BY id) FROM pending_src)::text =
	(SELECT array_agg(doc ORDER BY id) FROM pending_stored)::text AS array_same,
	(SELECT string_agg((r).doc ->> 'seq', ',' ORDER BY (r).id)
	 FROM (SELECT ROW(id, txt::fastjson)::pending_stored AS r FROM pending_src) x) AS record_seqs,
	(SELECT string_agg(d ->> 'seq', ',') FROM (SELECT txt::fastjson AS d FROM pending_src ORDER BY txt::fastjson DESC) s) AS sorted_desc,
	(WITH m AS MATERIALIZED (SELECT txt::fastjson AS d FROM pending_src)
	 SELECT string_agg(fastjson_storage_form(d) || ':' || (d ->> 'seq'), ',') FROM m) AS materialized,
	(SELECT count(DISTINCT d) FROM (SELECT txt::fastjson AS d FROM pending_src UNION ALL SELECT doc FROM pending_stored) u) AS distinct_docs;
-- PL/pgSQL: a variable keeps the value; assigning another one frees the first
DO $$
DECLARE
	x fastjson;
	y fastjson;
	total int := 0;
	t text;
BEGIN
	FOR t IN SELECT txt FROM pending_src ORDER BY id LOOP
		x := t::fastjson;
		y := x;
		x := '{"k":1}';
		total := total + (y ->> 'seq')::int + (x ->> 'k')::int;
	END LOOP;
	RAISE NOTICE 'total %, last % in %', total, y #>> '{items,-1,n}', fastjson_storage_form(y);
END
$$;
-- a plan's constant is copied, so in blocks
SELECT txt AS big_txt FROM pending_src WHERE id = 5 \gset
SELECT fastjson_storage_form(:'big_txt'::fastjson) AS constant_form,
	(:'big_txt'::fastjson ->> 'seq') AS constant_seq;
-- a tape that compresses to a few bytes: stored and read back whole
CREATE TEMP TABLE pending_tiny AS SELECT ('["' || repeat('a', 3000) || '"]')::fastjson AS doc;
SELECT fastjson_storage_form(doc) AS form, length(doc ->> 0) AS length,
	doc = ('["' || repeat('a', 3000) || '"]')::fastjson AS same
FROM pending_tiny;
-- a parameter read twice, one use handed to a PL/pgSQL function that assigns
-- to it: the value is passed read-only, so the other use still reads it
CREATE FUNCTION pg_temp.first_sku(x fastjson) RETURNS text LANGUAGE plpgsql AS
$$ BEGIN x := x -> 'items'; RETURN x #>> '{0,sku}'; END $$;
CREATE FUNCTION pg_temp.txt_of(i int) RETURNS text VOLATILE LANGUAGE sql AS
$$ SELECT txt FROM pending_src WHERE id = i $$;
SET plan_cache_mode = force_generic_plan;
PREPARE pending_twice(fastjson) AS SELECT pg_temp.first_sku($1) = ($1 #>> '{items,0,sku}') AS same_sku, $1 ->> 'seq' AS seq;
EXECUTE pending_twice(pg_temp.txt_of(4)::fastjson);
EXECUTE pending_twice(pg_temp.txt_of(5)::fastjson);
DEALLOCATE pending_twice;
RESET plan_cache_mode;
SELECT pg_temp.first_sku(d) = (d #>> '{items,0,sku}') AS same_sku, d ->> 'seq' AS seq
FROM (SELECT fastjson_ndjson((SELECT string_agg(txt, e'\n' ORDER BY id) FROM pending_src)) AS d) s;

-- the other ways in: CBOR, jsonb, raw UTF-8, NDJSON
SELECT id,
	fastjson_from_cbor(fastjson_to_cbor(doc)) = doc AS cbor_same,
	fastjson_storage_form(fastjson_from_cbor(fastjson_to_cbor(doc))) AS cbor_form,
	(doc::jsonb::fastjson) = doc AS jsonb_same,
	fastjson_from_utf8(convert_to(txt, 'UTF8')) ->> 'seq' AS utf8_seq
FROM pending_stored JOIN pending_src USING (id) ORDER BY id;
SELECT count(*) AS lines, sum((d ->> 'seq')::int) AS seq_sum, min(fastjson_storage_form(d)) AS form
FROM fastjson_ndjson((SELECT string_agg(txt, e'\n') FROM pending_src)) d;

-- Documents that functions build or edit are held the same way: each edit of
-- the four documents in blocks above, and each document built from them, is
-- stored in blocks (not as a tape for PostgreSQL to compress whole), and is
-- the same as the edit made through jsonb. (fastjson_set_lax with a NULL value
-- is compared with jsonb_set and a JSON null, what use_json_null means:
-- jsonb_set_lax itself fails on such jsonb values on PostgreSQL 16 to 19.)
CREATE TEMP TABLE edited AS SELECT id, doc, doc::jsonb AS j FROM pending_stored WHERE id >= 2;
SET default_toast_compression = pglz;	-- lz4 (19's default) may compress blocks again
CREATE TEMP TABLE edit_results AS
SELECT id, '||' AS edit, doc || '{"seen":true}' AS doc, j || '{"seen":true}' AS j FROM edited
UNION ALL SELECT id, '- key', doc - 'kind', j - 'kind' FROM edited
UNION ALL SELECT id, '- keys', doc - '{kind,seq,NULL}'::text[], j - '{kind,seq,NULL}'::text[] FROM edited
UNION ALL SELECT id, '- index', (doc -> 'items') - 0, (j -> 'items') - 0 FROM edited
UNION ALL SELECT id, '#-', doc #- '{items,2}', j #- '{items,2}' FROM edited
UNION ALL SELECT id, 'fastjson_set', fastjson_set(doc, '{items,0,n}', '"first"'), jsonb_set(j, '{items,0,n}', '"first"') FROM edited
UNION ALL SELECT id, 'fastjson_set_lax', fastjson_set_lax(doc, '{items,0,n}', NULL), jsonb_set(j, '{items,0,n}', 'null') FROM edited
UNION ALL SELECT id, 'fastjson_insert', fastjson_insert(doc, '{items,1}', '{"sku":"new"}'), jsonb_insert(j, '{items,1}', '{"sku":"new"}') FROM edited
UNION ALL SELECT id, 'fastjson_strip_nulls', fastjson_strip_nulls(doc || '{"z":null}'), jsonb_strip_nulls(j || '{"z":null}') FROM edited
UNION ALL SELECT id, 'fastjson_build_array', fastjson_build_array(doc, 1), jsonb_build_array(j, 1) FROM edited
UNION ALL SELECT id, 'fastjson_build_object', fastjson_build_object('id', id, 'doc', doc), jsonb_build_object('id', id, 'doc', j) FROM edited
UNION ALL SELECT id, 'to_fastjson', to_fastjson(e), to_jsonb(e) FROM edited e
UNION ALL SELECT id, 'ts_headline', ts_headline(doc, to_tsquery('simple', 'k1')), ts_headline(j, to_tsquery('simple', 'k1')) FROM edited;
SELECT edit, min(fastjson_storage_form(doc)) AS min_form, max(fastjson_storage_form(doc)) AS max_form,
	count(*) FILTER (WHERE pg_column_compression(doc) IS NOT NULL) AS pg_compressed,
	bool_and(doc::jsonb = j) AS same_as_jsonb
FROM edit_results GROUP BY edit ORDER BY edit;
RESET default_toast_compression;
-- in an UPDATE, two subscripts at once and || then -; a subscript on a NULL document
UPDATE edited SET doc['kind'] = '"edited"', doc['extra'] = '[1,2]', j['kind'] = '"edited"', j['extra'] = '[1,2]' WHERE id = 2;
UPDATE edited SET doc = (doc || '{"seen":true}') - 'seq', j = (j || '{"seen":true}') - 'seq' WHERE id = 3;
INSERT INTO edited VALUES (6, NULL, NULL);
UPDATE edited SET doc['a']['b'] = '1', j['a']['b'] = '1' WHERE id = 6;
SELECT id, fastjson_storage_form(doc) AS form, doc::jsonb = j AS same_as_jsonb FROM edited ORDER BY id;
-- An edit that surely changes nothing returns its argument: a plain tape
-- (doc #> '{}', a copy) stays one, where a rebuilt document would now be
-- stored in blocks, and a document in blocks stays the same.
CREATE TEMP TABLE unchanged AS
SELECT id, doc #> '{}' AS doc, doc #> '{items}' AS items, doc AS stored FROM pending_stored WHERE id >= 2;
UPDATE unchanged SET doc = doc - 'no such key', items = items - 1000, stored = stored - '{x,y}'::text[] WHERE id = 2;
UPDATE unchanged SET doc = fastjson_set(doc, '{}', '1'), items = items - 'absent', stored = fastjson_insert(stored, '{}', '1') WHERE id = 3;
UPDATE unchanged SET doc = doc #- '{}', items = items - (-1000), stored = fastjson_set_lax(stored, '{x}', NULL, true, 'return_target') WHERE id = 4;
UPDATE unchanged SET doc = to_fastjson(doc), items = to_fastjson(items), stored = to_fastjson(stored) WHERE id = 5;
SELECT u.id, fastjson_storage_form(u.doc) AS doc_form, fastjson_storage_form(u.items) AS items_form, fastjson_storage_form(u.stored) AS stored_form,
	u.doc = p.doc AND u.items = p.doc -> 'items' AND u.stored = p.doc AS same
FROM unchanged u JOIN pending_stored p USING (id) ORDER BY u.id;
-- An aggregate's result is a plain tape on every version, in a window or
-- not (a value not yet stored would be compressed wherever PostgreSQL copies
-- it, as a scalar subquery does its result), and reads as jsonb's.
CREATE TEMP TABLE rolled AS
SELECT fastjson_agg(doc ORDER BY id) AS arr, fastjson_object_agg(id::text, doc ORDER BY id) AS obj,
	jsonb_agg(doc::jsonb ORDER BY id) AS jarr
FROM pending_stored WHERE id >= 2;
CREATE TEMP TABLE windowed AS
SELECT fastjson_agg(doc) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS arr
FROM pending_stored WHERE id >= 2 ORDER BY id LIMIT 1;
SELECT fastjson_storage_form(r.arr) AS arr_form, fastjson_storage_form(r.obj) AS obj_form,
	fastjson_storage_form(w.arr) AS window_form,
	r.arr::jsonb = r.jarr AND w.arr = r.arr AND r.obj -> '5' = r.arr -> 3 AS same_as_jsonb
FROM rolled r, windowed w;
-- a PL/pgSQL variable grown by || in a loop: the last value is the whole one
DO $$
DECLARE
	d fastjson := '{}';
BEGIN
	FOR i IN 1..300 LOOP
		d := d || fastjson_build_object('k' || i, md5(i::text));
	END LOOP;
	RAISE NOTICE 'keys %, k1 %, k300 %', (SELECT count(*) FROM fastjson_object_keys(d)),
		d ->> 'k1' = md5('1'), d ->> 'k300' = md5('300');
END
$$;

-- fastjson.compression_level: LZ4 HC's levels (2 to 12) store the same
-- documents smaller than LZ4's fast mode (1, the default), level 12 smaller
-- than level 2, and they read back the same, whole and by lookup; the last
-- three documents, of over 40 kB of text, are several blocks of 16 kB, each
-- compressed on its own at every level
SHOW fastjson.compression_level;
CREATE TEMP TABLE level_src AS
SELECT g AS id, '{"seq":' || g || ',"items":[' || (SELECT string_agg(format('{"sku":"SKU-%s","name":"item %s of order %s","qty":%s}',
	(g * i) % 97, i, g, i % 7), ',') FROM generate_series(1, CASE WHEN g > 27 THEN 700 + 40 * g ELSE 40 + 3 * g END) i)
	|| '],"end":true}' AS txt
FROM generate_series(1, 30) g;
-- (storage external: PostgreSQL compresses nothing again, whatever
-- default_toast_compression says, so pg_column_size is the stored form's)
CREATE TEMP TABLE level_1 (id int, doc fastjson);
CREATE TEMP TABLE level_2 (LIKE level_1);
CREATE TEMP TABLE level_12 (LIKE level_1);
ALTER TABLE level_1 ALTER COLUMN doc SET STORAGE external;
ALTER TABLE level_2 ALTER COLUMN doc SET STORAGE external;
ALTER TABLE level_12 ALTER COLUMN doc SET STORAGE external;
INSERT INTO level_1 SELECT id, txt::fastjson FROM level_src;
SET fastjson.compression_level = 2;
INSERT INTO level_2 SELECT id, txt::fastjson FROM level_src;
SET fastjson.compression_level = 12;
INSERT INTO level_12 SELECT id, txt::fastjson FROM level_src;
RESET fastjson.compression_level;
SELECT count(*) AS documents,
	count(*) FILTER (WHERE fastjson_storage_form(a.doc) = 'blocks' AND fastjson_storage_form(b.doc) = 'blocks'
		AND fastjson_storage_form(c.doc) = 'blocks') AS in_blocks_at_every_level,
	count(*) FILTER (WHERE b.doc::text = s.txt AND c.doc::text = s.txt) AS same_text,
	count(*) FILTER (WHERE b.doc #>> '{items,-1,name}' = a.doc #>> '{items,-1,name}'
		AND c.doc -> 'items' -> 20 = a.doc -> 'items' -> 20 AND (c.doc ->> 'end')::boolean
		AND c.doc #> '{items,-300}' IS NOT DISTINCT FROM a.doc #> '{items,-300}'
		AND b.doc @> '{"items":[{"qty":6}]}' AND b.doc = a.doc AND fastjson_hash(c.doc) = fastjson_hash(a.doc)) AS same_lookups,
	sum(pg_column_size(b.doc)) < sum(pg_column_size(a.doc)) AS level_2_smaller,
	sum(pg_column_size(c.doc)) < sum(pg_column_size(b.doc)) AS level_12_smaller,
	count(*) FILTER (WHERE length(s.txt) > 40000) AS of_over_40_kb
FROM level_src s JOIN level_1 a USING (id) JOIN level_2 b USING (id) JOIN level_12 c USING (id);
-- A HC level never moves a value into its row: a document whose stored
-- form at level 1 is too large for a row of its own (PostgreSQL's
-- TOAST_TUPLE_THRESHOLD less a row's 24-byte header: 2,008 bytes with 8 kB
-- pages) keeps that form when HC would bring it under, so the table's heap,
-- which every scan reads, does not grow; the others get HC's smaller form.
-- (The counts of each kind depend on LZ4's output, so the checks are that
-- there are some of each and that none changes place.)
SELECT ((current_setting('block_size')::int - 40) / 4) / 8 * 8 - 24 AS row_value_max \gset
CREATE TEMP TABLE place_src AS
SELECT n, '{"seq":' || n || ',"items":[' || (SELECT string_agg(format('{"sku":"SKU-%s","name":"item %s","tag":"%s","qty":%s}',
	(n * i) % 89, i, left(md5(i::text), 6), i % 7), ',' ORDER BY i) FROM generate_series(1, n) i) || '],"end":true}' AS txt
FROM generate_series(90, 130) n;
CREATE TEMP TABLE place_1 AS SELECT n, pg_column_size(txt::fastjson) AS size FROM place_src;
SET fastjson.compression_level = 2;
CREATE TEMP TABLE place_2 AS SELECT n, pg_column_size(txt::fastjson) AS size FROM place_src;
RESET fastjson.compression_level;
SELECT count(*) AS documents,
	count(*) FILTER (WHERE a.size > :row_value_max) > 0 AS some_over_a_row_at_level_1,
	count(*) FILTER (WHERE a.size <= :row_value_max) > 0 AS some_in_a_row,
	count(*) FILTER (WHERE (a.size > :row_value_max) <> (b.size > :row_value_max)) AS changed_place,
	count(*) FILTER (WHERE a.size > :row_value_max AND b.size = a.size) > 0 AS some_kept_level_1,
	count(*) FILTER (WHERE b.size < a.size) > 0 AS some_smaller,
	count(*) FILTER (WHERE b.size > a.size) AS larger
FROM place_1 a JOIN place_2 b USING (n);
SET fastjson.compression_level = 0;
SET fastjson.compression_level = 13;
-- A stored form of 3,000 bytes or more (pg_column_size less the 4-byte
-- varlena header) is whitened (its bytes after its own header XORed with a
-- fixed keystream), so that PostgreSQL, asked to compress it when its row
-- passes 2 kB, finds nothing to take out: neither pglz nor lz4 compresses it
-- again. A shorter one is not, and lz4, which keeps any
-- saving, may compress it again when other columns take its row past 2 kB;
-- lookups then read it through lz4 and its blocks. (Which of the shorter ones
-- lz4 compresses depends on LZ4's output: the checks are that some are and
-- that no whitened one is.)
CREATE TEMP TABLE wide_src AS
SELECT g, (SELECT string_agg(md5(i::text || g::text), '') FROM generate_series(1, 40) i) AS pad,
	'{"id":' || g || ',"items":[' || (SELECT string_agg(format('{"text":"%s%s","n":%s.5}',
		md5((g * 1000 + i)::text), repeat(' word', 3), i), ',') FROM generate_series(1, 10 + g * 4) i) ||
	'],"end":true}' AS txt
FROM generate_series(1, 24) g;
CREATE TEMP TABLE wide_lz4 (g int, pad text, doc fastjson);
ALTER TABLE wide_lz4 ALTER COLUMN doc SET COMPRESSION lz4;
ALTER TABLE wide_lz4 ALTER COLUMN pad SET STORAGE external;
INSERT INTO wide_lz4 SELECT g, pad, txt::fastjson FROM wide_src;
CREATE TEMP TABLE wide_pglz (g int, pad text, doc fastjson);
ALTER TABLE wide_pglz ALTER COLUMN doc SET COMPRESSION pglz;
ALTER TABLE wide_pglz ALTER COLUMN pad SET STORAGE external;
INSERT INTO wide_pglz SELECT g, pad, txt::fastjson FROM wide_src;
SELECT count(*) AS documents,
	bool_and(fastjson_storage_form(l.doc) = 'blocks') AS all_in_blocks,
	count(*) FILTER (WHERE pg_column_size(s.txt::fastjson) - 4 >= 3000) > 0 AS some_whitened,
	count(*) FILTER (WHERE pg_column_size(s.txt::fastjson) - 4 >= 3000 AND
					 pg_column_compression(l.doc) IS NOT NULL) AS whitened_lz4_compressed,
	count(*) FILTER (WHERE pg_column_size(s.txt::fastjson) - 4 >= 3000 AND
					 pg_column_compression(p.doc) IS NOT NULL) AS whitened_pglz_compressed,
	count(*) FILTER (WHERE pg_column_size(s.txt::fastjson) - 4 < 3000 AND
					 pg_column_compression(l.doc) = 'lz4') > 0 AS some_shorter_lz4_compressed,
	bool_and(l.doc::text = s.txt AND p.doc::text = s.txt) AS text_same,
	bool_and((l.doc #> '{items,-1,n}')::jsonb = s.txt::jsonb #> '{items,-1,n}' AND
			 (l.doc ->> 'id') = (s.txt::jsonb ->> 'id') AND (l.doc ->> 'end') = 'true' AND
			 l.doc @> '{"end":true}' AND l.doc ? 'items' AND
			 (p.doc #>> '{items,0,text}') = (s.txt::jsonb #>> '{items,0,text}')) AS lookups_same
FROM wide_src s JOIN wide_lz4 l USING (g) JOIN wide_pglz p USING (g);
-- A constant or an external parameter in the stored form (a document that a
-- query spells out is one: PostgreSQL makes it a constant, flattened) is
-- decompressed once and kept until the transaction ends, found again by its
-- bytes, for = and the other comparisons, @> and <@. The answers are
-- jsonb's: each document as a constant on either side, the same constant on
-- both sides, six of them in one query,
-- as a parameter of a prepared statement, again after the transaction, and
-- as a PL/pgSQL variable whose value changes at each step (the rows each
-- step finds), and in = ANY, which passes each element of an array constant
-- in turn (not kept: the array is the constant). The patterns
-- differ only in their last member, which the stored form keeps as it is
-- in its header (the tail): their stored forms are the same length and
-- differ in one byte.
CREATE FUNCTION kept_doc(id int, k int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT '{' || coalesce('"id":' || id || ',', '') || '"tags":[' ||
		(SELECT string_agg(format('"tag %s of the group"', i), ',') FROM generate_series(1, 200) i) ||
		'],"g7":' || k || '}'
$$;
CREATE TEMP TABLE kept_t AS SELECT g, kept_doc(g, g % 7)::fastjson AS doc FROM generate_series(1, 40) g;
CREATE TEMP TABLE kept_j AS SELECT g, doc::jsonb AS doc FROM kept_t;
CREATE FUNCTION kept_answers(t text, typ text, c text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r text;
BEGIN
	EXECUTE format('SELECT concat_ws('' '', count(*) FILTER (WHERE doc = %2$L::%3$s),
		count(*) FILTER (WHERE %2$L::%3$s = doc), count(*) FILTER (WHERE doc <> %2$L::%3$s),
		count(*) FILTER (WHERE doc < %2$L::%3$s), count(*) FILTER (WHERE doc >= %2$L::%3$s),
		count(*) FILTER (WHERE doc @> %2$L::%3$s), count(*) FILTER (WHERE %2$L::%3$s <@ doc),
		count(*) FILTER (WHERE %2$L::%3$s @> doc), bool_and(%2$L::%3$s = %2$L::%3$s))
		FROM %1$I', t, c, typ) INTO r;
	RETURN r;
END
$$;
CREATE FUNCTION kept_form(c text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r text;
BEGIN
	EXECUTE format('SELECT fastjson_storage_form(%L::fastjson) || '' '' || pg_column_size(%L::fastjson)', c, c)
		INTO r;
	RETURN r;
END
$$;
SELECT count(*) AS constants, count(DISTINCT split_part(kept_form(c), ' ', 1)) AS forms,
	min(split_part(kept_form(c), ' ', 1)) AS form,
	count(DISTINCT split_part(kept_form(c), ' ', 2)) FILTER (WHERE pattern) AS pattern_stored_lengths,
	count(*) FILTER (WHERE kept_answers('kept_t', 'fastjson', c) = kept_answers('kept_j', 'jsonb', c)) AS same_answers
FROM (SELECT doc::text AS c, false AS pattern FROM kept_t WHERE g <= 8
	  UNION ALL SELECT kept_doc(NULL, k), true FROM generate_series(0, 7) k) s;
SELECT kept_answers('kept_t', 'fastjson', kept_doc(NULL, 2)) AS pattern_2;
SELECT (SELECT count(*) FROM kept_t WHERE doc @> kept_doc(NULL, 0)::fastjson OR doc @> kept_doc(NULL, 1)::fastjson OR
			doc @> kept_doc(NULL, 2)::fastjson OR doc @> kept_doc(NULL, 3)::fastjson OR
			doc @> kept_doc(NULL, 4)::fastjson OR doc @> kept_doc(NULL, 5)::fastjson) AS six_fastjson,
	(SELECT count(*) FROM kept_j WHERE doc @> kept_doc(NULL, 0)::jsonb OR doc @> kept_doc(NULL, 1)::jsonb OR
			doc @> kept_doc(NULL, 2)::jsonb OR doc @> kept_doc(NULL, 3)::jsonb OR
			doc @> kept_doc(NULL, 4)::jsonb OR doc @> kept_doc(NULL, 5)::jsonb) AS six_jsonb;
SET plan_cache_mode = force_generic_plan;
PREPARE kept_q(fastjson) AS SELECT count(*) FROM kept_t WHERE doc @> $1 OR $1 = doc;
EXECUTE kept_q(kept_doc(NULL, 4)::fastjson);
EXECUTE kept_q(kept_doc(11, 4)::fastjson);
RESET plan_cache_mode;
DEALLOCATE kept_q;
SELECT (SELECT array_agg(g ORDER BY g) FROM kept_t WHERE doc = ANY (ARRAY[kept_doc(1, 1), kept_doc(9, 2),
			kept_doc(17, 3), kept_doc(25, 4), kept_doc(33, 5), kept_doc(40, 5)]::fastjson[])) AS any_fastjson,
	(SELECT array_agg(g ORDER BY g) FROM kept_j WHERE doc = ANY (ARRAY[kept_doc(1, 1), kept_doc(9, 2),
			kept_doc(17, 3), kept_doc(25, 4), kept_doc(33, 5), kept_doc(40, 5)]::jsonb[])) AS any_jsonb;
-- The kept tapes are in a memory context of their own, emptied when the
-- transaction ends.
BEGIN;
SELECT kept_answers('kept_t', 'fastjson', kept_doc(NULL, 5)) AS in_a_transaction;
SELECT used_bytes > 4000 AS kept_in_the_transaction
FROM pg_backend_memory_contexts WHERE name = 'fastjson kept arguments';
COMMIT;
SELECT used_bytes < 1000 AS emptied_at_its_end
FROM pg_backend_memory_contexts WHERE name = 'fastjson kept arguments';
SELECT kept_answers('kept_t', 'fastjson', kept_doc(NULL, 5)) AS after_it;
DO $$
DECLARE
	v fastjson;
	f int[];
	j int[];
	same int := 0;
BEGIN
	FOR k IN 0..6 LOOP
		v := kept_doc(NULL, k)::fastjson;
		SELECT array_agg(g ORDER BY g) INTO f FROM kept_t WHERE doc @> v;
		SELECT array_agg(g ORDER BY g) INTO j FROM kept_j WHERE doc @> kept_doc(NULL, k)::jsonb;
		IF f = j THEN
			same := same + 1;
		END IF;
	END LOOP;
	RAISE NOTICE 'a variable changing value: % of 7 steps answer as jsonb', same;
END
$$;
-- Five constants whose tapes are about 7 MB each take more than the 32 MB the
-- kept tapes may hold together: the least recently used make room, never
-- the one the call's other argument is using (c = d compares two of them),
-- and the answers stay right.
CREATE TEMP TABLE kept_big AS
SELECT k, ('[' || (SELECT string_agg(format('"item %s of group %s with some padding text to make it long"', i, k), ',')
				   FROM generate_series(1, 115000) i) || ']')::fastjson AS doc
FROM generate_series(1, 5) k;
SELECT count(*) AS big_constants, min(fastjson_storage_form(doc)) AS form,
	bool_and(octet_length(fastjson_send(doc)) BETWEEN 7000000 AND 8000000) AS tapes_of_7_to_8_mb
FROM kept_big;
BEGIN;
DO $$
DECLARE
	v fastjson[];
	right_rows int := 0;
	pairs_right int := 0;
	most bigint := 0;
	n int;
BEGIN
	SELECT array_agg(doc ORDER BY k) INTO v FROM kept_big;
	FOR round IN 1..2 LOOP
		FOR i IN 1..5 LOOP
			DECLARE
				c fastjson := v[i];
				d fastjson := v[1 + i % 5];
			BEGIN
				SELECT count(*) INTO n FROM kept_big WHERE doc = c;
				IF n = 1 AND (SELECT k FROM kept_big WHERE doc = c) = i THEN
					right_rows := right_rows + 1;
				END IF;
				IF (c = d) = false AND (c = c) AND (c <> d) AND (c < d) = (i < 1 + i % 5) THEN
					pairs_right := pairs_right + 1;
				END IF;
				most := greatest(most, (SELECT used_bytes FROM pg_backend_memory_contexts
										WHERE name = 'fastjson kept arguments'));
			END;
		END LOOP;
	END LOOP;
	RAISE NOTICE 'large kept constants: % of 10 lookups and % of 10 pairs right, more than one tape kept: %, within 32 MB: %',
		right_rows, pairs_right, most > 14 << 20, most <= 33 << 20;
END
$$;
COMMIT;
DROP TABLE kept_big;
DROP FUNCTION kept_answers(text, text, text);
DROP FUNCTION kept_form(text);
DROP FUNCTION kept_doc(int, int);
