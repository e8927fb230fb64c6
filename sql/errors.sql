-- Errors, each failing input next to a passing one.
-- Syntax: SQLSTATE 22P02, a DETAIL naming the problem, a CONTEXT showing where.
\set VERBOSITY default
SELECT '{"a":1}'::fastjson;
SELECT '{"a":1,}'::fastjson;
SELECT '[1,2]'::fastjson;
SELECT '[1,2'::fastjson;
SELECT '{"a" 1}'::fastjson;
SELECT '[1 2]'::fastjson;
SELECT '[01]'::fastjson;
SELECT '[1.]'::fastjson;
SELECT '[tru]'::fastjson;
SELECT '"\x"'::fastjson;
SELECT '"\u12"'::fastjson;
SELECT '"\ud83d\ude00"'::fastjson;
SELECT '"\ud83d"'::fastjson;
SELECT '"\ude00"'::fastjson;
SELECT E'"a\tb"'::fastjson;
SELECT ''::fastjson;
SELECT '{} []'::fastjson;
SELECT E'{\n  "a": 1,\n  "b": [1, 2,, 3]\n}'::fastjson;
SELECT '{"a":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30 x]}'::fastjson;
-- the SQLSTATEs, in one place
\set VERBOSITY sqlstate
SELECT '[1,'::fastjson;
-- invalid UTF-8 (only reachable through bytes): 22021
SELECT fastjson_from_utf8('\x5b22c3a9225d'::bytea);
SELECT fastjson_from_utf8('\x5b22c3225d'::bytea);
SELECT fastjson_from_utf8('\x5b22eda080225d'::bytea);
SELECT fastjson_from_utf8('\x5b22c0af225d'::bytea);
\set VERBOSITY default
SELECT fastjson_from_utf8('\x5b2261c3225d'::bytea);
-- U+0000 is stored, but cannot become text: 22P05, as json does
SELECT '["\u0000"]'::fastjson;
SELECT '["\u0000"]'::fastjson ->> 0;
SELECT '["\u0000"]'::json ->> 0;
SELECT '{"a":"\u0000"}'::fastjson ->> 'a';
-- nesting beyond fastjson.max_depth: 54001
SET fastjson.max_depth = 5;
SELECT '[[[[[1]]]]]'::fastjson;
SELECT '[[[[[[1]]]]]]'::fastjson;
SELECT '{"a":{"a":{"a":{"a":{"a":{"a":1}}}}}}'::fastjson;
RESET fastjson.max_depth;
SELECT repeat('[', 10000) || repeat(']', 10000) = (repeat('[', 10000) || repeat(']', 10000))::fastjson::text AS depth_10000_ok;
\set VERBOSITY sqlstate
SELECT (repeat('[', 10001) || repeat(']', 10001))::fastjson;
SELECT (repeat('[', 1000000))::fastjson;
\set VERBOSITY default
-- bad settings
SET fastjson.simd = 'sse9';
SET fastjson.max_depth = 0;
-- nothing half-parsed is stored: a failing row leaves the table unchanged
CREATE TEMP TABLE t (doc fastjson);
INSERT INTO t VALUES ('[1]'), ('[2');
SELECT count(*) FROM t;
-- the DETAIL of a syntax error is jsonb's: the token found where something
-- else was expected, or the invalid token (differences: doc/conformance.md)
CREATE FUNCTION pg_temp.detail(doc text, typ text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	d text;
BEGIN
	EXECUTE format('SELECT %L::%s', doc, typ);
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
	RETURN SQLSTATE || ' ' || d;
END
$$;
-- (U+FEFF is shown by name: psql 16 and later print it as zero width)
SELECT replace(doc, e'\ufeff', '<U+FEFF>') AS doc,
	replace(pg_temp.detail(doc, 'fastjson'), e'\ufeff', '<U+FEFF>') AS detail,
	pg_temp.detail(doc, 'fastjson') = pg_temp.detail(doc, 'jsonb') AS same_as_jsonb
FROM unnest(ARRAY['{"a":1,}', '{1:2}', '{ ,}', '{"a" 1}', '{"a":1 "b":2}', '[1 2]', '[1,]', '[,1]',
	'[1 x]', '[true false]', '[3[4]]', '[1:2]', '{"a":1]', '[1]]', '{"a":1}x', '1 2', 'tru', 'truex',
	'[nulll]', 'true[', 'NaN', '+1', '.5', '01', '1e', '1.e5', '-', '0e+-1', '1.2a-3', '-1.0.',
	'0.1.2', '2@', '[1 000.0]', '["\x"]', '["\U0041"]', '[', e'\ufeff[]', '1"\x"',
	e'["\\u00\te9"]', e'["\\u0z1\n"]', e'["\\\t"]',
	e'"\\ud800"', e'"\\ud800x"', e'"\\ud800\\ud800"', e'"\\ud800\\u0041"', e'"\\ud800\\u00zz"', e'"\\udc00"',
	e'["\\ud83d\\ude00", "\\udbff"]']) AS doc;
