-- A chain of -> with constant keys and indexes, ending in -> or ->>, is
-- planned as one lookup (fastjson_arrow_chain[_text]) and answers as the
-- chain does, and as jsonb's chain does, on every shape of document.
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
	(11, '{"pad":"' || repeat(md5('p'), 300) || '","a":{"b":{"c":"far"}}}'),
	(12, '[[1,[2,3]],{"b":[{"c":"deep"}]},null,"s",7]'),
	(13, 'null'),
	(14, '{"a":"x","b":[[]],"c":{}}'),
	-- a large document in the stored form: arrays of objects past its first block
	(15, '{"a":[' || (SELECT string_agg(format('{"b":%s,"c":"%s"}', g, md5(g::text)), ',') FROM generate_series(1, 300) g)
		|| '],"arr":[' || (SELECT string_agg(g::text, ',') FROM generate_series(1, 2000) g) || ']}');
CREATE TEMP TABLE chain_f AS SELECT id, t::fastjson AS doc FROM chain_docs;
CREATE TEMP TABLE chain_b AS SELECT id, t::jsonb AS doc FROM chain_docs;
SELECT fastjson_storage_form(doc) FROM chain_f WHERE id IN (11, 15) ORDER BY id;
-- the planner folds the chain, integer steps included (and leaves single arrows as they are)
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> 'a' -> 'b' ->> 'c' FROM chain_f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> 'a' -> 'b' -> 'c' FROM chain_f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> 'a' ->> 'b', doc ->> 'a', doc -> 0 FROM chain_f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> 'a' -> 'arr' -> 0 FROM chain_f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> 0 -> -1 -> 'b' ->> 2 FROM chain_f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT fastjson_object_field_text(fastjson_array_element(doc, 1), 'b') FROM chain_f;
-- an argument that is not a constant stops the fold at it
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> (id::text) -> 'a' ->> 'b' FROM chain_f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT doc -> 'a' -> id ->> 0 FROM chain_f;
-- every chain gives jsonb's answer on every document. A chain is a jsonb array
-- of its steps: a string is a key, a number an index.
CREATE TEMP TABLE chains (steps jsonb);
INSERT INTO chains VALUES ('["a","b"]'), ('["a","b","c"]'), ('["a","b","0"]'), ('["a","arr","1"]'),
	('["a","0","b"]'), ('["0","a"]'), ('["a","","c"]'), ('["a","b","c","d"]'), ('["b"]'),
	('["a","b","c","d","e"]'), ('["missing","b"]'),
	('[0]'), ('[-1]'), ('[1]'), ('[0,0]'), ('[0,-1]'), ('[-1,-1,-1]'), ('[0,1,1]'), ('[1,"b",0,"c"]'),
	('[1,"b",-1,"c",0]'), ('[4,0]'), ('[4,-1]'), ('[4,1]'), ('[5]'), ('[-6]'), ('[2,0]'), ('[3,-1]'),
	('["a",0]'), ('["a",-1]'), ('["a",1]'), ('["a",0,"b"]'), ('["a",-1,"c"]'), ('["a",299,"c"]'),
	('["a",-300,"b"]'), ('["a",300]'), ('["a","arr",1]'), ('["a","arr",-1]'), ('["a","arr",-3]'),
	('["arr",1999]'), ('["arr",-2000,0,-1]'), ('["a","b","c",0]'), ('["a","b","c",-1]'),
	('["a","b","c",1]'), ('["a","b","c","d",1,"e"]'), ('["b",0,0]'), ('["c",0]'), ('["a",0,0,0]');
-- the chain applied one arrow at a time (each step a parameter, so nothing is folded)
CREATE FUNCTION chain(d anyelement, steps jsonb, last_as_text bool, OUT v anyelement, OUT t text)
LANGUAGE plpgsql AS $$
DECLARE
	n int := jsonb_array_length(steps);
	s jsonb;
BEGIN
	v := d;
	FOR i IN 0 .. n - 1 LOOP
		s := steps -> i;
		IF i = n - 1 AND last_as_text THEN
			t := CASE WHEN jsonb_typeof(s) = 'number' THEN v ->> s::int ELSE v ->> (s #>> '{}') END;
			v := NULL;
		ELSE
			v := CASE WHEN jsonb_typeof(s) = 'number' THEN v -> s::int ELSE v -> (s #>> '{}') END;
		END IF;
	END LOOP;
END $$;
-- the same chain written out as arrows with constants on the table's column,
-- which the planner folds
CREATE FUNCTION planned(row_id int, steps jsonb, last_as_text bool, OUT v fastjson, OUT t text)
LANGUAGE plpgsql AS $$
DECLARE
	e text := 'doc';
	n int := jsonb_array_length(steps);
	s jsonb;
BEGIN
	FOR i IN 0 .. n - 1 LOOP
		s := steps -> i;
		e := e || CASE WHEN i = n - 1 AND last_as_text THEN ' ->> ' ELSE ' -> ' END ||
			CASE WHEN jsonb_typeof(s) = 'number' THEN s::text ELSE quote_literal(s #>> '{}') END;
	END LOOP;
	IF last_as_text THEN
		EXECUTE format('SELECT %s FROM chain_f WHERE id = $1', e) INTO t USING row_id;
	ELSE
		EXECUTE format('SELECT %s FROM chain_f WHERE id = $1', e) INTO v USING row_id;
	END IF;
END $$;
-- the folded call's arguments for a chain
CREATE FUNCTION chain_keys(steps jsonb) RETURNS text[] LANGUAGE sql AS $$
	SELECT array_agg(CASE WHEN jsonb_typeof(s) = 'number' THEN NULL ELSE s #>> '{}' END ORDER BY i)
	FROM jsonb_array_elements(steps) WITH ORDINALITY AS e(s, i) $$;
CREATE FUNCTION chain_indexes(steps jsonb) RETURNS int[] LANGUAGE sql AS $$
	SELECT array_agg(CASE WHEN jsonb_typeof(s) = 'number' THEN s::int ELSE 0 END ORDER BY i)
	FROM jsonb_array_elements(steps) WITH ORDINALITY AS e(s, i) $$;
CREATE TEMP TABLE answers AS
SELECT f.id, c.steps, (chain(b.doc, c.steps, false)).v AS jb, (chain(b.doc, c.steps, true)).t AS jb_text,
	(chain(f.doc, c.steps, false)).v AS one_by_one, (chain(f.doc, c.steps, true)).t AS one_by_one_text,
	(planned(f.id, c.steps, false)).v AS folded, (planned(f.id, c.steps, true)).t AS folded_text,
	fastjson_arrow_chain(f.doc, chain_keys(c.steps), chain_indexes(c.steps)) AS called,
	fastjson_arrow_chain_text(f.doc, chain_keys(c.steps), chain_indexes(c.steps)) AS called_text
FROM chain_f f JOIN chain_b b USING (id) CROSS JOIN chains c;
-- values compared as jsonb (jsonb orders keys and spaces its text); the ->> text of scalars exactly
SELECT count(*) AS cases, count(jb) AS found,
	count(*) FILTER (WHERE one_by_one::text::jsonb IS NOT DISTINCT FROM jb) AS one_by_one_agree,
	count(*) FILTER (WHERE folded::text::jsonb IS NOT DISTINCT FROM jb) AS folded_agree,
	count(*) FILTER (WHERE called::text::jsonb IS NOT DISTINCT FROM jb) AS called_agree,
	count(*) FILTER (WHERE CASE WHEN jsonb_typeof(jb) IN ('object', 'array') THEN one_by_one_text::jsonb = jb
		ELSE one_by_one_text IS NOT DISTINCT FROM jb_text END) AS one_by_one_texts_agree,
	count(*) FILTER (WHERE CASE WHEN jsonb_typeof(jb) IN ('object', 'array') THEN folded_text::jsonb = jb
		ELSE folded_text IS NOT DISTINCT FROM jb_text END) AS folded_texts_agree,
	count(*) FILTER (WHERE CASE WHEN jsonb_typeof(jb) IN ('object', 'array') THEN called_text::jsonb = jb
		ELSE called_text IS NOT DISTINCT FROM jb_text END) AS called_texts_agree
FROM answers;
-- any that differ (none)
SELECT id, steps, jb, folded, called, jb_text, folded_text FROM answers
WHERE folded::text::jsonb IS DISTINCT FROM jb OR called::text::jsonb IS DISTINCT FROM jb
	OR one_by_one::text::jsonb IS DISTINCT FROM jb
	OR (jsonb_typeof(jb) NOT IN ('object', 'array') OR jb IS NULL)
		AND (folded_text IS DISTINCT FROM jb_text OR called_text IS DISTINCT FROM jb_text);
-- a scalar is its own element 0 and -1, at the root and after a step, as in jsonb
SELECT id, doc -> 0 AS first, doc -> -1 AS last, doc -> 1 AS second, doc -> 'a' -> 0 AS a_first
FROM chain_f WHERE id IN (3, 5, 13, 14) ORDER BY id;
-- a key that spells a number does not reach into an array, nor an index into an object (#> does both)
SELECT doc -> 'a' -> 'arr' ->> '1' AS arrow, doc #>> '{a,arr,1}' AS path FROM chain_f WHERE id = 1;
SELECT doc -> 'a' -> 'b' ->> 0 AS arrow, doc #>> '{a,b,0}' AS path FROM chain_f WHERE id = 1;
-- the last of duplicate keys; values found far into large documents
SELECT id, doc -> 'a' -> 'b' ->> 'c' FROM chain_f WHERE id IN (6, 10, 11) ORDER BY id;
SELECT doc -> 'a' -> 299 ->> 'c' AS last_c, doc -> 'arr' ->> -1 AS last_n FROM chain_f WHERE id = 15;
-- NULLs and an empty chain, called directly
SELECT fastjson_arrow_chain_text(doc, '{a,NULL}', '{0,NULL}') IS NULL AS null_step FROM chain_f WHERE id = 1;
SELECT fastjson_arrow_chain_text(doc, '{NULL,NULL,NULL}', '{0,1,-1}') AS index_steps FROM chain_f WHERE id = 12;
SELECT fastjson_arrow_chain(doc, '{}', '{}') = doc AS whole FROM chain_f WHERE id = 1;
SELECT fastjson_arrow_chain(doc, '{a,b}', '{0}') FROM chain_f WHERE id = 1;
-- an expression index on a chain is used by the same chain in a query
CREATE TEMP TABLE chain_ix AS SELECT g AS id, format('{"a":[{"b":"v%s"}]}', g)::fastjson AS doc FROM generate_series(1, 2000) g;
CREATE INDEX ON chain_ix ((doc -> 'a' -> 0 ->> 'b'));
ANALYZE chain_ix;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM chain_ix WHERE doc -> 'a' -> 0 ->> 'b' = 'v42';
SELECT id FROM chain_ix WHERE doc -> 'a' -> 0 ->> 'b' = 'v42';
RESET enable_seqscan;
