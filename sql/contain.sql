-- Containment (@>, <@) and existence (?, ?|, ?&): exactly jsonb's. Both
-- look at the document with duplicate keys removed (the last one wins);
-- numbers compare by value. Each example shows jsonb's answer next to fastjson's.
CREATE TEMP TABLE pairs (a text, b text);
INSERT INTO pairs VALUES
	-- objects: every pair of the right side, with an equal value (same type)
	('{"a":1,"b":2}', '{"a":1}'), ('{"a":1}', '{"a":1,"b":2}'), ('{"a":1}', '{"a":1.0}'),
	('{"a":-0}', '{"a":0e9}'), ('{"a":"1"}', '{"a":1}'), ('{"a":null}', '{"a":null}'),
	('{"a":true}', '{"a":false}'), ('{"a":1}', '{"b":1}'), ('{}', '{}'), ('{"a":1}', '{}'),
	-- duplicate keys: only the last one counts, on either side
	('{"a":1,"a":2}', '{"a":1}'), ('{"a":1,"a":2}', '{"a":2}'), ('{"a":2}', '{"a":1,"a":2}'),
	('{"a":1,"b":2}', '{"a":3,"b":2,"a":1}'),
	-- ... below a root whose own keys all differ too
	('{"x":{"a":1,"a":2},"y":0}', '{"x":{"a":1}}'), ('{"x":{"a":1,"a":2},"y":0}', '{"x":{"a":2}}'),
	-- nested values: same container type, contained recursively
	('{"a":{"b":1,"c":2}}', '{"a":{"b":1}}'), ('{"a":{"b":1}}', '{"a":{"b":1,"c":2}}'),
	('{"a":[1,2,3]}', '{"a":[3,1]}'), ('{"a":[1,2]}', '{"a":{}}'), ('{"a":{}}', '{"a":[]}'),
	('{"a":{"b":{"c":[1,{"d":2}]}}}', '{"a":{"b":{"c":[{}]}}}'), ('{"a":{"b":1}}', '{"b":1}'),
	-- arrays: each scalar equals some scalar, each container is in some container
	('[1,2,3]', '[3,3,1]'), ('[1,2,3]', '[1,4]'), ('[1,[2,3]]', '[[3]]'), ('[1,[2,3]]', '[3]'),
	('[[1,2],[3]]', '[[1,3]]'), ('[[1,2],[3]]', '[[1],[3]]'), ('[{"a":1},{"b":2}]', '[{"a":1,"b":2}]'),
	('[{"a":1,"b":2}]', '[{"a":1},{"b":2}]'), ('[1,2]', '[]'), ('[]', '[]'), ('[[]]', '[[]]'),
	('[1]', '[[]]'), ('[[]]', '[{}]'), ('[1.0e0]', '[1]'), ('["a"]', '["A"]'), ('["é"]', '["\u00e9"]'),
	('[1,"1"]', '["1"]'), ('[null,false]', '[false,null,null]'),
	-- roots: a scalar is a raw scalar array; objects only go with objects
	('1', '1'), ('1', '1.0'), ('1', '2'), ('"a"', '"a"'), ('null', 'null'), ('[1,2]', '1'),
	('1', '[1]'), ('[[1]]', '1'), ('[]', '1'), ('{"a":1}', '1'), ('1', '{}'), ('{}', '[]'),
	('[]', '{}'), ('[{}]', '{}'), ('[1e400]', '10e399'), ('"a"', '["a"]');
SELECT a, b, a::jsonb @> b::jsonb AS jsonb_contains, a::fastjson @> b::fastjson AS contains,
	a::jsonb <@ b::jsonb AS jsonb_contained, a::fastjson <@ b::fastjson AS contained
FROM pairs;

-- existence: top-level object keys, top-level string elements, a string root
CREATE TEMP TABLE keyed (d text, k text);
INSERT INTO keyed VALUES
	('{"a":1,"b":2}', 'a'), ('{"a":1,"b":2}', 'c'), ('{"a":{"b":1}}', 'b'), ('{"a":1,"a":2}', 'a'),
	('["a","b"]', 'a'), ('[["a"]]', 'a'), ('[{"a":1}]', 'a'), ('[1]', '1'), ('["1"]', '1'),
	('"a"', 'a'), ('"a"', 'b'), ('1', '1'), ('null', 'null'), ('true', 'true'), ('{"":1}', ''),
	('[""]', ''), ('{}', ''), ('[]', ''), ('{"é":1}', 'é'), ('{"\u00e9":1}', 'é'), ('["A"]', 'a'),
	('{"a b":null}', 'a b');
SELECT d, k, d::jsonb ? k AS jsonb_exists, d::fastjson ? k AS exists FROM keyed;
SELECT d, ks, d::jsonb ?| ks AS jsonb_any, d::fastjson ?| ks AS any,
	d::jsonb ?& ks AS jsonb_all, d::fastjson ?& ks AS all
FROM (VALUES ('{"a":1,"b":2}', '{a,c}'::text[]), ('{"a":1,"b":2}', '{a,b}'), ('{"a":1,"b":2}', '{}'),
			 ('{"a":1,"b":2}', '{a,NULL}'), ('{"a":1,"b":2}', '{NULL}'), ('{"a":1,"b":2}', '{{a,b},{b,a}}'),
			 ('{"a":1,"b":2}', '{{a,c},{d,e}}'), ('["a","b"]', '{b,a}'), ('"a"', '{a}'), ('"a"', '{a,b}'),
			 ('[1,2]', '{1,2}'), ('{}', '{}'), ('[]', '{}')) AS t(d, ks);
-- NULL arguments: the operators are strict
SELECT '{"a":1}'::fastjson @> NULL AS contains_null, '{"a":1}'::fastjson ? NULL AS exists_null,
	'{"a":1}'::fastjson ?| NULL AS any_null;

-- wide objects (more than 8 members carry a key index) and large arrays
CREATE TEMP TABLE wide AS
SELECT ('{' || string_agg(format('"key%s":%s', g, g), ',') || '}')::fastjson AS doc,
	('{' || string_agg(format('"key%s":%se0', g, g), ',') FILTER (WHERE g % 3 = 0) || '}')::fastjson AS part,
	('{"key3":0,' || string_agg(format('"key%s":%s.0', g, g), ',') FILTER (WHERE g % 3 = 0) || '}')::fastjson AS part_dup,
	('{' || string_agg(format('"key%s":%s', g, g + 1), ',') FILTER (WHERE g % 3 = 0) || '}')::fastjson AS wrong
FROM generate_series(1, 60) g;
SELECT doc @> part AS part, doc @> part_dup AS part_with_duplicate, doc @> wrong AS wrong_values,
	part <@ doc AS contained, doc @> doc AS itself, part @> doc AS reverse,
	doc ? 'key60' AS key60, doc ? 'key61' AS key61, doc ?& '{key1,key30,key60}' AS all3
FROM wide;
SELECT big @> '[9999,0,5000.0]' AS ends, big @> '[10000]' AS missing, big @> '5000' AS raw_scalar,
	big ? '5000' AS numbers_are_not_keys
FROM (SELECT ('[' || string_agg(g::text, ',') || ']')::fastjson AS big FROM generate_series(0, 9999) g) s;
-- deep nesting (the default limit, 10000 levels) without overflowing the stack
SELECT (repeat('{"a":', 10000) || '1' || repeat('}', 10000))::fastjson
	@> (repeat('{"a":', 10000) || '1.0' || repeat('}', 10000))::fastjson AS deep_objects,
	(repeat('[', 10000) || '1' || repeat(']', 10000))::fastjson
	@> (repeat('[', 10000) || '1.0' || repeat(']', 10000))::fastjson AS deep_arrays,
	(repeat('[', 10000) || '1' || repeat(']', 10000))::fastjson
	@> (repeat('[', 10000) || '2' || repeat(']', 10000))::fastjson AS deep_arrays_differ;

-- ---------------------------------------------------------- differential
-- Random documents (sql/include/random_docs.sql): bases, their respellings
-- and their parts, which they contain. Every pair must agree with jsonb.
\i sql/include/random_docs.sql
SELECT setseed(0.5772);
CREATE TEMP TABLE docs AS SELECT * FROM fj_random_docs(150, 4);
SELECT count(*) AS pairs,
	count(*) FILTER (WHERE a.j @> b.j AND a.j <> b.j AND jsonb_typeof(b.j) = 'object' AND b.j <> '{}') > 100 AS objects_contain_parts,
	count(*) FILTER (WHERE a.j @> b.j AND a.j <> b.j AND jsonb_typeof(b.j) = 'array' AND b.j <> '[]') > 300 AS arrays_contain_parts,
	count(*) FILTER (WHERE (a.f @> b.f) IS DISTINCT FROM (a.j @> b.j)) AS contains,
	count(*) FILTER (WHERE (a.f <@ b.f) IS DISTINCT FROM (a.j <@ b.j)) AS contained
FROM docs a, docs b;
-- existence for keys that occur at the top level, deeper, and nowhere
SELECT count(*) AS probes, count(*) FILTER (WHERE j ? k) > 100 AS found_some,
	count(*) FILTER (WHERE (f ? k) IS DISTINCT FROM (j ? k)) AS exists
FROM docs, unnest(ARRAY['a', 'b', 'c', 'aa', 'A', 'é', '', '1', 'ab', 'ba', 'zz', 'bb', 'k1', 'k7',
						'null', 'true', 'z', 'a b', '日本', E'\t', 'missing']) AS k;
SELECT count(*) AS probes, count(*) FILTER (WHERE j ?| ks) > 100 AS any_some,
	count(*) FILTER (WHERE j ?& ks) > 20 AS all_some,
	count(*) FILTER (WHERE (f ?| ks) IS DISTINCT FROM (j ?| ks)) AS exists_any,
	count(*) FILTER (WHERE (f ?& ks) IS DISTINCT FROM (j ?& ks)) AS exists_all
FROM docs, (VALUES ('{a,b}'::text[]), ('{a,NULL}'), ('{}'), ('{NULL}'), ('{é,"",1}'), ('{k1,k2,k3}'),
					('{zz,bb,ab,ba}'), ('{z,"a b",aa}'), ('{missing}'), ('{{a,b},{c,aa}}')) AS t(ks);

-- the operators and their selectivity estimators match jsonb's
SELECT f.oprname, f.oprright::regtype, f.oprrest = j.oprrest AND f.oprjoin = j.oprjoin AS same_estimators,
	f.oprrest, (SELECT oprname FROM pg_operator WHERE oid = f.oprcom) AS commutator
FROM pg_operator f JOIN pg_operator j ON j.oprname = f.oprname AND j.oprleft = 'jsonb'::regtype
	AND j.oprright = CASE WHEN f.oprright = 'fastjson'::regtype THEN 'jsonb'::regtype ELSE f.oprright END
WHERE f.oprleft = 'fastjson'::regtype AND f.oprname IN ('@>', '<@', '?', '?|', '?&')
ORDER BY 1;
SELECT p.proname, p.provolatile, p.proparallel, p.proisstrict FROM pg_proc p
WHERE p.proname IN ('fastjson_contains', 'fastjson_contained', 'fastjson_exists',
					'fastjson_exists_any', 'fastjson_exists_all')
ORDER BY 1;
