-- fastjson_object: an object from text arrays, as jsonb_object builds one.
-- Values are strings (a NULL value is JSON null); pairs keep their order and
-- duplicate keys are kept with the last operative, so the result equals
-- jsonb_object's as jsonb.
SELECT fastjson_object('{a,1,b,2}') AS alternating,
	fastjson_object('{{a,1},{b,2}}') AS pairs,
	fastjson_object('{a,b}', '{1,2}') AS two_arrays,
	fastjson_object('{}') AS empty, fastjson_object('{}', '{}') AS empty_two;
SELECT fastjson_object('{a,1,b,NULL,a,3}') AS duplicates, fastjson_object('{a,1,b,NULL,a,3}')::jsonb AS as_jsonb,
	jsonb_object('{a,1,b,NULL,a,3}') AS jsonb_object,
	fastjson_object('{a,1,b,NULL,a,3}')::jsonb = jsonb_object('{a,1,b,NULL,a,3}') AS same;
SELECT fastjson_object(ARRAY['é', '', 'q"uote', E'tab\there', 'back\slash'], ARRAY['日本', '', NULL, E'nl\n', '{}']) AS escaped,
	fastjson_object('{x}', ARRAY[NULL]::text[]) ->> 'x' IS NULL AS null_value,
	fastjson_typeof(fastjson_object('{x}', ARRAY[NULL]::text[]) -> 'x') AS its_type;
-- every value is a string, whatever it looks like
SELECT fastjson_object('{n,1.50,t,true,z,null,o,"{\"a\":1}"}') AS strings;
-- the lower bounds of the arrays do not matter
SELECT fastjson_object('[0:3]={a,1,b,2}'::text[]) AS lower_bound_0,
	fastjson_object('[2:3]={a,b}'::text[], '[5:6]={1,2}'::text[]) AS shifted;
-- errors, with jsonb_object's SQLSTATEs and messages
SELECT fastjson_object('{a,1,b}');
SELECT fastjson_object('{{a,1,x},{b,2,y}}');
SELECT fastjson_object('{{{a,1}}}');
SELECT fastjson_object('{NULL,1}');
SELECT fastjson_object('{{a,1},{NULL,2}}');
SELECT fastjson_object('{a,b}', '{1}');
SELECT fastjson_object('{a}', '{{1}}');
SELECT fastjson_object('{{a}}', '{{1}}');
SELECT fastjson_object('{a,b}', '{}');
SELECT fastjson_object('{}', '{1}');
SELECT fastjson_object(ARRAY[NULL, 'b'], '{1,2}');
SELECT fastjson_object(NULL::text[]) IS NULL AS strict, fastjson_object('{a}', NULL) IS NULL AS strict_two;
-- a key index from 9 pairs on: lookups go through it, and find the last duplicate
SELECT o ->> 'k3' AS last_of_three, o ->> 'k11' AS k11, fastjson_array_length(fastjson_build_array(o)) AS one,
	o::jsonb = jsonb_object(a) AS same_as_jsonb
FROM (SELECT fastjson_object(a) AS o, a FROM (SELECT array_agg(ARRAY['k' || (n % 12), 'v' || n] ORDER BY n) AS a
	FROM generate_series(1, 30) n) s) t;
-- volatility and strictness are jsonb_object's
SELECT p.proname, p.pronargs, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p WHERE p.proname IN ('fastjson_object', 'jsonb_object') ORDER BY 1, 2;

-- Differential: generated arrays (one and two dimensions, odd lengths,
-- three dimensions, NULL keys and values, duplicate keys, keys to escape)
-- against jsonb_object, compared as jsonb; errors by SQLSTATE and message.
SELECT setseed(0.1966);
CREATE FUNCTION pg_temp.rand_text() RETURNS text LANGUAGE sql AS $$
	SELECT CASE WHEN random() < 0.015 THEN NULL
		ELSE (ARRAY['a', 'b', 'a', 'c', '', 'é', '日本', 'x"y', E'\\', E'\t', 'null', '1', '1e2', 'k1', 'k2'])[1 + floor(random() * 15)::int] END
$$;
CREATE TEMP TABLE obj_cases AS
SELECT g AS id, shape,
	CASE shape
		WHEN 'one' THEN (SELECT array_agg(pg_temp.rand_text()) FROM generate_series(1, n))
		WHEN 'two' THEN (SELECT array_agg(ARRAY[pg_temp.rand_text(), pg_temp.rand_text()]) FROM generate_series(1, n))
		WHEN 'ragged' THEN (SELECT array_agg(ARRAY[pg_temp.rand_text(), pg_temp.rand_text(), pg_temp.rand_text()]) FROM generate_series(1, n))
		WHEN 'three' THEN (SELECT array_agg(ARRAY[ARRAY[pg_temp.rand_text(), pg_temp.rand_text()]]) FROM generate_series(1, n))
		ELSE (SELECT array_agg(pg_temp.rand_text()) FROM generate_series(1, n))
	END AS a,
	(SELECT array_agg(pg_temp.rand_text()) FROM generate_series(1, CASE WHEN random() < 0.9 THEN n ELSE n + 1 END)) AS b
FROM (SELECT g, (ARRAY['one', 'one', 'two', 'two', 'ragged', 'three', 'keys'])[1 + floor(random() * 7)::int] AS shape,
	floor(random() * 24)::int AS n FROM generate_series(1, 2000) g) s;
CREATE FUNCTION pg_temp.obj_try(q text, a text[], b text[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE q INTO r USING a, b;
	RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE || ' ' || replace(SQLERRM, 'jsonb', 'fastjson');
END $$;
CREATE TEMP TABLE obj_diff AS
SELECT id, shape,
	pg_temp.obj_try(CASE WHEN shape = 'keys' THEN 'SELECT fastjson_object($1, $2)::jsonb::text' ELSE 'SELECT fastjson_object($1)::jsonb::text' END, a, b) AS f,
	pg_temp.obj_try(CASE WHEN shape = 'keys' THEN 'SELECT jsonb_object($1, $2)::text' ELSE 'SELECT jsonb_object($1)::text' END, a, b) AS j
FROM obj_cases;
SELECT shape, count(*) AS cases, count(*) FILTER (WHERE j LIKE 'ERROR%') AS errors,
	count(*) FILTER (WHERE f IS DISTINCT FROM j) AS differences
FROM obj_diff GROUP BY shape ORDER BY shape;
SELECT * FROM obj_diff WHERE f IS DISTINCT FROM j LIMIT 10;
