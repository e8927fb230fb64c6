-- Full text search on documents, twins of jsonb's: to_tsvector([regconfig,]
-- fastjson), fastjson_to_tsvector([regconfig,] fastjson, filter) and
-- ts_headline([regconfig,] fastjson, tsquery[, options]). An object is read as
-- the enumerations read it: each distinct key once, with its last value, in
-- the document order of those; values one position apart; numbers as written.

SET default_text_search_config = 'english';

-- string values only, one position between values (no phrase across them)
SELECT to_tsvector('english', '{"a":"The quick brown foxes","b":[1,"jumped over",true,null],"c":{"d":"lazy dogs"}}'::fastjson);
SELECT to_tsvector('{"a":"The quick brown foxes"}'::fastjson) @@ to_tsquery('quick <-> brown') AS phrase,
	to_tsvector('["quick","brown"]'::fastjson) @@ to_tsquery('quick <-> brown') AS across_values,
	to_tsvector('["quick","brown"]'::fastjson) @@ to_tsquery('quick <2> brown') AS two_apart;
-- a scalar root, empty containers, numbers and literals alone
SELECT to_tsvector('"Running dogs"'::fastjson), to_tsvector('{}'::fastjson), to_tsvector('[]'::fastjson),
	to_tsvector('[1, true, null]'::fastjson);
-- duplicate keys: the last value counts, where jsonb keeps it
SELECT to_tsvector('{"a":"first words","b":"middle","a":"last words"}'::fastjson),
	to_tsvector('{"a":"first words","b":"middle","a":"last words"}'::jsonb);
-- filters: "string", "numeric" (as written), "boolean", "key", "all"; one name or an array
SELECT fastjson_to_tsvector('{"title":"Postgres","n":[12.50,1e3,-0],"ok":true,"no":false,"z":null}'::fastjson, '"numeric"');
SELECT fastjson_to_tsvector('english', '{"title":"Postgres","n":[12.50,1e3,-0],"ok":true,"no":false,"z":null}'::fastjson, '["boolean","key"]');
SELECT fastjson_to_tsvector('english', '{"title":"Postgres","n":[12.50,1e3,-0],"ok":true,"no":false,"z":null}'::fastjson, '["all"]'),
	json_to_tsvector('english', '{"title":"Postgres","n":[12.50,1e3,-0],"ok":true,"no":false,"z":null}'::json, '["all"]');
SELECT fastjson_to_tsvector('{"a":"words"}'::fastjson, '[]') AS none, fastjson_to_tsvector('{"a":"words"}'::fastjson, '["STRING"]') AS any_case;
-- bad filters: jsonb's errors
SELECT fastjson_to_tsvector('{"a":"x"}'::fastjson, '{"string":true}');
SELECT fastjson_to_tsvector('{"a":"x"}'::fastjson, '["string",1]');
SELECT fastjson_to_tsvector('{"a":"x"}'::fastjson, '"strings"');
SELECT fastjson_to_tsvector('{"a":"x"}'::fastjson, 'null');
-- a nested element is not a string either (jsonb says "unexpected end of flag array", XX000)
SELECT fastjson_to_tsvector('{"a":"x"}'::fastjson, '[["string"]]');
-- a scalar root under a one-name filter
SELECT fastjson_to_tsvector('"some words"'::fastjson, '"all"'), fastjson_to_tsvector('12.50'::fastjson, '"all"');
-- U+0000 is stored, but is no text (->>'s error)
SELECT to_tsvector('["ok","a\u0000b"]'::fastjson);
SELECT fastjson_to_tsvector('{"a\u0000":1}'::fastjson, '["key"]');
-- NULL in, NULL out
SELECT to_tsvector(NULL::fastjson) IS NULL AS n1, fastjson_to_tsvector('{}'::fastjson, NULL) IS NULL AS n2,
	ts_headline(NULL::fastjson, 'x'::tsquery) IS NULL AS n3;

-- ts_headline: every string value replaced by its headline; keys, other
-- values, the order and duplicate keys kept
SELECT ts_headline('english', '{"a":"The quick brown fox","b":["jumped over the fox",1.50,null],"c":{"fox":"no match"},"a":"fox again"}'::fastjson,
	to_tsquery('english', 'fox'));
SELECT ts_headline('"fox and fox"'::fastjson, to_tsquery('fox'), 'StartSel=<, StopSel=>');
SELECT ts_headline('english', '["a fox"]'::fastjson, to_tsquery('english', 'fox'), 'StartSel=[, StopSel=]');
SELECT ts_headline('{"n":1,"t":true,"e":{},"l":[]}'::fastjson, to_tsquery('fox'));
SELECT ts_headline(('{"long":"' || repeat('word ', 100) || 'fox ' || repeat('word ', 100) || '"}')::fastjson,
	to_tsquery('fox'), 'MaxWords=5, MinWords=3') AS fastjson,
	ts_headline(('{"long":"' || repeat('word ', 100) || 'fox ' || repeat('word ', 100) || '"}')::jsonb,
	to_tsquery('fox'), 'MaxWords=5, MinWords=3') AS jsonb;

-- differential against json and jsonb over generated documents: words from a
-- small vocabulary, nesting, numbers and literals; keys distinct within an
-- object in docs, repeated in dup_docs
CREATE FUNCTION pg_temp.ts_doc(depth int, dup bool) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	words text[] := ARRAY['quick', 'brown', 'foxes', 'jumped', 'over', 'the', 'lazy', 'dogs',
		'Running', 'runs', 'PostgreSQL', 'indexes', 'stars', 'caf\u00e9', 'naïve', 'data-base',
		'e-mail', 'x@y.org', 'http://example.com/a?b=1', '42', '3.14', 'tab\there', 'line\nbreak'];
	scalars text[] := ARRAY['0', '-1', '12.50', '1e3', '-0.0', '123456789012345678901234567890',
		'true', 'false', 'null'];
	r float8 := random();
	n int;
	parts text[] := '{}';
	k text;
BEGIN
	IF depth <= 0 OR r < 0.45 THEN
		IF random() < 0.3 THEN
			RETURN scalars[1 + floor(random() * array_length(scalars, 1))::int];
		END IF;
		n := 1 + floor(random() * 5);
		FOR i IN 1..n LOOP
			parts := parts || words[1 + floor(random() * array_length(words, 1))::int];
		END LOOP;
		RETURN '"' || array_to_string(parts, ' ') || '"';
	ELSIF r < 0.7 THEN
		n := floor(random() * 5);
		FOR i IN 1..n LOOP
			parts := parts || pg_temp.ts_doc(depth - 1, dup);
		END LOOP;
		RETURN '[' || array_to_string(parts, ',') || ']';
	ELSE
		n := CASE WHEN random() < 0.1 THEN 9 + floor(random() * 20) ELSE floor(random() * 6) END;
		FOR i IN 1..n LOOP
			k := words[1 + floor(random() * array_length(words, 1))::int];
			IF NOT dup THEN
				k := k || i;
			END IF;
			parts := parts || ('"' || k || '":' || pg_temp.ts_doc(depth - 1, dup));
		END LOOP;
		RETURN '{' || array_to_string(parts, ',') || '}';
	END IF;
END $$;
SELECT setseed(0.25);
CREATE TEMP TABLE docs AS SELECT g AS id, t::fastjson AS f, t::json AS js, t::jsonb AS j
	FROM (SELECT g, pg_temp.ts_doc(4, false) AS t FROM generate_series(1, 1500) g) s;
CREATE TEMP TABLE dup_docs AS SELECT g AS id, t::fastjson AS f, t::json AS js, t::jsonb AS j
	FROM (SELECT g, pg_temp.ts_doc(4, true) AS t FROM generate_series(1, 1500) g) s;
SELECT count(*) AS docs, count(*) FILTER (WHERE to_tsvector(f) <> '') AS with_lexemes FROM docs;
-- without duplicate keys the document order is json's: the same tsvector, positions included
SELECT count(*) FILTER (WHERE to_tsvector('english', f) <> to_tsvector('english', js)) AS differ_strings,
	count(*) FILTER (WHERE to_tsvector('simple', f) <> to_tsvector('simple', js)) AS differ_simple
FROM docs;
SELECT flags, count(*) FILTER (WHERE fastjson_to_tsvector('english', f, flags::fastjson)
		<> json_to_tsvector('english', js, flags::jsonb)) AS differ
FROM docs, (VALUES ('["string"]'), ('["numeric"]'), ('["boolean"]'), ('["key"]'), ('["all"]'),
	('["key","numeric"]')) AS fl(flags)
GROUP BY flags ORDER BY flags;
-- with duplicate keys, jsonb's lexemes (jsonb keeps the last value of a key);
-- "numeric" left out, since jsonb spells its numbers again
SELECT count(*) FILTER (WHERE strip(to_tsvector(f)) <> strip(to_tsvector(j))) AS differ_strings,
	count(*) FILTER (WHERE strip(fastjson_to_tsvector(f, '["string","boolean","key"]'))
		<> strip(jsonb_to_tsvector(j, '["string","boolean","key"]'))) AS differ_filtered
FROM dup_docs;
-- ts_headline: as json's, text for text (member order, duplicate keys and number
-- spellings kept), and as jsonb's once read as jsonb
SELECT count(*) FILTER (WHERE ts_headline(f, q)::text <> ts_headline(js, q)::fastjson::text) AS differ_json,
	count(*) FILTER (WHERE ts_headline(f, q)::jsonb <> ts_headline(j, q)) AS differ,
	count(*) FILTER (WHERE ts_headline(f, q)::text <> f::text) AS changed
FROM (SELECT f, js, j FROM docs UNION ALL SELECT f, js, j FROM dup_docs) d,
	(VALUES (to_tsquery('fox')), (to_tsquery('dogs | runs')), (to_tsquery('lazy <-> dogs'))) AS qs(q);
SELECT count(*) FILTER (WHERE ts_headline('simple', f, q, 'StartSel=*, StopSel=*, HighlightAll=true')::jsonb
		<> ts_headline('simple', j, q, 'StartSel=*, StopSel=*, HighlightAll=true')) AS differ
FROM docs, (VALUES (to_tsquery('simple', 'the'))) AS qs(q);

-- repeated long strings past the first 4 kB of the tape (the parser writes
-- string references; a copy without nulls has none, and a longer tape) and an
-- object of more than 64 members (its key index after the members)
CREATE TEMP TABLE refs AS SELECT ('{"pad":"' || repeat('padding ', 525) || '","a":"' || w || '","b":["' || w || '","' || w || '"],' ||
	(SELECT string_agg('"k' || i || '":"' || CASE WHEN i % 10 = 0 THEN w ELSE 'lazy dogs ' || i END || '"', ',')
		FROM generate_series(1, 80) i) || ',"z":"last fox"}') AS t
	FROM (SELECT repeat('the quick brown foxes jumped ', 12) AS w) s;
SELECT length(t) AS chars,
	octet_length(fastjson_send(t::fastjson)) < octet_length(fastjson_send(fastjson_strip_nulls(t::fastjson))) AS has_refs,
	to_tsvector(t::fastjson) = to_tsvector(t::json) AS same_tsvector,
	fastjson_to_tsvector(t::fastjson, '["all"]') = json_to_tsvector(t::json, '["all"]') AS same_all,
	strip(to_tsvector(t::fastjson)) = strip(to_tsvector(t::jsonb)) AS same_lexemes,
	ts_headline(t::fastjson, to_tsquery('fox'))::text = ts_headline(t::json, to_tsquery('fox'))::fastjson::text AS same_headline
FROM refs;

-- documents stored in blocks and out of line read the same
CREATE TEMP TABLE big (id int, f fastjson);
INSERT INTO big SELECT g, ('{"id":' || g || ',"events":[' || string_agg(
	'{"title":"event ' || md5(i::text) || ' of the lazy dogs","tags":["quick","brown","fox' || (i % 7) || '"],"n":' || i || '}', ',')
	|| '],"note":"the end runs here"}')::fastjson
FROM generate_series(1, 3) g, generate_series(1, 30 * g * g) i GROUP BY g;
SELECT id, fastjson_storage_form(f) AS form, pg_column_size(f) > 2000 AS large,
	to_tsvector(f) = to_tsvector(f::text::json) AS same_tsvector,
	to_tsvector(f) @@ to_tsquery('fox5 & runs') AS found,
	ts_headline(f, to_tsquery('fox5'))::jsonb = ts_headline(f::jsonb, to_tsquery('fox5')) AS same_headline
FROM big ORDER BY id;

-- an expression index (the regconfig forms are immutable)
CREATE TEMP TABLE ix AS SELECT id, f FROM docs;
CREATE INDEX ON ix USING gin (to_tsvector('english', f));
ANALYZE ix;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM ix WHERE to_tsvector('english', f) @@ to_tsquery('english', 'foxes');
SELECT count(*) = (SELECT count(*) FROM docs WHERE to_tsvector('english', js) @@ to_tsquery('english', 'foxes')) AS same_rows
FROM ix WHERE to_tsvector('english', f) @@ to_tsquery('english', 'foxes');
RESET enable_seqscan;

-- strip_nulls's strip_in_arrays (jsonb's, PostgreSQL 18): null array elements go too
SELECT fastjson_strip_nulls('[1,null,{"a":null,"b":[null,2]}]', true) AS in_arrays,
	fastjson_strip_nulls('[1,null,{"a":null,"b":[null,2]}]', false) AS not_in_arrays,
	fastjson_strip_nulls('null', true) AS null_root,
	fastjson_strip_nulls(target => '[null,[null]]', strip_in_arrays => true) AS named,
	fastjson_strip_nulls(target => '{"a":null}') AS named_one;
-- jsonb's with strip_in_arrays where the server has it (18 and later; elsewhere 0 rows compared)
CREATE FUNCTION pg_temp.strip_in_arrays_differ() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint := 0;
BEGIN
	IF current_setting('server_version_num')::int >= 180000 THEN
		EXECUTE 'SELECT count(*) FILTER (WHERE fastjson_strip_nulls(f, true)::jsonb <> jsonb_strip_nulls(j, true)) FROM dup_docs'
			INTO n;
	END IF;
	RETURN n;
END $$;
SELECT pg_temp.strip_in_arrays_differ() AS differ_in_arrays;
-- over the generated documents: no null is left but a null root, and without
-- strip_in_arrays the result is jsonb_strip_nulls's
SELECT count(*) FILTER (WHERE fastjson_strip_nulls(f, false)::text ~ 'null') AS with_nulls_in_arrays,
	count(*) FILTER (WHERE fastjson_strip_nulls(f, true)::text ~ 'null' AND f::text <> 'null') AS nulls_left,
	count(*) FILTER (WHERE fastjson_strip_nulls(f, false)::jsonb <> jsonb_strip_nulls(j)) AS differ
FROM dup_docs;
