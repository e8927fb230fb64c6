-- Objects as rows: fastjson_populate_record, fastjson_populate_recordset,
-- fastjson_to_record and fastjson_to_recordset, with jsonb's rules. Each
-- block shows what works next to what fails; where the answer is not
-- obvious, jsonb's twin is shown beside it.
CREATE TYPE rec_inner AS (x int, y text);
CREATE TYPE rec_t AS (i int, b bigint, n numeric, t text, f boolean, d date, ts timestamp,
	js json, jb jsonb, fj fastjson, ia int[], iaa int[][], r rec_inner);

-- ------------------------------------------------------------- scalars
-- a number goes to the input function as numeric_out prints it: 1e2 is 100
-- for an int column, as for jsonb, although fastjson keeps the spelling
SELECT i, b, n, t FROM fastjson_populate_record(NULL::rec_t, '{"i":1e2,"b":-0,"n":1.50e1,"t":1E+2}');
SELECT i, b, n, t FROM jsonb_populate_record(NULL::rec_t, '{"i":1e2,"b":-0,"n":1.50e1,"t":1E+2}');
SELECT n, t FROM fastjson_populate_record(NULL::rec_t, '{"n":-0.0,"t":123456789012345678901234567890.10}');
SELECT i FROM fastjson_populate_record(NULL::rec_t, '{"i":1.0}');
SELECT i FROM jsonb_populate_record(NULL::rec_t, '{"i":1.0}');
SELECT i FROM fastjson_populate_record(NULL::rec_t, '{"i":2147483648}');
SELECT i FROM fastjson_populate_record(NULL::rec_t, '{"i":1e400}');
-- strings unquoted, booleans as true/false: the input function decides
SELECT i, f, t, d, ts FROM fastjson_populate_record(NULL::rec_t,
	'{"i":"12","f":"t","t":"caf\u00e9 \"q\"","d":"2024-02-29","ts":"2024-01-02T03:04:05.5"}');
SELECT f, t FROM fastjson_populate_record(NULL::rec_t, '{"f":1,"t":true}');
SELECT d FROM fastjson_populate_record(NULL::rec_t, '{"d":20240101}');
SELECT i FROM fastjson_populate_record(NULL::rec_t, '{"i":"x"}');
SELECT f FROM fastjson_populate_record(NULL::rec_t, '{"f":"maybe"}');
SELECT d FROM fastjson_populate_record(NULL::rec_t, '{"d":"2023-02-29"}');
SELECT t FROM fastjson_populate_record(NULL::rec_t, '{"t":"a\u0000b"}');
-- an array or object for a scalar column: the text jsonb prints for it
SELECT t FROM fastjson_populate_record(NULL::rec_t, '{"t":{"zz":1,"a":[1.0,1e2,"x\n"],"a":{"k":null},"b":true}}');
SELECT t FROM jsonb_populate_record(NULL::rec_t, '{"t":{"zz":1,"a":[1.0,1e2,"x\n"],"a":{"k":null},"b":true}}');
SELECT i FROM fastjson_populate_record(NULL::rec_t, '{"i":[1, 2]}');
SELECT i FROM fastjson_populate_record(NULL::rec_t, '{"i":{"a":1e2}}');

-- ------------------------------------------------------ JSON columns
-- json, jsonb and fastjson columns get the member's JSON: fastjson exactly
-- as written (order, duplicates, spelling), json its canonical text
SELECT js, jb, fj FROM fastjson_populate_record(NULL::rec_t,
	'{"js":{"b":1.0,"a":1e2,"b":2},"jb":{"b":1.0,"a":1e2,"b":2},"fj":{"b":1.0,"a":1e2,"b":2}}');
SELECT js, jb, fj FROM fastjson_populate_record(NULL::rec_t, '{"js":"s\"","jb":"s\"","fj":"s\""}');
SELECT js, jb, fj FROM fastjson_populate_record(NULL::rec_t, '{"js":-0,"jb":-0,"fj":-0}');
SELECT js IS NULL AND jb IS NULL AND fj IS NULL AS json_null_is_sql_null
FROM fastjson_populate_record(NULL::rec_t, '{"js":null,"jb":null,"fj":null}');

-- --------------------------------------------------- missing keys, nulls
-- populate_record keeps the base's value for a missing key; JSON null is NULL
SELECT * FROM fastjson_populate_record(ROW(1, 2, 3, 'base', true, '2000-01-01', NULL, '[1]', '[2]', '[3]',
	'{1}', '{{1}}', ROW(9, 'nine'))::rec_t, '{"i":7,"t":null,"r":{"y":"new"}}');
-- to_record, and populate_record from a NULL base, give NULL
SELECT * FROM fastjson_populate_record(NULL::rec_t, '{"i":7}');
SELECT * FROM fastjson_to_record('{"i":7,"zz":1}') AS t(i int, t text, r rec_inner);
-- an empty object gives the base itself; a NULL document too
SELECT fastjson_populate_record(ROW(1, 'a')::rec_inner, '{}') AS empty_object,
	fastjson_populate_record(ROW(1, 'a')::rec_inner, NULL) AS null_document,
	fastjson_populate_record(NULL::rec_inner, NULL) IS NULL AS both_null,
	fastjson_populate_record(NULL::rec_inner, '{}') AS empty_from_null;
-- the last of duplicate keys, as jsonb; keys are exact (case, Unicode)
SELECT * FROM fastjson_populate_record(NULL::rec_inner, '{"x":1,"y":"a","x":2,"X":3,"y":"b"}');
SELECT * FROM fastjson_to_record('{"é":1,"e\u0301":2,"É":3}') AS t("é" int, "É" int);
-- objects of more than 8 members are searched through their key index
SELECT * FROM fastjson_to_record(
	'{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k3":33,"x":"ten"}')
	AS t(k3 int, k10 int, x text, k11 int);

-- ------------------------------------------------------------- arrays
SELECT ia, iaa FROM fastjson_populate_record(NULL::rec_t, '{"ia":[1,1e2,null,-0],"iaa":[[1,2],[3,4]]}');
SELECT ia, iaa FROM fastjson_populate_record(NULL::rec_t, '{"ia":[[[1],[2]],[[3],[4]]],"iaa":[]}');
SELECT ia, iaa FROM fastjson_populate_record(NULL::rec_t, '{"ia":"{5,6}","iaa":"{{7},{8}}"}');
SELECT ia, iaa FROM fastjson_populate_record(NULL::rec_t, '{"ia":[[],[]],"iaa":[[[]]]}');
SELECT ia FROM fastjson_populate_record(NULL::rec_t, '{"ia":[[1,2],[3]]}');
SELECT ia FROM fastjson_populate_record(NULL::rec_t, '{"ia":[[1],2]}');
SELECT ia FROM fastjson_populate_record(NULL::rec_t, '{"ia":[[[1],2]]}');
SELECT ia FROM fastjson_populate_record(NULL::rec_t, '{"ia":[1,[2]]}');
SELECT ia FROM fastjson_populate_record(NULL::rec_t, '{"ia":[1.0]}');
SELECT ia FROM fastjson_populate_record(NULL::rec_t, '{"ia":5}');
SELECT ia FROM fastjson_populate_record(NULL::rec_t, '{"ia":{"a":1}}');
SELECT ia FROM fastjson_populate_record(NULL::rec_t, '{"ia":"{1,x}"}');
-- arrays of rows and of domains; an array in an array element's row
CREATE DOMAIN rec_pos AS int CHECK (VALUE > 0);
SELECT * FROM fastjson_to_record('{"a":[{"x":1,"y":"a"},null,{"y":"b"}],"p":[1,2e0]}') AS t(a rec_inner[], p rec_pos[]);
SELECT * FROM fastjson_to_record('{"p":[1,-2]}') AS t(p rec_pos[]);
SELECT * FROM fastjson_to_record('{"a":[{"x":[1]}]}') AS t(a rec_inner[]);
CREATE TYPE rec_arrs AS (v int[]);
SELECT * FROM fastjson_to_record('{"a":[{"v":[[1],2]}]}') AS t(a rec_arrs[]);
SELECT * FROM jsonb_to_record('{"a":[{"v":[[1],2]}]}') AS t(a rec_arrs[]);
SELECT * FROM fastjson_to_record('{"a":[[{"v":[1]}],[5]]}') AS t(a rec_arrs[]);

-- ---------------------------------------------------------- composites
SELECT r FROM fastjson_populate_record(NULL::rec_t, '{"r":{"x":1e2,"y":{"a":1},"z":0}}');
SELECT r FROM fastjson_populate_record(NULL::rec_t, '{"r":"(5,five)"}');
SELECT r FROM fastjson_populate_record(NULL::rec_t, '{"r":3}');
SELECT r FROM fastjson_populate_record(NULL::rec_t, '{"r":[{"x":1}]}');
SELECT r FROM fastjson_populate_record(NULL::rec_t, '{"r":"(5"}');
-- three levels, the base's nested values kept where the object is silent
CREATE TYPE rec_outer AS (id int, inner1 rec_inner, t rec_t);
SELECT (o).id, (o).inner1, ((o).t).i, ((o).t).r FROM (SELECT fastjson_populate_record(
	ROW(1, ROW(2, 'two'), ROW(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, ROW(4, 'four')))::rec_outer,
	'{"inner1":{"x":20},"t":{"r":{"y":"FOUR"}}}') AS o) s;
-- the root must be an object
SELECT * FROM fastjson_populate_record(NULL::rec_inner, '[{"x":1}]');
SELECT * FROM fastjson_populate_record(NULL::rec_inner, '"(1,a)"');
SELECT * FROM fastjson_to_record('null') AS t(x int);

-- ------------------------------------------------------------- domains
CREATE DOMAIN rec_short AS varchar(4) CHECK (VALUE <> 'bad');
CREATE DOMAIN rec_req AS int NOT NULL;
CREATE DOMAIN rec_pair AS int[] CHECK (cardinality(VALUE) = 2);
CREATE DOMAIN rec_inner_ok AS rec_inner CHECK ((VALUE).x IS DISTINCT FROM 0);
CREATE DOMAIN rec_obj AS fastjson CHECK (fastjson_typeof(VALUE) = 'object');
CREATE TYPE rec_d AS (s rec_short, q rec_req, p rec_pair, c rec_inner_ok, o rec_obj);
SELECT * FROM fastjson_populate_record(NULL::rec_d, '{"s":"ok","q":1,"p":[1,2],"c":{"x":1},"o":{"b":1e0}}');
SELECT * FROM fastjson_populate_record(NULL::rec_d, '{"s":"bad","q":1}');
SELECT * FROM fastjson_populate_record(NULL::rec_d, '{"s":"toolong","q":1}');
SELECT * FROM fastjson_populate_record(NULL::rec_d, '{"q":null}');
SELECT * FROM fastjson_populate_record(NULL::rec_d, '{"s":"ok"}');
SELECT * FROM fastjson_populate_record(NULL::rec_d, '{"q":1,"p":[1,2,3]}');
SELECT * FROM fastjson_populate_record(NULL::rec_d, '{"q":1,"p":"{4,5}"}');
SELECT * FROM fastjson_populate_record(NULL::rec_d, '{"q":1,"c":{"x":0}}');
SELECT * FROM fastjson_populate_record(NULL::rec_d, '{"q":1,"o":[1]}');
-- a base record's values are taken as they are: the missing q is not checked
SELECT * FROM fastjson_populate_record(ROW('b', 5, '{1,1}', NULL, NULL)::rec_d, '{"s":"new"}');
-- a domain over a row type as the base type
SELECT * FROM fastjson_populate_record(NULL::rec_inner_ok, '{"x":3}');
SELECT * FROM fastjson_populate_record(NULL::rec_inner_ok, '{"x":0}');
SELECT * FROM fastjson_populate_recordset(NULL::rec_inner_ok, '[{"x":1},{"x":0}]');

-- ------------------------------------------------------ typmods, to_record
SELECT * FROM fastjson_to_record('{"v":"abcd","n":1.005,"c":"ab","ts":"2024-01-01 00:00:00.123456"}')
	AS t(v varchar(5), n numeric(5,2), c char(3), ts timestamp(1));
SELECT * FROM fastjson_to_record('{"v":"abcdef"}') AS t(v varchar(5));
SELECT * FROM fastjson_to_record('{"n":12345.6}') AS t(n numeric(5,2));
SELECT * FROM fastjson_to_record('{"a":["abc","abcdef"]}') AS t(a varchar(4)[]);
SELECT * FROM jsonb_to_record('{"a":["abc","abcdef"]}') AS t(a varchar(4)[]);
SELECT fastjson_to_record('{"a":1}');
SELECT * FROM fastjson_to_record(NULL) AS t(a int);
-- a base of type record: its own row type, or the column definition list
SELECT * FROM fastjson_populate_record(ROW(1, 'x'::text), '{"f2":"y"}') AS t(f1 int, f2 text);
SELECT * FROM fastjson_populate_record(ROW(1, 'x'), '{"f2":"y"}') AS t(f1 int, f2 text);
SELECT * FROM fastjson_populate_record(NULL::record, '{"a":1}') AS t(a int, b text);
SELECT fastjson_populate_record(NULL::record, '{"a":1}');
SELECT fastjson_populate_record(1, '{"a":1}');
SELECT fastjson_populate_record(NULL::int[], '{"a":1}');

-- ---------------------------------------------------------- recordsets
SELECT * FROM fastjson_populate_recordset(NULL::rec_inner, '[{"x":1,"y":"a"},{"x":1e1},{},{"y":null,"x":-0}]');
SELECT * FROM fastjson_populate_recordset(ROW(0, 'base')::rec_inner, '[{"x":1},{},{"y":null}]');
SELECT * FROM fastjson_to_recordset('[{"a":1,"b":[1,2]},{"b":"{3}"}]') AS t(a int, b int[]);
SELECT count(*) AS no_rows FROM fastjson_populate_recordset(NULL::rec_inner, '[]');
SELECT count(*) AS no_rows FROM fastjson_populate_recordset(NULL::rec_inner, NULL);
SELECT count(*) AS no_rows FROM fastjson_to_recordset(NULL) AS t(a int);
SELECT * FROM fastjson_populate_recordset(NULL::rec_inner, '[{"x":1},2]');
SELECT * FROM fastjson_populate_recordset(NULL::rec_inner, '[{"x":1},[{"x":2}]]');
SELECT * FROM fastjson_populate_recordset(NULL::rec_inner, '[{"x":"one"},5]');
SELECT * FROM fastjson_populate_recordset(NULL::rec_inner, '{"x":1}');
SELECT * FROM fastjson_to_recordset('3') AS t(a int);
SELECT fastjson_to_recordset('[{"a":1}]');
SELECT fastjson_populate_recordset(NULL::rec_inner, '[{"x":1},{"x":2}]') AS in_the_target_list;

-- ------------------------------------------------------ many rows, caches
-- one call site, many documents: the type information is kept across rows
CREATE TEMP TABLE rec_docs AS
SELECT g, format('{"i":%s,"t":"r%s","ia":[%s,%s],"r":{"x":%s},"n":%se-1}', g, g, g, -g, g % 7, g)::fastjson AS doc
FROM generate_series(1, 2000) g;
SELECT count(*) AS rows, sum((r).i) AS sum_i, sum(((r).r).x) AS sum_x, sum((r).n) AS sum_n,
	count(*) FILTER (WHERE (r).ia = ARRAY[g, -g]) AS arrays
FROM (SELECT g, fastjson_populate_record(NULL::rec_t, doc) AS r FROM rec_docs) s;
SELECT count(*) AS same_as_jsonb FROM rec_docs
WHERE fastjson_populate_record(NULL::rec_t, doc)::text = jsonb_populate_record(NULL::rec_t, doc::jsonb)::text;
SELECT count(*) AS rows, sum(i) AS sum_i FROM fastjson_to_recordset(
	(SELECT fastjson_agg(doc) FROM rec_docs)) AS t(i int, t text, r rec_inner);
-- dropped columns are skipped; the row type's change is seen on the next call
CREATE TYPE rec_alt AS (x int, y text);
CREATE FUNCTION pg_temp.alt(doc fastjson) RETURNS rec_alt LANGUAGE sql AS $$ SELECT fastjson_populate_record(NULL::rec_alt, doc) $$;
SELECT pg_temp.alt('{"x":1,"y":"a","z":2.50}');
ALTER TYPE rec_alt ADD ATTRIBUTE z numeric;
ALTER TYPE rec_alt DROP ATTRIBUTE y;
SELECT * FROM fastjson_populate_record(NULL::rec_alt, '{"x":1,"y":"gone","z":2.50}');
SELECT * FROM fastjson_populate_recordset(ROW(1, 2)::rec_alt, '[{"z":3},{"x":4}]');
SELECT pg_temp.alt('{"x":1,"y":"a","z":2.50}');

-- volatility and strictness are the jsonb twins'
SELECT replace(p.proname, 'fastjson', 'jsonb') AS twin, p.provolatile, p.proisstrict, p.proparallel,
	p.proretset, p.prorows, j.provolatile = p.provolatile AND j.proisstrict = p.proisstrict
		AND j.proparallel = p.proparallel AND j.proretset = p.proretset AND j.prorows = p.prorows AS same
FROM pg_proc p JOIN pg_proc j ON j.proname = replace(p.proname, 'fastjson', 'jsonb')
	AND j.pronamespace = 'pg_catalog'::regnamespace
WHERE p.proname IN ('fastjson_populate_record', 'fastjson_populate_recordset', 'fastjson_to_record', 'fastjson_to_recordset')
ORDER BY 1;
