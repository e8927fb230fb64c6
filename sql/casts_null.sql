-- Casts of a JSON null to an SQL scalar type follow the jsonb of the running
-- server: an error (22023) before PostgreSQL 18, SQL NULL from 18 on
-- (expected/casts_null.out before 18, casts_null_1.out from 18).
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE q INTO r;
	RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT t, pg_temp.try(format('SELECT %L::fastjson::%s', 'null', t)) AS fastjson,
	pg_temp.try(format('SELECT %L::fastjson::%s', 'null', t)) =
		replace(pg_temp.try(format('SELECT %L::jsonb::%s', 'null', t)), 'jsonb', 'fastjson') AS same_as_jsonb
FROM unnest(ARRAY['boolean', 'numeric', 'smallint', 'integer', 'bigint', 'real', 'double precision']) AS t;
-- in a query over a column that holds JSON nulls
SELECT doc::int4 AS n FROM (VALUES ('1'::fastjson), ('null')) v(doc);
