-- Construction and aggregation, twins of jsonb's: to_fastjson (to_jsonb's
-- conversion rules), fastjson_build_object, fastjson_build_array,
-- fastjson_agg and fastjson_object_agg. Where jsonb normalises, fastjson keeps
-- what it is given (duplicate keys, number spellings), so results are compared
-- with jsonb's as jsonb.
SET TimeZone = 'America/New_York';
SET DateStyle = 'SQL, DMY';		-- to_jsonb writes ISO 8601 whatever DateStyle says
SET extra_float_digits = 0;

-- to_fastjson, one SQL type after another, next to to_jsonb
CREATE TYPE pg_temp.mood AS ENUM ('sad', 'happy');
CREATE TYPE pg_temp.colour AS ENUM ('red', 'green');
-- a non-built-in type with a cast to json goes through the cast, as in to_jsonb
CREATE FUNCTION pg_temp.colour_json(pg_temp.colour) RETURNS json LANGUAGE sql AS $$ SELECT json_build_object('colour', $1::text) $$;
CREATE CAST (pg_temp.colour AS json) WITH FUNCTION pg_temp.colour_json(pg_temp.colour);
CREATE DOMAIN pg_temp.posint AS int CHECK (VALUE > 0);
CREATE DOMAIN pg_temp.jdoc AS json;
CREATE TEMP TABLE with_dropped (a int, b text, c bool);
ALTER TABLE with_dropped DROP COLUMN b;
INSERT INTO with_dropped VALUES (1, true);
CREATE FUNCTION pg_temp.to_both(e text, OUT fastjson text, OUT same_as_jsonb boolean)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT to_fastjson(%1$s)::text, to_fastjson(%1$s)::jsonb = to_jsonb(%1$s)', e)
		INTO fastjson, same_as_jsonb;
END $$;
SELECT expr, t.* FROM unnest(ARRAY[
	'1::int2', '-2::int4', '9223372036854775807::int8', '1.50::numeric', '1e-7::numeric',
	'''NaN''::numeric', '''Infinity''::numeric', '''-Infinity''::float8', '1e300::float8', '1.5e-7::float8',
	'''-0''::float8', '3.25::float4', '''NaN''::float4', '12::oid',
	'true', 'false', '''say "hi" \ é''::text', '''''::text', '''x''::varchar', '''c''::char(3)', '''nm''::name',
	'''2020-01-02''::date', '''infinity''::date', '''2020-01-02 03:04:05.5''::timestamp',
	'''2020-07-02 03:04:05.5+02''::timestamptz', '''-infinity''::timestamptz', '''03:04''::time', '''1 day 2 hours''::interval',
	'''\x0102''::bytea', '''(1,2)''::point', '''192.168.0.1/24''::inet',
	'''{"a":1,"a":2, "n":1.0}''::json', '''[1, 2.50]''::json', '''"s"''::json', '''{"b":1, "a":[2]}''::jsonb', '''1.0''::jsonb',
	'''{"c":1,"c":2,"n":1e2}''::fastjson', '''{"c":1}''::pg_temp.jdoc',
	'ARRAY[1, 2, NULL]', 'ARRAY[[1, 2], [3, 4]]', '''{}''::int[]', '''[0:1]={5,6}''::int[]', 'ARRAY[''a'', NULL]',
	'ARRAY[ROW(1, ''x'')]', 'ARRAY[''{"a":1}''::json]', 'ARRAY[''{"a":1,"a":2}''::fastjson]', 'ARRAY[1.0::float8, ''NaN'']',
	'ROW(1, ''a'', NULL)', 'ROW(ROW(1, 2), ARRAY[1], ''{"x":null}''::jsonb)', 'w', '5::pg_temp.posint',
	'''happy''::pg_temp.mood', '''green''::pg_temp.colour', 'ARRAY[''red''::pg_temp.colour]'
]) AS e(expr), LATERAL pg_temp.to_both(CASE WHEN expr = 'w' THEN '(SELECT w FROM with_dropped w)' ELSE expr END) t;
SELECT to_fastjson(NULL::int) IS NULL AS strict;
SELECT to_fastjson('untyped');

-- fastjson_build_object and fastjson_build_array: keys are text (numbers and
-- dates as to_jsonb writes them), values converted like to_fastjson's;
-- duplicate keys and their order are kept (jsonb keeps the last)
SELECT fastjson_build_object('a', 1, 'b', NULL, 'a', 'two', 'c', ARRAY[1.50, 2], 'd', ROW(1, true));
SELECT fastjson_build_object(1.50, 'num', true, 'bool', '2020-01-02'::date, 'date', 'x'::name, 'name', 7, 'int');
SELECT fastjson_build_array(1, 'x', NULL, 1e2::float8, '{"a":1,"a":2}'::fastjson, '[1,2]'::jsonb, fastjson_build_array());
SELECT fastjson_build_object(), fastjson_build_array(), fastjson_build_object('k', fastjson_build_object());
SELECT fastjson_build_object(VARIADIC ARRAY['a', '1', 'b', '2']), fastjson_build_array(VARIADIC ARRAY[1, 2]),
	fastjson_build_object(VARIADIC NULL::text[]) IS NULL AS null_variadic, fastjson_build_array(VARIADIC '{}'::text[]);
SELECT fastjson_build_object('a', 1, 'a', 2)::jsonb = jsonb_build_object('a', 1, 'a', 2) AS same_as_jsonb,
	fastjson_build_object('a', 1, 'a', 2) -> 'a' AS last_wins;
-- failing: jsonb's errors
SELECT fastjson_build_object('a');
SELECT fastjson_build_object('a', 1, NULL, 2);
SELECT fastjson_build_object(ARRAY[1], 1);
SELECT fastjson_build_object(ROW(1), 1);
SELECT fastjson_build_object('{"a":1}'::json, 1);
SELECT fastjson_build_object('{"a":1}'::fastjson, 1);
SELECT fastjson_build_object('{"a":1}'::jsonb, 1);

-- fastjson_agg: SQL NULL becomes JSON null; no rows gives NULL
SELECT fastjson_agg(x) FROM (VALUES (1), (NULL), (3)) v(x);
SELECT fastjson_agg(x) IS NULL AS no_rows FROM (VALUES (1)) v(x) WHERE false;
SELECT fastjson_agg(d ORDER BY n DESC) FROM (VALUES (1, '{"a":1,"a":2}'::fastjson), (2, '1.0'), (3, 'null')) v(n, d);
SELECT fastjson_agg(v) FROM (VALUES (1, 'x'), (2, NULL)) v(a, b);
SELECT g % 3 AS k, fastjson_agg(g ORDER BY g) FROM generate_series(1, 10) g GROUP BY 1 ORDER BY 1;
-- the final function runs once per row of a window; the state stays usable
SELECT g, fastjson_agg(g) OVER (ORDER BY g) FROM generate_series(1, 4) g;
SELECT fastjson_agg(g ORDER BY g) FILTER (WHERE g > 2) AS filtered, fastjson_agg(DISTINCT g % 2) AS distinct_agg FROM generate_series(1, 4) g;

-- fastjson_object_agg: pairs in input order, duplicates kept (the last is
-- operative, as in jsonb_object_agg's result); NULL values are JSON null
SELECT fastjson_object_agg(k, v ORDER BY n) FROM (VALUES (1, 'a', 1), (2, 'b', NULL), (3, 'a', 3)) t(n, k, v);
SELECT fastjson_object_agg(k, v ORDER BY n)::jsonb = jsonb_object_agg(k, v ORDER BY n) AS same_as_jsonb
FROM (VALUES (1, 'a', 1), (2, 'b', NULL), (3, 'a', 3)) t(n, k, v);
SELECT fastjson_object_agg(k, v) FROM (VALUES (1.5, true), (2, false)) t(k, v);
SELECT fastjson_object_agg(k, v) IS NULL AS no_rows FROM (VALUES ('a', 1)) t(k, v) WHERE false;
-- a large object gets a key index: lookups find the last of each key
SELECT d -> 'k7' AS k7, d -> 'k20' AS k20, d -> 'k0' AS k0, d -> 'k99' AS k99,
	(SELECT count(*) FROM fastjson_object_keys(d)) AS keys
FROM (SELECT fastjson_object_agg('k' || (g % 21), g ORDER BY g) AS d FROM generate_series(1, 100) g) s;
-- failing: jsonb's errors
SELECT fastjson_object_agg(k, v) FROM (VALUES ('a', 1), (NULL, 2)) t(k, v);
SELECT fastjson_object_agg(k, v) FROM (VALUES (ARRAY[1], 1)) t(k, v);
SELECT fastjson_object_agg(k, v) FROM (VALUES ('{}'::fastjson, 1)) t(k, v);

-- differential against jsonb over generated documents
-- random documents: nesting, duplicate keys, number spellings, escapes, unicode
CREATE FUNCTION pg_temp.gen_json(depth int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	scalars text[] := ARRAY['0', '1', '-1', '1.0', '1e2', '1E+2', '-0', '-0.0', '0.1000',
		'123456789012345678901234567890', '-9223372036854775808', '9223372036854775808',
		'1.5e-3', '2.5', '-7', '3.14159', 'true', 'false', 'null', '""', '"a"', '"é"',
		'"\u00e9"', '"x\ny"', '"q\"q"', '"back\\slash"', '"\/"', '"😀"', '"\ud83d\ude00"',
		'"tab\there"', '"\u001f"', '[]', '{}'];
	keys text[] := ARRAY['a', 'b', 'c', 'a', 'dd', 'é', '', 'a b', 'z'];
	r float8 := random();
	n int;
	parts text[] := '{}';
BEGIN
	IF depth <= 0 OR r < 0.35 THEN
		RETURN scalars[1 + floor(random() * array_length(scalars, 1))::int];
	ELSIF r < 0.6 THEN
		n := floor(random() * 5);
		FOR i IN 1..n LOOP
			parts := parts || pg_temp.gen_json(depth - 1);
		END LOOP;
		RETURN '[' || array_to_string(parts, ',') || ']';
	ELSE
		-- now and then a large object (key index, sorted enumeration)
		n := CASE WHEN random() < 0.15 THEN 9 + floor(random() * 30) ELSE floor(random() * 6) END;
		FOR i IN 1..n LOOP
			parts := parts || (to_json(CASE WHEN n > 8 THEN 'k' || floor(random() * 25) ELSE keys[1 + floor(random() * 9)::int] END)::text
				|| ':' || pg_temp.gen_json(depth - 1));
		END LOOP;
		RETURN '{' || array_to_string(parts, ',') || '}';
	END IF;
END $$;
SELECT setseed(0.5);
CREATE TEMP TABLE gen AS
SELECT g AS id, t::fastjson AS f, t::jsonb AS j
FROM (SELECT g, pg_temp.gen_json(4) AS t FROM generate_series(1, 1500) g) s;
-- to_fastjson of json, jsonb, fastjson and of rows and arrays holding them
SELECT count(*) AS docs,
	count(*) FILTER (WHERE to_fastjson(f::json)::jsonb <> to_jsonb(f::json)) AS differ_json,
	count(*) FILTER (WHERE to_fastjson(j)::jsonb <> to_jsonb(j)) AS differ_jsonb,
	count(*) FILTER (WHERE to_fastjson(f)::text <> f::text) AS differ_fastjson,
	count(*) FILTER (WHERE to_fastjson(ROW(id, f, j, ARRAY[f::json, NULL]))::jsonb <> to_jsonb(ROW(id, f, j, ARRAY[f::json, NULL]))) AS differ_row
FROM gen;
SELECT count(*) FILTER (WHERE fastjson_build_object('a', f, 'b', j, 'a', id)::jsonb <> jsonb_build_object('a', f, 'b', j, 'a', id)) AS differ_object,
	count(*) FILTER (WHERE fastjson_build_array(f, j, id, NULL)::jsonb <> jsonb_build_array(f, j, id, NULL)) AS differ_array
FROM gen;
-- aggregates, grouped
SELECT count(*) AS groups,
	count(*) FILTER (WHERE fa::jsonb <> ja) AS differ_agg,
	count(*) FILTER (WHERE fo::jsonb <> jo) AS differ_object_agg,
	count(*) FILTER (WHERE fr::jsonb <> jr) AS differ_row_agg
FROM (SELECT id % 37 AS g,
		fastjson_agg(f ORDER BY id) AS fa, jsonb_agg(j ORDER BY id) AS ja,
		fastjson_object_agg('k' || (id % 11), f ORDER BY id) AS fo, jsonb_object_agg('k' || (id % 11), j ORDER BY id) AS jo,
		fastjson_agg(ROW(id, f) ORDER BY id) AS fr, jsonb_agg(ROW(id, j) ORDER BY id) AS jr
	FROM gen GROUP BY 1) s;
-- numbers: to_fastjson keeps the output function's spelling, jsonb its numeric value
SELECT count(*) AS numbers,
	count(*) FILTER (WHERE to_fastjson(x)::jsonb <> to_jsonb(x)) AS differ_float8,
	count(*) FILTER (WHERE to_fastjson(x::float4)::jsonb <> to_jsonb(x::float4)) AS differ_float4,
	count(*) FILTER (WHERE to_fastjson(x::numeric)::jsonb <> to_jsonb(x::numeric)) AS differ_numeric,
	count(*) FILTER (WHERE to_fastjson(round(x)::int8)::jsonb <> to_jsonb(round(x)::int8)) AS differ_int8
FROM (SELECT (random() - 0.5) * 10 ^ floor(random() * 36 - 18) AS x FROM generate_series(1, 2000)) s;
