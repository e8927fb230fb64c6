-- A chain of -> with constant text keys, ending in -> or ->>, is planned as
-- one lookup (fastjson_object_keys_field[_text]) and answers as the chain
-- does, and as jsonb's chain does, on every shape of document.
CREATE TEMP TABLE chain_docs (id int, t text);
INSERT INTO chain_docs VALUES
	(1, '{"a":{"b":{"c":"x","0":"zero"},"arr":[10,20]}}'),
	(2, '{"a":[{"b":1}],"b":2}'),
	(3, '{"a":null}'),
	(4, '[{"a":1},2]'),
	(5, '"s"'),
	(6, '{"a":{"b":1,"b":{"c":"last"}}}'),
	(7, '{"a":{"b":{"c":{"d":[1,{"e":true}]}}}}'),
	(8, '{"a":{"b":{"c":12.50}}}'),
	(9, '{"a":{"":{"c":"empty key"}}}'),
	(10, '{"a":{"b":{"c":"x"}},"pad":"' || repeat('0123456789abcdef', 400) || '"}'),
	(11, '{"pad":"' || repeat(md5('p'), 300) || '","a":{"b":{"c":"far"}}}');
CREATE TEMP TABLE chain_f AS SELECT id, t::fastjson AS doc FROM chain_docs;
CREATE TEMP TABLE chain_b AS SELECT id, t::jsonb AS doc FROM chain_docs;
-- the planner folds the chain (and leaves single arrows and integer steps as they are)
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> 'a' -> 'b' ->> 'c' FROM chain_f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> 'a' -> 'b' -> 'c' FROM chain_f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> 'a' ->> 'b', doc ->> 'a' FROM chain_f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> 'a' -> 'arr' -> 0 FROM chain_f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT fastjson_object_field_text(fastjson_object_field(doc, 'a'), 'b') FROM chain_f;
-- a key that is not a constant stops the fold at it
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> (id::text) -> 'a' ->> 'b' FROM chain_f;
-- every chain gives jsonb's answer on every document
CREATE TEMP TABLE chains (keys text[]);
INSERT INTO chains VALUES ('{a,b}'), ('{a,b,c}'), ('{a,b,0}'), ('{a,arr,1}'), ('{a,0,b}'), ('{0,a}'),
	('{a,"",c}'), ('{a,b,c,d}'), ('{b}'), ('{a,b,c,d,e}'), ('{missing,b}');
-- the chain written out with arrows, for each length, for fastjson and jsonb alike (its keys
-- are parameters here, so it is not folded: these are the arrows one at a time, against which
-- the folded calls are checked)
CREATE FUNCTION chain(d anyelement, k text[]) RETURNS anyelement LANGUAGE plpgsql AS $$
BEGIN
	RETURN CASE cardinality(k) WHEN 1 THEN d -> k[1] WHEN 2 THEN d -> k[1] -> k[2]
		WHEN 3 THEN d -> k[1] -> k[2] -> k[3] WHEN 4 THEN d -> k[1] -> k[2] -> k[3] -> k[4]
		ELSE d -> k[1] -> k[2] -> k[3] -> k[4] -> k[5] END;
END $$;
CREATE FUNCTION chain_text(d anyelement, k text[]) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN CASE cardinality(k) WHEN 1 THEN d ->> k[1] WHEN 2 THEN d -> k[1] ->> k[2]
		WHEN 3 THEN d -> k[1] -> k[2] ->> k[3] WHEN 4 THEN d -> k[1] -> k[2] -> k[3] ->> k[4]
		ELSE d -> k[1] -> k[2] -> k[3] -> k[4] ->> k[5] END;
END $$;
-- values compared as jsonb (jsonb orders keys and spaces its text); scalars' text exactly
SELECT count(*) AS cases,
	count(*) FILTER (WHERE chain(f.doc, c.keys)::text::jsonb IS NOT DISTINCT FROM chain(b.doc, c.keys)) AS values_agree,
	count(*) FILTER (WHERE fastjson_object_keys_field(f.doc, c.keys)::text::jsonb IS NOT DISTINCT FROM chain(b.doc, c.keys)) AS folded_values_agree,
	count(*) FILTER (WHERE CASE WHEN jsonb_typeof(chain(b.doc, c.keys)) IN ('object', 'array')
		THEN chain_text(f.doc, c.keys)::jsonb = chain(b.doc, c.keys)
		ELSE chain_text(f.doc, c.keys) IS NOT DISTINCT FROM chain_text(b.doc, c.keys) END) AS texts_agree,
	count(*) FILTER (WHERE CASE WHEN jsonb_typeof(chain(b.doc, c.keys)) IN ('object', 'array')
		THEN fastjson_object_keys_field_text(f.doc, c.keys)::jsonb = chain(b.doc, c.keys)
		ELSE fastjson_object_keys_field_text(f.doc, c.keys) IS NOT DISTINCT FROM chain_text(b.doc, c.keys) END) AS folded_texts_agree,
	count(*) FILTER (WHERE chain(f.doc, c.keys) IS NOT NULL) AS found
FROM chain_f f JOIN chain_b b USING (id) CROSS JOIN chains c;
-- a key that spells a number does not reach into an array, as with the arrows (#> would)
SELECT doc -> 'a' -> 'arr' ->> '1' AS arrow, doc #>> '{a,arr,1}' AS path FROM chain_f WHERE id = 1;
-- the last of duplicate keys; the value found far into a large document
SELECT id, doc -> 'a' -> 'b' ->> 'c' FROM chain_f WHERE id IN (6, 10, 11) ORDER BY id;
SELECT fastjson_storage_form(doc) FROM chain_f WHERE id = 11;
-- NULL keys, an empty path
SELECT fastjson_object_keys_field_text(doc, '{a,NULL}') FROM chain_f WHERE id = 1;
SELECT fastjson_object_keys_field(doc, '{}') = doc AS whole FROM chain_f WHERE id = 1;
-- an expression index on a chain is used by the same chain in a query
CREATE TEMP TABLE chain_ix AS SELECT g AS id, format('{"a":{"b":"v%s"}}', g)::fastjson AS doc FROM generate_series(1, 2000) g;
CREATE INDEX ON chain_ix ((doc -> 'a' ->> 'b'));
ANALYZE chain_ix;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM chain_ix WHERE doc -> 'a' ->> 'b' = 'v42';
SELECT id FROM chain_ix WHERE doc -> 'a' ->> 'b' = 'v42';
RESET enable_seqscan;
