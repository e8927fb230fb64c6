-- Equality, ordering and hashing: exactly jsonb's (doc/design.md, section 2). a = b iff
-- a::jsonb = b::jsonb; < is jsonb's btree order; equal values hash equal.
-- Each example shows the jsonb answer next to fastjson's.
CREATE TEMP TABLE pairs (a text, b text);
INSERT INTO pairs VALUES
	-- numbers by value: spelling, -0, huge and tiny, beyond int64
	('1', '1.0'), ('1', '1e0'), ('10e-1', '0.1e1'), ('-0', '0'), ('-0.0', '0e7'),
	('100', '1e2'), ('1.5', '15e-1'), ('2', '10e-1'), ('-1', '-2'), ('-1.5', '-1.25'),
	('1e400', '10e399'), ('1e400', '9223372036854775808'), ('-1e400', '-9223372036854775809'),
	('123456789012345678901234567890', '1.23456789012345678901234567890e29'),
	('123456789012345678901234567890', '123456789012345678901234567891'),
	('9223372036854775807', '9223372036854775808'), ('-9223372036854775808', '-9223372036854775809'),
	('0.00001', '1e-5'), ('1e-400', '0'), ('-1e-400', '0'),
	-- type order at the same position: null < string < number < boolean < array < object
	('[null]', '["s"]'), ('["s"]', '[1]'), ('[1]', '[false]'), ('[false]', '[true]'),
	('[true]', '[[]]'), ('[[]]', '[{}]'), ('{"a":"x"}', '{"a":1}'),
	-- scalar roots are jsonb "raw scalar" one-element arrays
	('1', '[]'), ('1', '[1]'), ('1', '[1,2]'), ('null', '[]'), ('"z"', '{}'), ('true', '[0]'),
	-- arrays: more elements is greater, then element by element
	('[9]', '[1,1]'), ('[1,2,3]', '[1,2,4]'), ('[1,[2]]', '[1,[2.0]]'),
	-- objects: more distinct keys is greater; duplicates collapse, the last wins
	('{"z":1}', '{"a":1,"b":1}'), ('{"a":1,"a":2}', '{"b":1}'), ('{"a":1,"a":2}', '{"a":2}'),
	('{"a":2,"a":1}', '{"a":2}'), ('{"a":1,"b":2}', '{"b":2,"a":1.0}'),
	-- pairs compare in key storage order (shorter keys first): "b" before "aa"
	('{"aa":1,"b":9}', '{"aa":2,"b":0}'),
	('{"b":1}', '{"aa":1}'), ('{"a":1}', '{"a":1.0,"a":1}'),
	-- strings by the database collation, as jsonb; escapes are decoded first
	('"a"', '"b"'), ('"a"', '"aa"'), ('"B"', '"a"'), ('"é"', '"\u00e9"'), ('"é"', '"f"'),
	('"日本"', '"\ud83d\ude00"'), ('""', '"a"');
SELECT a, b, a::jsonb = b::jsonb AS jsonb_eq, a::fastjson = b::fastjson AS eq,
	sign(jsonb_cmp(a::jsonb, b::jsonb)) AS jsonb_cmp, fastjson_cmp(a::fastjson, b::fastjson) AS cmp,
	fastjson_hash(a::fastjson) = fastjson_hash(b::fastjson) AS same_hash
FROM pairs;
-- every operator agrees with jsonb on these, both ways round
SELECT count(*) AS pairs,
	count(*) FILTER (WHERE (x::fastjson = y::fastjson) IS DISTINCT FROM (x::jsonb = y::jsonb)) AS eq,
	count(*) FILTER (WHERE (x::fastjson <> y::fastjson) IS DISTINCT FROM (x::jsonb <> y::jsonb)) AS ne,
	count(*) FILTER (WHERE (x::fastjson < y::fastjson) IS DISTINCT FROM (x::jsonb < y::jsonb)) AS lt,
	count(*) FILTER (WHERE (x::fastjson <= y::fastjson) IS DISTINCT FROM (x::jsonb <= y::jsonb)) AS le,
	count(*) FILTER (WHERE (x::fastjson > y::fastjson) IS DISTINCT FROM (x::jsonb > y::jsonb)) AS gt,
	count(*) FILTER (WHERE (x::fastjson >= y::fastjson) IS DISTINCT FROM (x::jsonb >= y::jsonb)) AS ge
FROM pairs, LATERAL (VALUES (a, b), (b, a), (a, a)) v(x, y);
-- numbers beyond jsonb's numeric range (jsonb cannot read these) still
-- compare exactly: exponents of any length, no rounding
SELECT a, b, fastjson_cmp(a::fastjson, b::fastjson) AS cmp,
	fastjson_hash(a::fastjson) = fastjson_hash(b::fastjson) AS same_hash
FROM (VALUES ('1e-999999', '0'), ('1e-999999', '1e-999998'), ('-1e-999999', '-0'),
			 ('0e-999999', '0'), ('1e999999', '1e400'), ('10e999999', '1e1000000'),
			 ('1e100000000000000000000000000000', '1e99999999999999999999999999999'),
			 ('1e100000000000000000000000000000', '0.1e100000000000000000000000000001'),
			 ('1e-100000000000000000000000000000', '1e-99999999999999999999999999999'),
			 ('123.456e-100000000000000000000000000000', '1.23456e-99999999999999999999999999998'),
			 ('-1e100000000000000000000000000000', '-1e400'),
			 ('1e000000000000000000000000000005', '100000'),
			 -- exponents around 10^17 and 10^18, where the exact exponent arithmetic changes method
			 ('1e100000000000000000', '10e99999999999999999'), ('1e100000000000000000', '1e99999999999999999'),
			 ('1e-1000000000000000000', '0.1e-999999999999999999'), ('1e9999999999999999999', '1e9999999999999999998'),
			 ('-1e9999999999999999999', '-0.01e10000000000000000001')) AS t(a, b);
SELECT jsonb '1e-999999';
-- strings may hold U+0000 (jsonb cannot): bytes decide, consistently with =
SELECT a, b, a::fastjson = b::fastjson AS eq, fastjson_cmp(a::fastjson, b::fastjson) AS cmp,
	fastjson_cmp(b::fastjson, a::fastjson) AS reverse_cmp,
	fastjson_hash(a::fastjson) = fastjson_hash(b::fastjson) AS same_hash
FROM (VALUES ('"a\u0000b"', '"a\u0000c"'), ('"a\u0000"', '"a"'), ('"a\u0000b"', '"a\u0000b"'),
			 ('{"k\u0000":1}', '{"k\u0000":1.0}')) AS t(a, b);
-- hash: equal documents hash equal; fastjson_hash is the low 32 bits of
-- fastjson_hash_extended with seed 0; other seeds give other hashes
SELECT fastjson_hash('{"a":[1,2.0],"b":{"c":null}}') = fastjson_hash('{"b":{"c":null},"a":[1e0,2],"a":3,"a":[10e-1,0.2e1]}') AS same,
	fastjson_hash('[1,2]') = fastjson_hash('[2,1]') AS swapped,
	fastjson_hash('1') = fastjson_hash('[1]') AS raw_vs_array,
	fastjson_hash('{}') = fastjson_hash('[]') AS empty;
SELECT v, fastjson_hash(v::fastjson) = fastjson_hash_extended(v::fastjson, 0)::bit(32)::int AS low_bits,
	fastjson_hash_extended(v::fastjson, 0) <> fastjson_hash_extended(v::fastjson, 1) AS seeded
FROM (VALUES ('null'), ('"s"'), ('-0'), ('1e400'), ('[1,{"a":2}]'), ('{"a":1,"a":2}')) AS t(v);
-- deep nesting (the default limit, 10000 levels) compares and hashes without overflowing the stack
SELECT (repeat('{"a":[', 5000) || '1' || repeat(']}', 5000))::fastjson
	 < (repeat('{"a":[', 5000) || '2' || repeat(']}', 5000))::fastjson AS deep_lt,
	fastjson_hash((repeat('[', 10000) || '1.0' || repeat(']', 10000))::fastjson)
	= fastjson_hash((repeat('[', 10000) || '1' || repeat(']', 10000))::fastjson) AS deep_hash;

-- ---------------------------------------------------------- differential
-- Random documents (sql/include/random_docs.sql), each as text, fastjson and
-- jsonb. Every operator must agree with jsonb on every ordered pair.
\i sql/include/random_docs.sql
SELECT setseed(0.1959);
CREATE TEMP TABLE docs AS SELECT * FROM fj_random_docs(150, 4);
SELECT count(*) AS docs, count(DISTINCT j) > 250 AS varied,
	count(*) FILTER (WHERE jsonb_typeof(j) = 'object') > 150 AS objects,
	count(*) FILTER (WHERE jsonb_typeof(j) = 'array') > 100 AS arrays,
	count(*) FILTER (WHERE t LIKE '%e-1%' OR t LIKE '%E+2%') > 100 AS respelled
FROM docs;
SELECT count(*) AS pairs,
	count(*) FILTER (WHERE a.j = b.j AND a.id <> b.id) > 2000 AS many_equal,
	count(*) FILTER (WHERE a.j = b.j AND a.t <> b.t AND jsonb_typeof(a.j) = 'object') > 100 AS equal_objects_spelled_apart,
	count(*) FILTER (WHERE (a.f = b.f) IS DISTINCT FROM (a.j = b.j)) AS eq,
	count(*) FILTER (WHERE (a.f <> b.f) IS DISTINCT FROM (a.j <> b.j)) AS ne,
	count(*) FILTER (WHERE (a.f < b.f) IS DISTINCT FROM (a.j < b.j)) AS lt,
	count(*) FILTER (WHERE (a.f <= b.f) IS DISTINCT FROM (a.j <= b.j)) AS le,
	count(*) FILTER (WHERE (a.f > b.f) IS DISTINCT FROM (a.j > b.j)) AS gt,
	count(*) FILTER (WHERE (a.f >= b.f) IS DISTINCT FROM (a.j >= b.j)) AS ge,
	count(*) FILTER (WHERE sign(fastjson_cmp(a.f, b.f)) IS DISTINCT FROM sign(jsonb_cmp(a.j, b.j))) AS cmp,
	count(*) FILTER (WHERE a.f = b.f AND fastjson_hash(a.f) <> fastjson_hash(b.f)) AS hash,
	count(*) FILTER (WHERE a.f = b.f AND fastjson_hash_extended(a.f, 42) <> fastjson_hash_extended(b.f, 42)) AS hash_extended
FROM docs a, docs b;

-- A larger set for sorting, grouping and joins
SELECT setseed(0.2718);
CREATE TEMP TABLE many AS SELECT * FROM fj_random_docs(700, 3);
ANALYZE many;
SELECT count(*) AS docs FROM many;
-- ORDER BY gives jsonb's order: the n-th value sorted by fastjson equals
-- (as jsonb) the n-th sorted by jsonb, so ties may come in any order
SELECT count(*) AS sorted, count(*) FILTER (WHERE x.j <> y.j) AS out_of_place
FROM (SELECT j, row_number() OVER (ORDER BY f) AS n FROM many) x
JOIN (SELECT j, row_number() OVER (ORDER BY j) AS n FROM many) y USING (n);
SELECT count(*) FILTER (WHERE x.j <> y.j) AS out_of_place_desc
FROM (SELECT j, row_number() OVER (ORDER BY f DESC) AS n FROM many) x
JOIN (SELECT j, row_number() OVER (ORDER BY j DESC) AS n FROM many) y USING (n);
-- GROUP BY and DISTINCT, hashed and sorted, make the same groups as jsonb
CREATE TEMP TABLE jgroups AS SELECT array_agg(id ORDER BY id) AS ids FROM many GROUP BY j;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT f, count(*) FROM many GROUP BY f;
CREATE TEMP TABLE hgroups AS SELECT array_agg(id ORDER BY id) AS ids FROM many GROUP BY f;
RESET enable_sort;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT f, count(*) FROM many GROUP BY f;
CREATE TEMP TABLE sgroups AS SELECT array_agg(id ORDER BY id) AS ids FROM many GROUP BY f;
RESET enable_hashagg;
SELECT (SELECT count(*) FROM jgroups) AS groups,
	(SELECT count(*) FROM jgroups) < (SELECT count(*) FROM many) / 2 AS merged,
	(SELECT count(*) FROM (SELECT ids FROM hgroups EXCEPT SELECT ids FROM jgroups UNION ALL
						   SELECT ids FROM jgroups EXCEPT SELECT ids FROM hgroups) d) AS hashed_differ,
	(SELECT count(*) FROM (SELECT ids FROM sgroups EXCEPT SELECT ids FROM jgroups UNION ALL
						   SELECT ids FROM jgroups EXCEPT SELECT ids FROM sgroups) d) AS sorted_differ,
	(SELECT count(DISTINCT f) FROM many) = (SELECT count(DISTINCT j) FROM many) AS distinct_count,
	(SELECT count(*) FROM (SELECT DISTINCT f FROM many) d) = (SELECT count(*) FROM jgroups) AS distinct_rows;
-- hash join and merge join on = find the same pairs as jsonb
SELECT count(*) AS jsonb_join FROM many a JOIN many b ON a.j = b.j;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM many a JOIN many b ON a.f = b.f;
SELECT count(*) AS hash_join FROM many a JOIN many b ON a.f = b.f;
RESET enable_mergejoin;
SET enable_hashjoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM many a JOIN many b ON a.f = b.f;
SELECT count(*) AS merge_join FROM many a JOIN many b ON a.f = b.f;
RESET enable_hashjoin;
RESET enable_nestloop;
SELECT count(*) AS join_differ FROM
	((SELECT a.id, b.id FROM many a JOIN many b ON a.f = b.f
	  EXCEPT SELECT a.id, b.id FROM many a JOIN many b ON a.j = b.j)
	 UNION ALL
	 (SELECT a.id, b.id FROM many a JOIN many b ON a.j = b.j
	  EXCEPT SELECT a.id, b.id FROM many a JOIN many b ON a.f = b.f)) d;
-- btree and hash indexes: lookups and ranges as jsonb answers them
CREATE INDEX many_f ON many (f);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM many WHERE f = '{"a":1}';
EXPLAIN (COSTS OFF) SELECT count(*) FROM many WHERE f < '{"a":1}';
SELECT count(*) AS probes,
	count(*) FILTER (WHERE (SELECT count(*) FROM many m WHERE m.f = p.f)
					 <> (SELECT count(*) FROM many m WHERE m.j = p.j)) AS eq_differ,
	count(*) FILTER (WHERE (SELECT count(*) FROM many m WHERE m.f < p.f)
					 <> (SELECT count(*) FROM many m WHERE m.j < p.j)) AS lt_differ,
	count(*) FILTER (WHERE (SELECT count(*) FROM many m WHERE m.f >= p.f)
					 <> (SELECT count(*) FROM many m WHERE m.j >= p.j)) AS ge_differ
FROM (SELECT * FROM many WHERE id % 50 = 0) p;
DROP INDEX many_f;
CREATE INDEX many_f_hash ON many USING hash (f);
EXPLAIN (COSTS OFF) SELECT count(*) FROM many WHERE f = '{"a":1}';
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM many m WHERE m.f = p.f)
						<> (SELECT count(*) FROM many m WHERE m.j = p.j)) AS hash_index_differ
FROM (SELECT * FROM many WHERE id % 50 = 0) p;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- UNIQUE rejects a document equal to one already there, however it is spelled
CREATE TEMP TABLE uniq (doc fastjson UNIQUE);
INSERT INTO uniq VALUES ('{"a":1,"b":[1.0,"x"]}'), ('{"a":1,"b":[1.0,"y"]}');
INSERT INTO uniq VALUES ('{"b":[1,"x"],"a":10e-1}');
INSERT INTO uniq VALUES ('{"a":0,"b":[1,"x"],"a":1}');
SELECT doc FROM uniq ORDER BY doc;

-- the operators, their selectivity estimators and the operator classes match jsonb's
SELECT f.oprname, f.oprrest = j.oprrest AND f.oprjoin = j.oprjoin AS same_estimators,
	f.oprcanmerge = j.oprcanmerge AND f.oprcanhash = j.oprcanhash AS same_merge_hash,
	(SELECT oprname FROM pg_operator WHERE oid = f.oprcom) AS commutator,
	(SELECT oprname FROM pg_operator WHERE oid = f.oprnegate) AS negator
FROM pg_operator f JOIN pg_operator j ON j.oprname = f.oprname
	AND j.oprleft = 'jsonb'::regtype AND j.oprright = 'jsonb'::regtype
WHERE f.oprleft = 'fastjson'::regtype AND f.oprright = 'fastjson'::regtype
	AND f.oprname IN ('=', '<>', '<', '<=', '>', '>=')
ORDER BY 1;
SELECT am.amname, opc.opcname, opc.opcdefault FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE opc.opcintype = 'fastjson'::regtype AND am.amname IN ('btree', 'hash') ORDER BY 1;
SELECT p.proname, p.provolatile, p.proparallel, p.proisstrict FROM pg_proc p
WHERE p.proname IN ('fastjson_cmp', 'fastjson_eq', 'fastjson_ne', 'fastjson_lt', 'fastjson_le',
					'fastjson_gt', 'fastjson_ge', 'fastjson_hash', 'fastjson_hash_extended')
ORDER BY 1;
