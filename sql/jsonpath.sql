-- SQL/JSON path on fastjson: the functions and operators against jsonb's,
-- on every supported version (the conversion methods of 17 are in
-- jsonpath_17.sql, the string methods of 19 in jsonpath_19.sql; the
-- generated differential is test/jsonpath_differential.py).
SET timezone = 'UTC';

-- each function and operator, side by side with jsonb's
CREATE TEMP TABLE jp (id int, t text);
INSERT INTO jp VALUES
	(1, '{"a": 1, "b": [1, 2.50, 1e2, {"c": "x"}], "a": {"d": [true, null]}}'),
	(2, '[1, [2, [3, [4]]], {}, [], "s", -0, 1.0]'),
	(3, '{"http": {"status": 503, "path": "/x"}, "tags": ["x", "y"], "price": 10.5}'),
	(4, '"2020-01-02"'),
	(5, 'null');
SELECT id, p,
	(SELECT array_agg(x::text) FROM fastjson_path_query(t::fastjson, p::jsonpath, '{}', true) x) AS fastjson,
	(SELECT array_agg(x::text) FROM jsonb_path_query(t::jsonb, p::jsonpath, '{}', true) x) AS jsonb
FROM jp, unnest(ARRAY['$', '$.a', '$.a.d[*]', '$.b[*]', '$.*', '$.**{2}', '$[1 to last]', '$[last]',
	'$.b[0 to 1]', 'strict $.b[*] ? (@ > 1)', '$.http.status', '$.tags[*] ? (@ == "x")', '$.size()',
	'$.type()', '$.**.c']) p
ORDER BY id, p;

-- numbers keep their spelling; computed numbers are written as jsonb prints them
SELECT fastjson_path_query_array('[1.0, 1e2, -0, 100.50, 12345678901234567890123]', '$[*]');
SELECT x, fastjson_path_query_first(x::fastjson, '$ * 2') AS fastjson, jsonb_path_query_first(x::jsonb, '$ * 2') AS jsonb,
	fastjson_path_query_first(x::fastjson, '+$') AS plus, fastjson_path_query_first(x::fastjson, '-$') AS minus
FROM unnest(ARRAY['1.0', '1e2', '2.50', '-0', '9223372036854775807']) x;
SELECT fastjson_path_query_array('[1.0, 1e2, 2.50]', '$[*].abs()'),
	fastjson_path_query_array('[-1.5, 1.5, 7]', '$[*].floor()'),
	fastjson_path_query_array('[-1.5, 1.5, 7]', '$[*].ceiling()');
SELECT fastjson_path_query_first('{"a": [1, 2]}', '$.a.size() + 0.50'),
	fastjson_path_query_first('{"x": 1}', '$.x / 3'), jsonb_path_query_first('{"x": 1}', '$.x / 3');

-- duplicate keys: the last one is operative, as in jsonb
SELECT fastjson_path_query_array('{"a": 1, "b": 2, "a": 3}', '$.*'),
	fastjson_path_query_first('{"a": 1, "a": 3}', '$.a'),
	fastjson_path_query_array('{"a": 1, "b": 2, "a": 3}', '$.keyvalue()');

-- lax and strict
SELECT fastjson_path_query_array('{"a": [{"b": 1}, {"b": 2}]}', 'lax $.a.b'),
	fastjson_path_query_array('{"a": [{"b": 1}, {"b": 2}]}', 'strict $.a[*].b');
SELECT fastjson_path_query_array('{"a": [{"b": 1}, {"b": 2}]}', 'strict $.a.b');
SELECT fastjson_path_query_array('{"a": [{"b": 1}, {"b": 2}]}', 'strict $.a.b', silent => true);
SELECT fastjson_path_query_array('{"a": 1}', 'strict $.b');
SELECT fastjson_path_query_array('[1, 2]', 'strict $[5]');
SELECT fastjson_path_query_array('[1, 2]', 'lax $[5]'), fastjson_path_query_array('1', 'lax $[0]');

-- @? and @@, exists and match
SELECT t::fastjson @? '$.tags[*] ? (@ == "x")' AS fj_exists, t::jsonb @? '$.tags[*] ? (@ == "x")' AS jb_exists,
	t::fastjson @@ '$.http.status >= 500' AS fj_match, t::jsonb @@ '$.http.status >= 500' AS jb_match
FROM jp ORDER BY id;
SELECT fastjson_path_match('[1]', '$[*] == 1'), fastjson_path_match('1', '$', silent => true),
	fastjson_path_match('{}', '$.a == 1'), fastjson_path_match('[true]', '$[0]'), fastjson_path_match('[null]', '$[0]');
SELECT fastjson_path_match('1', '$');
SELECT fastjson_path_match('[true, true]', '$[*]');
SELECT fastjson_path_exists('{"a": 1}', 'strict $.b', silent => true), '{"a": 1}'::fastjson @? 'strict $.b',
	fastjson_path_exists('{"a": 1}', 'lax $.b'), fastjson_path_exists('{"a": 1}', '$.a ? (@ > 0)');
SELECT fastjson_path_exists('{"a": 1}', 'strict $.b');

-- vars: an object, its members by name, the last of duplicates
SELECT fastjson_path_query_array('[1, 2, 3, 4]', '$[*] ? (@ > $min && @ < $max)', '{"min": 1, "max": 4}'),
	fastjson_path_query_first('{}', '$x', '{"x": 1, "x": "last"}');
SELECT fastjson_path_query_array('[1]', '$[*] ? (@ > $min)', '[1]');
SELECT fastjson_path_query_array('[1]', '$[*] ? (@ > $nope)', '{}');
-- @? and @@ have no vars: 16 takes a variable as null there, 15 and 17 on raise (as jsonb)
CREATE FUNCTION pg_temp.as_jsonb_opr(d text, p text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE a text; b text;
BEGIN
	BEGIN a := (d::fastjson @? p::jsonpath)::text; EXCEPTION WHEN OTHERS THEN a := SQLSTATE; END;
	BEGIN b := (d::jsonb @? p::jsonpath)::text; EXCEPTION WHEN OTHERS THEN b := SQLSTATE; END;
	RETURN CASE WHEN a = b THEN 'as jsonb' ELSE 'fastjson ' || a || ', jsonb ' || b END;
END $$;
SELECT pg_temp.as_jsonb_opr('[1]', '$[*] ? (@ > $nope)'), pg_temp.as_jsonb_opr('[1]', '$x');

-- errors as jsonb's (SQLSTATE and message), and what silent suppresses
\set VERBOSITY sqlstate
SELECT fastjson_path_query('[1, 2]', '$[*] + 1');
SELECT fastjson_path_query('{"a": 1}', '$.a / 0');
SELECT fastjson_path_query('{"a": "x"}', '-$.a');
SELECT fastjson_path_query('[1]', 'strict $.a');
SELECT fastjson_path_query('{}', 'strict $[0]');
SELECT fastjson_path_query('{}', '$.keyvalue().a.keyvalue()');
SELECT fastjson_path_query('[1]', '$[*].keyvalue()');
SELECT fastjson_path_query('[1]', '$["a"]');
\set VERBOSITY default
SELECT fastjson_path_query('[1, 2]', '$[*] + 1');
SELECT fastjson_path_query('{"a": 1}', '$.a / 0');
SELECT fastjson_path_query('{"a": "x"}', '-$.a');
SELECT fastjson_path_query_array('[1, 2]', '$[*] + 1', silent => true),
	fastjson_path_query_array('{"a": 1}', '$.a / 0', silent => true),
	fastjson_path_query_array('[1, "x"]', '$[*] ? (@ / 0 > 1 || @ == "x")');

-- predicates: exists, starts with, like_regex with flags, is unknown
SELECT fastjson_path_query_array('["abc", "ABC", "xyz", 1]', '$[*] ? (@ like_regex "^a" flag "i")'),
	fastjson_path_query_array('["abc", "a.c", "xyz"]', '$[*] ? (@ like_regex "a.c" flag "q")'),
	fastjson_path_query_array('["abc", "xabc", 1]', '$[*] ? (@ starts with "ab")'),
	fastjson_path_query_array('[1, "a", null]', '$[*] ? ((@ > 0) is unknown)'),
	fastjson_path_query_array('[{"a": 1}, {"b": 2}]', '$[*] ? (exists (@.a))');

-- .keyvalue(): the ids are jsonb's (offsets in jsonb's representation)
SELECT fastjson_path_query_array(t::fastjson, '$.**.keyvalue()', silent => true)::jsonb
	= jsonb_path_query_array(t::jsonb, '$.**.keyvalue()', silent => true) AS same_keyvalue
FROM (VALUES ('{"a": {"b": 1, "c": [{"x": 1.50}, {"y": "s"}]}, "bb": [{"z": 12345678901234567890}]}'),
	('{"id": 1, "key": {"value": {}}}')) v(t);
SELECT fastjson_path_query_array('{"a": {"b": {"c": 1}}}', '$.a.keyvalue().value.keyvalue()'),
	jsonb_path_query_array('{"a": {"b": {"c": 1}}}', '$.a.keyvalue().value.keyvalue()');

-- datetimes: with and without a template; with and without time zone
SELECT fastjson_path_query_array('["2020-01-02", "12:34:56", "12:34:56+05", "2020-01-02 03:04:05"]',
	'$[*].datetime()');
SELECT fastjson_path_query_first('"10-03-2017"', '$.datetime("dd-mm-yyyy")'),
	fastjson_path_query_first('"10-03-2017"', '$.datetime("dd-mm-yyyy").type()');
SELECT fastjson_path_query_array('["2020-01-02", "2020-01-03 00:00:00"]',
	'$[*] ? (@.datetime() > "2020-01-02".datetime())');
SELECT fastjson_path_query_array('["2020-01-02", "2020-01-03 00:00:00+00"]',
	'$[*] ? (@.datetime() > "2020-01-02".datetime())');
SELECT fastjson_path_query_array_tz('["2020-01-02", "2020-01-03 00:00:00+00"]',
	'$[*] ? (@.datetime() > "2020-01-02".datetime())');
SELECT fastjson_path_query('"x"', '$.datetime()');
SELECT fastjson_path_query('"x"', '$.datetime()', silent => true);

-- .double(): strings and numbers
SELECT fastjson_path_query_array('["1.5", 2, "1e2", 1.50]', '$[*].double()');
-- .double()'s errors suppressed, as jsonb's: the items before the bad one, none after
SELECT d, (SELECT array_agg(x::text) FROM fastjson_path_query(d::fastjson, '$[*].double()', silent => true) x) AS fastjson,
	(SELECT array_agg(x::text) FROM jsonb_path_query(d::jsonb, '$[*].double()', silent => true) x) AS jsonb,
	d::fastjson @? '$[*].double()' AS fastjson_exists, d::jsonb @? '$[*].double()' AS jsonb_exists
FROM (VALUES ('["x"]'), ('[1e400]'), ('["inf"]'), ('[1, "x", 2]'), ('["1.5", "nan", 3]'), ('[{}]')) v(d);

-- the functions as jsonb's: volatility, strictness, parallel safety, rows
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel, p.prorows, p.proretset,
	pg_get_function_arguments(p.oid) = replace(pg_get_function_arguments(j.oid), 'jsonb', 'fastjson') AS same_arguments,
	j.provolatile = p.provolatile AND j.proisstrict = p.proisstrict AND j.proparallel = p.proparallel
		AND j.prorows = p.prorows AS same_as_jsonb
FROM pg_proc p JOIN pg_proc j ON j.proname = replace(p.proname, 'fastjson', 'jsonb')
	AND j.pronamespace = 'pg_catalog'::regnamespace
WHERE p.proname LIKE 'fastjson\_path\_%' ORDER BY p.proname;

-- GIN: @? and @@ through both operator classes, rechecked, as a sequential scan
CREATE TEMP TABLE jpg AS
SELECT i AS id, format('{"id": %s, "type": "%s", "http": {"status": %s}, "tags": ["t%s", "u%s"], "n": %s}',
	i, (ARRAY['a', 'b', 'c'])[1 + i % 3], 200 + (i % 4) * 100, i % 10, i % 7, i % 5 * 1.5)::fastjson AS doc
FROM generate_series(1, 2000) i;
INSERT INTO jpg VALUES (0, '"t1"'), (-1, '["t1"]'), (-2, '{"tags": "t1"}'), (-3, '{"http": [{"status": 500}]}');
CREATE TEMP TABLE jpg_path AS SELECT * FROM jpg;
CREATE INDEX jpg_ops ON jpg USING gin (doc);
CREATE INDEX jpg_path_ops ON jpg_path USING gin (doc fastjson_path_ops);
ANALYZE jpg;
ANALYZE jpg_path;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM jpg WHERE doc @? '$.tags[*] ? (@ == "t3")';
EXPLAIN (COSTS OFF) SELECT count(*) FROM jpg WHERE doc @@ '$.http.status == 500';
EXPLAIN (COSTS OFF) SELECT count(*) FROM jpg_path WHERE doc @? '$.tags[*] ? (@ == "t3")';
EXPLAIN (COSTS OFF) SELECT count(*) FROM jpg_path WHERE doc @@ '$.http.status == 500';
CREATE TEMP TABLE jpq (q text);
INSERT INTO jpq VALUES ('$.tags[*] ? (@ == "t3")'), ('$.http.status == 500'), ('$.http ? (@.status == 500)'),
	('strict $.tags[*] ? (@ == "t1")'), ('strict $ == "t1"'), ('lax $ == "t1"'), ('strict $[*] == "t1"'),
	('$.tags == "t1"'), ('strict $.tags == "t1"'), ('$.type == "a" && $.n == 3'), ('$.type == "a" || $.n == 3'),
	('!($.type != "a")'), ('exists($.http ? (@.status == 500))'), ('$.http.status > 300'), ('$.** == 500'),
	('$.*.status == 300'), ('!(!($.type == "a") && $.n == 0)'), ('$.http[*].status == 500'), ('$.n == 1.50');
CREATE FUNCTION pg_temp.ids(tab regclass, op text, q text) RETURNS int[] LANGUAGE plpgsql AS $$
DECLARE r int[];
BEGIN
	EXECUTE format('SELECT coalesce(array_agg(id ORDER BY id), ''{}'') FROM %s WHERE doc %s %L::jsonpath', tab, op, q) INTO r;
	RETURN r;
END $$;
CREATE TEMP TABLE jpr AS
SELECT q, op, pg_temp.ids('jpg', op, q) AS ops, pg_temp.ids('jpg_path', op, q) AS path_ops FROM jpq, unnest(ARRAY['@?', '@@']) op;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SET enable_indexscan = off;
SELECT q, op, cardinality(ops) AS rows, ops = pg_temp.ids('jpg', op, q) AS ops_as_seqscan,
	path_ops = pg_temp.ids('jpg', op, q) AS path_ops_as_seqscan,
	ops = (SELECT coalesce(array_agg(id ORDER BY id), '{}') FROM jpg
		WHERE CASE op WHEN '@?' THEN doc::jsonb @? q::jsonpath ELSE doc::jsonb @@ q::jsonpath END) AS as_jsonb
FROM jpr ORDER BY q, op;
RESET enable_bitmapscan;
RESET enable_indexscan;

-- stored values: a path whose every $ starts with the same keys reads a
-- large value (in the row or out of line) only as far as those keys lead;
-- a key missing, a scalar or (lax) an array on the way give jsonb's answers
CREATE TEMP TABLE jps (id int, doc fastjson);
CREATE TEMP TABLE jps_lz4 (id int, doc fastjson);
CREATE TEMP TABLE jps_ext (id int, doc fastjson);
ALTER TABLE jps ALTER COLUMN doc SET COMPRESSION pglz;
ALTER TABLE jps_ext ALTER COLUMN doc SET STORAGE external;
INSERT INTO jps SELECT i, format('{"id": %s, "pad": "%s", "user": {"name": "u%s", "n": %s, "tags": ["a%s", "b"]}, "arr": [{"x": %s}], "s": "str"}',
	i, repeat('abcdefgh', 400 + i), i, i * 1.5, i % 3, i)::fastjson FROM generate_series(1, 30) i;
INSERT INTO jps VALUES (31, '{"pad": "' || repeat('x', 5000) || '", "user": "not an object"}'),
	(32, '[{"user": {"name": "in an array"}}, "' || repeat('y', 5000) || '"]'), (33, '"' || repeat('z', 5000) || '"');
ALTER TABLE jps_lz4 ALTER COLUMN doc SET COMPRESSION lz4;
INSERT INTO jps_lz4 SELECT id, doc::text::fastjson FROM jps;
INSERT INTO jps_ext SELECT id, doc::text::fastjson FROM jps;
-- how they are held: in the stored form of large documents (blocks), which
-- PostgreSQL has nothing left to compress
SELECT t, count(*) AS rows, count(*) FILTER (WHERE fastjson_storage_form(doc) = 'blocks') AS blocks,
	count(pg_column_compression(doc)) AS compressed_by_postgres
FROM (SELECT 'pglz' AS t, doc FROM jps UNION ALL SELECT 'lz4', doc FROM jps_lz4
	UNION ALL SELECT 'external', doc FROM jps_ext) s GROUP BY t ORDER BY t;
CREATE FUNCTION pg_temp.stored(tab regclass, p text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE a text; b text;
BEGIN
	EXECUTE format('SELECT string_agg(id || '':'' || coalesce(fastjson_path_query_array(doc, %L, ''{}'', true)::jsonb::text, ''-'')
		|| coalesce((doc @? %L)::text, ''-'') || coalesce((doc @@ %L)::text, ''-''), '' '' ORDER BY id) FROM %s', p, p, p, tab) INTO a;
	EXECUTE format('SELECT string_agg(id || '':'' || coalesce(jsonb_path_query_array(doc::text::jsonb, %L, ''{}'', true)::text, ''-'')
		|| coalesce((doc::text::jsonb @? %L)::text, ''-'') || coalesce((doc::text::jsonb @@ %L)::text, ''-''), '' '' ORDER BY id) FROM %s', p, p, p, tab) INTO b;
	RETURN CASE WHEN a = b THEN 'same' ELSE 'DIFFERENT: ' || a || ' / ' || b END;
END $$;
SELECT p, pg_temp.stored('jps', p) AS pglz, pg_temp.stored('jps_lz4', p) AS lz4, pg_temp.stored('jps_ext', p) AS external
FROM unnest(ARRAY['$.user.name', 'strict $.user.name', '$.user.n > 20', 'strict $.user.n > 20',
	'$.user.tags[*] ? (@ == "a1")', '$.user.missing', 'strict $.user.missing', '$.arr.x',
	'strict $.arr.x', '$.user.name starts with "u2"', '$.user ? (@.n > $.id)', '$.s.size()',
	'exists($.user.name) && $.user.n < 3']) p;
SELECT fastjson_path_query_first(doc, 'strict $.user.missing') FROM jps WHERE id = 1;
SELECT fastjson_path_query_first(doc, 'strict $.user.name.x') FROM jps WHERE id = 1;
SELECT fastjson_path_query_first(doc, 'lax $.user.name') FROM jps WHERE id = 32;
-- A string holding U+0000 (which jsonb cannot hold) is not text: a method
-- that reads it as text raises 22P05, as ->> does, and silent suppresses it
-- as it does the method's other errors; like_regex on it is unknown. Before,
-- the string was cut at U+0000 and its first part read.
SELECT fastjson_path_query('"1.5\u0000junk"', '$.double()');
SELECT fastjson_path_query('"1.5\u0000junk"', '$.double()', silent => true);
SELECT fastjson_path_query('["1.5\u0000junk", "2.5"]', 'lax $[*] ? (@.double() > 2)');
SELECT fastjson_path_query('"2020-01-01\u0000junk"', '$.datetime()');
SELECT fastjson_path_query('"2020-01-01\u0000junk"', '$.datetime("yyyy-mm-dd")', silent => true);
SELECT fastjson_path_exists('"x\u0000y"', '$ ? (@ like_regex "^x$")') AS like_x,
	fastjson_path_match('"x\u0000y"', '($ like_regex "x") is unknown') AS unknown,
	fastjson_path_match('"xy"', '($ like_regex "x") is unknown') AS known,
	fastjson_path_exists('"x\u0000y"', '$ ? (@ starts with "x")') AS starts_with;
