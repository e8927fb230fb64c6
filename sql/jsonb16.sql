-- What jsonb has from PostgreSQL 16 on, against fastjson's twins (which exist
-- on every version): the strict and unique aggregates. Random groups of
-- pairs with repeated keys, SQL NULLs and JSON nulls; each aggregate gives
-- jsonb's value, or jsonb's error.
SELECT setseed(0.16);
CREATE TEMP TABLE pairs AS
SELECT g, n, 'k' || floor(random() * 6)::int AS k,
	(CASE floor(random() * 4)::int WHEN 0 THEN NULL WHEN 1 THEN 'null' WHEN 2 THEN '1.50' ELSE '{"x":[1,2]}' END)::jsonb AS v
FROM generate_series(1, 200) g, generate_series(1, 1 + (g % 7)) n;
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE q INTO r;
	RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE;
END $$;
SELECT agg, count(*) AS groups,
	count(*) FILTER (WHERE f = j) AS same, count(*) FILTER (WHERE f LIKE 'ERROR%') AS errors
FROM unnest(ARRAY['agg_strict', 'object_agg_strict', 'object_agg_unique', 'object_agg_unique_strict']) AS agg,
	generate_series(1, 200) AS grp,
	LATERAL (SELECT
		pg_temp.try(format('SELECT (fastjson_%s(%s ORDER BY n))::jsonb::text FROM pairs WHERE g = %s',
			agg, CASE WHEN agg = 'agg_strict' THEN 'v::fastjson' ELSE 'k, v::fastjson' END, grp)) AS f,
		pg_temp.try(format('SELECT (jsonb_%s(%s ORDER BY n))::text FROM pairs WHERE g = %s',
			agg, CASE WHEN agg = 'agg_strict' THEN 'v' ELSE 'k, v' END, grp)) AS j) r
GROUP BY agg ORDER BY agg;

-- The SQL/JSON constructors of 16 with RETURNING fastjson: the JSON text they
-- build becomes the document as written (duplicate keys and number
-- spellings kept, as RETURNING json keeps them), and their options work as
-- for json and jsonb.
SELECT JSON_OBJECT('a': 1, 'b': 2.50, 'a': 'x' RETURNING fastjson) AS object,
	JSON_OBJECT('a': 1, 'b': 2.50, 'a': 'x' RETURNING json)::text AS as_json,
	JSON_ARRAY(1, 1.0, NULL, 'x', '{"k":1.10}'::fastjson RETURNING fastjson) AS array_absent,
	JSON_ARRAY(1, NULL NULL ON NULL RETURNING fastjson) AS array_null,
	JSON_OBJECT('a': NULL ABSENT ON NULL RETURNING fastjson) AS object_absent;
SELECT JSON_OBJECT('a': 1, 'a': 2 WITH UNIQUE KEYS RETURNING fastjson);
SELECT JSON_OBJECTAGG(k: v RETURNING fastjson) AS objectagg, JSON_ARRAYAGG(v ORDER BY k RETURNING fastjson) AS arrayagg,
	pg_typeof(JSON_ARRAYAGG(v RETURNING fastjson)) AS type
FROM (VALUES ('a', 1.50), ('b', 2)) t(k, v);
-- each agrees with RETURNING jsonb, as jsonb
SELECT count(*) AS objects, count(*) FILTER (WHERE JSON_OBJECT('k': v, 'n': g RETURNING fastjson)::jsonb
		= JSON_OBJECT('k': v, 'n': g RETURNING jsonb)) AS same
FROM pairs;
