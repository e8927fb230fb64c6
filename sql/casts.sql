-- Casts from fastjson scalars to boolean, numeric, smallint, integer, bigint,
-- real and double precision: explicit, like jsonb's, with jsonb's answers.
-- Numbers stay exact: numeric takes the number as written (1e400 works);
-- integer casts round as jsonb's do (through numeric); float casts give the
-- nearest float, and 22003 when the number is out of range.

-- explicit casts, like jsonb's
SELECT c.casttarget::regtype, c.castcontext, j.castcontext AS jsonb_castcontext
FROM pg_cast c JOIN pg_cast j ON j.castsource = 'jsonb'::regtype AND j.casttarget = c.casttarget
WHERE c.castsource = 'fastjson'::regtype ORDER BY 1::text;

SELECT 'true'::fastjson::boolean, 'false'::fastjson::boolean,
	'1.50'::fastjson::numeric, '1e2'::fastjson::numeric, '-0'::fastjson::numeric,
	'123456789012345678901234567890'::fastjson::numeric,
	length('1e400'::fastjson::numeric::text) AS digits_1e400,
	'1.5'::fastjson::int4 AS rounds, '2.5'::fastjson::int2, '-2.5'::fastjson::int8, '1e2'::fastjson::int4,
	'-9223372036854775808'::fastjson::int8, '3.25'::fastjson::float4, '1e-310'::fastjson::float8,
	'-0'::fastjson::float8 AS minus_zero;
SELECT (d -> 'n')::int4 + 1 AS n_plus_1, (d -> 'ok')::boolean AS ok, (d #> '{x,0}')::numeric * 2 AS x0
FROM (SELECT '{"n":41,"ok":true,"x":[0.25]}'::fastjson AS d) s;

-- failing: jsonb's messages (with fastjson for jsonb), SQLSTATE 22023; out of
-- range numbers: 22003
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE q INTO r;
	RETURN r;
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT q, pg_temp.try('SELECT ' || q) AS result FROM unnest(ARRAY[
	'''{}''::fastjson::int4', '''[1]''::fastjson::numeric', '''"1"''::fastjson::int8',
	'''true''::fastjson::float8', '''1''::fastjson::boolean', '''"x"''::fastjson::float4',
	'''{"a":1}''::fastjson::boolean', '''[]''::fastjson::real',
	'''1e400''::fastjson::float8', '''1e-400''::fastjson::float8', '''1e39''::fastjson::float4', '''1e-50''::fastjson::float4',
	'''32768''::fastjson::int2', '''-2147483648.5''::fastjson::int4', '''9223372036854775808''::fastjson::int8'
]) AS q;
SELECT '{}'::fastjson::int4;
SELECT '"x"'::fastjson::boolean;

-- differential against jsonb: every number below and 2000 random spellings,
-- cast to each type, give the same value, or fail with the same SQLSTATE
CREATE FUNCTION pg_temp.try_state(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE q INTO r;
	RETURN r;
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE;
END $$;
CREATE TEMP TABLE numbers AS
SELECT unnest(ARRAY['0', '-0', '-0.0', '1', '-1', '0.5', '-0.5', '1.5', '2.5', '-1.5', '-2.5', '1e2', '1E+2', '1e-2',
	'0.1000', '32767', '32768', '-32768', '-32769', '32767.5', '-32768.5', '32767.49',
	'2147483647', '2147483648', '-2147483648', '-2147483649', '2147483647.4', '-2147483648.5',
	'9223372036854775807', '9223372036854775808', '-9223372036854775808', '-9223372036854775809',
	'9223372036854775807.5', '123456789012345678901234567890', '1e400', '-1e400', '1e-400',
	'1.0000000000000001', '0.30000000000000004', '3.4028235e38', '3.4028236e38', '3.5e38', '1e-45', '1e-46',
	'1e-50', '1e-310', '4.9e-324', '2.4e-324', '2.5e-324', '1.7976931348623157e308', '1.7976931348623159e308',
	'1.8e308', '16777217', '9007199254740993', '0.000000000000000000000000000001']) AS n;
SELECT setseed(0.25);
INSERT INTO numbers
SELECT CASE WHEN random() < 0.5 THEN '-' ELSE '' END
	|| floor(random() * 10 ^ (1 + floor(random() * 20)))::numeric::text
	|| CASE WHEN random() < 0.5 THEN '.' || floor(random() * 10 ^ (1 + floor(random() * 20)))::numeric::text ELSE '' END
	|| CASE WHEN random() < 0.5 THEN 'e' || (floor(random() * 80) - 40)::text ELSE '' END
FROM generate_series(1, 2000);
SELECT count(*) AS casts,
	count(*) FILTER (WHERE f LIKE 'ERROR%') AS errors,
	count(*) FILTER (WHERE f IS DISTINCT FROM j) AS differ
FROM numbers, unnest(ARRAY['numeric', 'int2', 'int4', 'int8', 'float4', 'float8']) AS t,
	LATERAL (SELECT pg_temp.try_state(format('SELECT %L::fastjson::%s', n, t)) AS f,
		pg_temp.try_state(format('SELECT %L::jsonb::%s', n, t)) AS j) r;
-- boolean: only true and false cast
SELECT v, pg_temp.try_state(format('SELECT %L::fastjson::boolean', v)) AS fastjson,
	pg_temp.try_state(format('SELECT %L::jsonb::boolean', v)) AS jsonb
FROM unnest(ARRAY['true', 'false', '0', '"true"', '[]', '{}']) AS v;
