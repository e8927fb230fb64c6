-- String references (tape version 3): past the first 4 kB of a document's
-- tape, a string value of 256 bytes or more that repeats an earlier one is
-- stored as a 5-byte reference to it. Nothing a user sees changes: output,
-- lookups, edits, comparison, hashing, GIN and CBOR give what they give for
-- the same document without references. Each document below starts with a
-- "pad" member, so that what follows is past the first 4 kB.
CREATE TEMP TABLE r (id int, doc fastjson, j jsonb);
INSERT INTO r
SELECT id, d::fastjson, d::jsonb FROM (
	SELECT id, format('{"pad":"%s",%s}', repeat('p', 4200), body) AS d FROM (VALUES
	(1, format('"a":["%s","%s"]', repeat('a', 300), repeat('a', 300))),
	(2, format('"x":"%s","y":{"z":"%s","w":["%s",1]}', repeat('b', 256), repeat('b', 256), repeat('b', 256))),
	(3, format('"s":"%s","list":[{"k":"%s"},{"k":"%s"},{"k":"%s"}]', repeat('é', 128), repeat('é', 128), repeat('c', 300), repeat('é', 128))),
	(4, format('"d":[["%s"],["%s"],"%s"]', repeat('d', 256), repeat('d', 256), repeat('d', 256))),
	(5, format('"a":"%s","a":"%s"', repeat('e', 300), repeat('e', 300))),
	(6, format('"f":["%s","%s"]', repeat('f', 255), repeat('f', 255)))	-- 255 bytes: too short to be referenced
	) AS b(id, body)
) AS t;
-- too early in the document: not referenced
INSERT INTO r
SELECT 7, d::fastjson, d::jsonb FROM format('{"a":["%s","%s"]}', repeat('a', 300), repeat('a', 300)) AS d;
-- the same documents without references: fastjson_strip_nulls builds a new
-- tape and writes none (these documents have no nulls, so the text stays)
ALTER TABLE r ADD COLUMN nr fastjson;
UPDATE r SET nr = fastjson_strip_nulls(doc);

-- the CBOR decoder writes references where the parser does: decoding a
-- document's CBOR gives its tape byte for byte, with or without references
SELECT id, fastjson_send(fastjson_from_cbor(fastjson_to_cbor(doc))) = fastjson_send(doc) AS cbor_tape_same,
	fastjson_send(fastjson_from_cbor(fastjson_to_cbor(nr))) = fastjson_send(doc) AS from_refless_same
FROM r ORDER BY id;

-- references are there (tag 0x9f), and the text is the document's
SELECT id, position('\x9f'::bytea IN fastjson_send(doc)) > 0 AS has_ref,
	octet_length(fastjson_send(doc)) AS tape_bytes, octet_length(fastjson_send(nr)) AS without_refs,
	doc::text::jsonb = j AS same
FROM r ORDER BY id;

-- whole output, pretty output, aggregation
SELECT id, doc::text = nr::text AS text_same, fastjson_pretty(doc) = fastjson_pretty(nr) AS pretty_same
FROM r ORDER BY id;
SELECT id, (doc -> 'a')::text = (SELECT fastjson_agg(e) FROM fastjson_array_elements(doc -> 'a') e)::text AS agg_same
FROM r WHERE id IN (1, 7) ORDER BY id;

-- a value extracted from inside the document carries its strings with it
SELECT id, (doc -> 'y')::jsonb = (j -> 'y') AS arrow, (doc #> '{y,w}')::jsonb = (j #> '{y,w}') AS path,
	(doc['y']['w'])::jsonb = (j['y']['w']) AS subscript, doc #>> '{y,w,0}' = j #>> '{y,w,0}' AS text
FROM r WHERE id = 2;
SELECT e.key, e.value::jsonb = j.value AS same FROM r, fastjson_each((SELECT doc -> 'list' -> 1 FROM r WHERE id = 3)) e,
	jsonb_each((SELECT j -> 'list' -> 1 FROM r WHERE id = 3)) j WHERE r.id = 3 AND e.key = j.key;
SELECT i, e::jsonb = (SELECT j -> 'list' -> (i::int - 1) FROM r WHERE id = 3) AS same
FROM fastjson_array_elements((SELECT doc -> 'list' FROM r WHERE id = 3)) WITH ORDINALITY AS t(e, i);
SELECT i, e::jsonb = (SELECT j -> 'd' -> (i::int - 1) FROM r WHERE id = 4) AS same, fastjson_typeof(e)
FROM fastjson_array_elements((SELECT doc -> 'd' FROM r WHERE id = 4)) WITH ORDINALITY AS t(e, i);
SELECT (doc -> 'd' -> 1)::text = (j -> 'd' -> 1)::text AS arr_elem, (doc -> 'd' -> 2)::jsonb = (j -> 'd' -> 2) AS scalar_ref,
	(doc #> '{d,1}')::jsonb = (j #> '{d,1}') AS path_elem
FROM r WHERE id = 4;
-- the extracted value is a document of its own: a reference pointing out of
-- it would be read from memory it does not own (the core's tests check the
-- same on every subtree, under AddressSanitizer)
SELECT fastjson_send(doc #> '{d,2}') = fastjson_send(to_fastjson(repeat('d', 256))) AS plain_string
FROM r WHERE id = 4;

-- edits: every function that builds a new document from pieces of another
SELECT id,
	fastjson_set(doc, '{y,w,1}', '"new"')::jsonb = jsonb_set(j, '{y,w,1}', '"new"') AS set,
	fastjson_insert(doc, '{y,w,0}', '0')::jsonb = jsonb_insert(j, '{y,w,0}', '0') AS insert,
	(doc - 'x')::jsonb = (j - 'x') AS minus_key,
	(doc #- '{y,z}')::jsonb = (j #- '{y,z}') AS minus_path,
	(doc || '{"q":1}')::jsonb = (j || '{"q":1}') AS concat,
	fastjson_strip_nulls(doc)::jsonb = jsonb_strip_nulls(j) AS strip
FROM r WHERE id = 2;
SELECT ((doc -> 'a') - 0)::jsonb = ((j -> 'a') - 0) AS minus_index,
	((doc -> 'a') - repeat('a', 300))::jsonb = ((j -> 'a') - repeat('a', 300)) AS minus_string
FROM r WHERE id = 1;
UPDATE r SET doc['y']['z'] = '"changed"', j['y']['z'] = '"changed"', nr['y']['z'] = '"changed"' WHERE id = 2;
SELECT doc::jsonb = j AS after_update, doc = nr AS still_equal FROM r WHERE id = 2;

-- comparison and hashing see the text, not the encoding
SELECT id, doc = nr AS eq, fastjson_send(doc) = fastjson_send(nr) AS same_bytes,
	fastjson_hash(doc) = fastjson_hash(nr) AS same_hash,
	fastjson_hash_extended(doc, 7) = fastjson_hash_extended(nr, 7) AS same_hash64,
	doc <= nr AND doc >= nr AS ordered_equal
FROM r ORDER BY id;
SELECT count(DISTINCT doc) AS distinct_docs, count(*) AS docs FROM (
	SELECT doc FROM r UNION ALL SELECT nr FROM r) s;
SELECT count(*) AS join_pairs FROM r a JOIN r b ON a.doc = b.nr;

-- containment and existence find strings that are references
SELECT id, doc @> format('{"y":{"w":["%s"]}}', repeat('b', 256))::fastjson AS contains,
	doc -> 'y' -> 'w' ? repeat('b', 256) AS exists
FROM r WHERE id = 2;
CREATE INDEX r_gin ON r USING gin (doc);
SET enable_seqscan = off;
SELECT id FROM r WHERE doc @> format('{"list":[{"k":"%s"}]}', repeat('é', 128))::fastjson ORDER BY id;
RESET enable_seqscan;

-- duplicate keys: the last one wins, with or without a reference
SELECT doc ->> 'a' = repeat('e', 300) AS last_wins,
	(SELECT string_agg(key || ' ' || length(value), ', ') FROM fastjson_each_text(doc)) AS members
FROM r WHERE id = 5;

-- the flags byte (second byte): set when the root is an object of at most 8
-- members with distinct keys, so a lookup in a stored prefix may stop at the
-- first match
SELECT d, get_byte(fastjson_send(d::fastjson), 1) AS flags FROM (VALUES
	('{"a":1,"b":2}'), ('{"a":1,"a":2}'), ('{}'), ('[1]'), ('"s"'),
	('{"1":1,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8}'),
	('{"1":1,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9}')
) AS t(d);
SELECT get_byte(fastjson_send(fastjson_build_object('a', 1, 'b', 2)), 1) AS built,
	get_byte(fastjson_send('{"o":{"a":1,"b":2}}'::fastjson -> 'o'), 1) AS extracted,
	get_byte(fastjson_send(fastjson_object_agg(k, v)), 1) AS aggregated
FROM (VALUES ('a', 1), ('b', 2)) AS t(k, v);

-- large stored documents with references: in blocks (as an input function
-- makes them), in the row and out of line (external), and as a tape that
-- PostgreSQL compressed (pglz; doc #> '{}' is a plain copy): lookups that read
-- only some blocks, or a prefix, give what jsonb gives, and a value found so
-- is copied with its strings (their targets may lie in blocks not read)
-- (19 compresses with lz4 by default: the values copied below keep their method)
SET default_toast_compression = 'pglz';
CREATE TEMP TABLE big (storage text, doc fastjson, j jsonb);
CREATE TEMP TABLE big_ext (LIKE big);
ALTER TABLE big_ext ALTER COLUMN doc SET STORAGE external;
CREATE TEMP TABLE big_cmp (LIKE big);
ALTER TABLE big_cmp ALTER COLUMN doc SET COMPRESSION pglz;
INSERT INTO big
SELECT NULL, d::fastjson, d::jsonb FROM (
	SELECT format('{"id":%s,"tag":"%s","items":[%s],"again":"%s"}', g, repeat('t', 300),
		(SELECT string_agg(format('{"n":%s,"t":"%s%s","u":"%s"}', k, repeat('t', 70), k, repeat('u', 300)), ',')
		 FROM generate_series(1, 60) k),
		repeat('u', 300)) AS d
	FROM generate_series(1, 3) g) s;
INSERT INTO big_ext SELECT 'external', doc::text::fastjson, j FROM big;
INSERT INTO big_cmp SELECT 'pglz', doc #> '{}', j FROM big;
INSERT INTO big_cmp SELECT 'blocks', doc, j FROM big;
SELECT storage, position('\x9f'::bytea IN fastjson_send(doc)) > 0 AS has_ref,
	fastjson_storage_form(doc) AS form, pg_column_compression(doc) AS compression,
	doc ->> 'again' = j ->> 'again' AS again, doc #>> '{items,59,u}' = j #>> '{items,59,u}' AS deep,
	(doc -> 'items' -> 40)::jsonb = j -> 'items' -> 40 AS elem, doc ->> 'id' = j ->> 'id' AS first,
	(doc -> 'items')::jsonb = j -> 'items' AS whole_array
FROM (SELECT * FROM big_ext UNION ALL SELECT * FROM big_cmp) s ORDER BY storage, j ->> 'id';
