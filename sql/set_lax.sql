-- fastjson_set_lax: fastjson_set, and what an SQL NULL new value does
-- (null_value_treatment), with jsonb_set_lax's answers and errors.
SELECT fastjson_set_lax('{"a":1,"b":[1,2]}', '{b,0}', '1.0') AS set_as_fastjson_set,
	fastjson_set_lax('{"a":1,"b":[1,2]}', '{b,0}', NULL) AS use_json_null_by_default,
	fastjson_set_lax('{"a":1,"b":[1,2]}', '{b,0}', NULL, true, 'use_json_null') AS use_json_null,
	fastjson_set_lax('{"a":1,"b":[1,2]}', '{b,0}', NULL, true, 'delete_key') AS delete_key,
	fastjson_set_lax('{"a":1,"b":[1,2]}', '{b,0}', NULL, true, 'return_target') AS return_target;
-- a missing key: created (or not) as fastjson_set does, deleted as #- does
SELECT fastjson_set_lax('{"a":1}', '{x}', NULL) AS created,
	fastjson_set_lax('{"a":1}', '{x}', NULL, false) AS not_created,
	fastjson_set_lax('{"a":1}', '{x}', NULL, false, 'delete_key') AS nothing_to_delete,
	fastjson_set_lax('{"a":1,"a":2}', '{a}', NULL, true, 'delete_key') AS duplicates_go;
-- spelling and order of the untouched members are kept
SELECT fastjson_set_lax('{"z":1.0,"a":1e2,"m":[-0]}', '{a}', NULL, true, 'use_json_null') AS kept;
-- SQL NULL target, path or create_if_missing: NULL (not strict, as jsonb_set_lax)
SELECT fastjson_set_lax(NULL, '{a}', '1') IS NULL AS null_target,
	fastjson_set_lax('{}', NULL, '1') IS NULL AS null_path,
	fastjson_set_lax('{}', '{a}', '1', NULL) IS NULL AS null_create;
-- the treatment is checked when it is NULL, even for a new value that is not
SELECT fastjson_set_lax('{"a":1}', '{a}', '2', true, NULL);
SELECT jsonb_set_lax('{"a":1}', '{a}', '2', true, NULL);
-- an unknown treatment is only an error for an SQL NULL new value
SELECT fastjson_set_lax('{"a":1}', '{a}', '2', true, 'no such thing') AS ignored;
SELECT fastjson_set_lax('{"a":1}', '{a}', NULL, true, 'no such thing');
SELECT fastjson_set_lax('{"a":1}', '{a}', NULL, true, 'Delete_Key');
SELECT fastjson_set_lax('{"a":1}', '{a}', NULL, true, 'raise_exception');
SELECT fastjson_set_lax('{"a":1}', '{a}', '3', true, 'raise_exception') AS not_raised;
-- scalars: each treatment fails as the function it stands for, but return_target
SELECT fastjson_set_lax('1', '{a}', NULL);
SELECT fastjson_set_lax('1', '{a}', NULL, true, 'delete_key');
SELECT fastjson_set_lax('"s"', '{a}', NULL, true, 'return_target') AS scalar_returned;
SELECT fastjson_set_lax('{"a":1}', '{{a}}', NULL, true, 'delete_key');
SELECT fastjson_set_lax('{"a":[1]}', '{a,x}', NULL);
SELECT fastjson_set_lax('{"a":1}', '{NULL}', NULL);
-- volatility and strictness are jsonb_set_lax's
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel, p.pronargdefaults
FROM pg_proc p WHERE p.proname IN ('fastjson_set_lax', 'jsonb_set_lax') ORDER BY 1;

-- Differential: generated documents, paths and new values (an SQL NULL one
-- time in three), each treatment, against jsonb_set_lax: results compared
-- as jsonb, errors by SQLSTATE and message (jsonb read as fastjson).
\i sql/include/random_docs.sql
SELECT setseed(0.2020);
CREATE TEMP TABLE lax_cases AS
SELECT g AS id, fj_gen(3, 0.1) AS doc,
	(ARRAY['{a}', '{b,0}', '{0}', '{-1}', '{1,a}', '{a,-1,b}', '{aa}', '{x,y}', '{5}', '{é}', '{0,0}', '{-7}',
		'{}', '{NULL}', '{a,NULL}', '{{a},{b}}', '{"1"}', '{a,b,c,d}'])[1 + floor(random() * 18)::int]::text[] AS path,
	CASE WHEN random() < 0.33 THEN NULL ELSE fj_gen(2) END AS newval,
	random() < 0.7 AS create_missing,
	(ARRAY['use_json_null', 'delete_key', 'return_target', 'raise_exception', 'bogus', NULL])[1 + floor(random() * 6)::int] AS treatment
FROM generate_series(1, 3000) g;
CREATE FUNCTION pg_temp.lax_try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE q INTO r;
	RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE || ' ' || replace(SQLERRM, 'jsonb', 'fastjson');
END $$;
CREATE TEMP TABLE lax_diff AS
SELECT id, treatment, newval IS NULL AS null_value,
	pg_temp.lax_try(format('SELECT fastjson_set_lax(%L, %L, %L, %L, %L)::jsonb::text',
		doc, path, newval, create_missing, treatment)) AS f,
	pg_temp.lax_try(format('SELECT jsonb_set_lax(%L, %L, %L, %L, %L)::text',
		doc, path, newval, create_missing, treatment)) AS j
FROM lax_cases;
SELECT coalesce(treatment, 'NULL') AS treatment, null_value, count(*) AS cases,
	count(*) FILTER (WHERE j LIKE 'ERROR%') AS errors, count(*) FILTER (WHERE f IS DISTINCT FROM j) AS differences
FROM lax_diff GROUP BY 1, 2 ORDER BY 1, 2;
SELECT count(*) AS cases, count(DISTINCT j) FILTER (WHERE j LIKE 'ERROR%') AS distinct_errors,
	count(*) FILTER (WHERE f IS DISTINCT FROM j) AS differences FROM lax_diff;
SELECT * FROM lax_diff WHERE f IS DISTINCT FROM j LIMIT 10;
