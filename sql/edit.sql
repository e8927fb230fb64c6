-- Editing: || - #- fastjson_set fastjson_insert and subscripts, each with
-- jsonb's answers. Untouched members keep their order and spelling.
SELECT '{"a":1,"b":2}'::fastjson || '{"b":3,"c":4}' AS merged, '[1]'::fastjson || '2' AS appended,
	'1'::fastjson || '{"a":1}' AS scalar_object, '{"a":1}'::fastjson || '[2]' AS object_array,
	'[1.0, 1e2]'::fastjson || '["x"]' AS spelling_kept;
SELECT '{"a":1,"b":2,"a":3}'::fastjson - 'a' AS all_duplicates_go, '["a","b",1,"a"]'::fastjson - 'a' AS strings_go,
	'{"a":1,"b":2,"c":3}'::fastjson - '{a,c}'::text[] AS two_keys, '[1,2,3]'::fastjson - 1 AS idx, '[1,2,3]'::fastjson - -1 AS from_end,
	'[1,2,3]'::fastjson - 5 AS out_of_range;
SELECT '"s"'::fastjson - 'a';
SELECT '{"a":1}'::fastjson - 0;
SELECT '{"a":{"b":[1,2,3]}}'::fastjson #- '{a,b,1}' AS deleted, '{"a":1}'::fastjson #- '{a,b}' AS no_path, '{"a":1}'::fastjson #- '{}' AS empty_path;
SELECT '[1,2]'::fastjson #- '{a}';
SELECT '{"a":1}'::fastjson #- '{NULL}';
SELECT '3'::fastjson #- '{a}';
SELECT fastjson_set('[1,2]', '{5}', '9') AS past_end, fastjson_set('[1,2]', '{-5}', '9') AS before_start,
	fastjson_set('{"a":{}}', '{a,b,c}', '9') AS missing_parent, fastjson_set('{"a":1,"b":2,"a":5}', '{a}', '"x"') AS last_wins,
	fastjson_set('{"a":1}', '{b}', '2', false) AS no_create;
SELECT fastjson_set('1', '{a}', '2');
-- -2147483648, whose negation overflows an int, is before the start like any other
SELECT fastjson_set('[1,2,3]', '{-2147483648}', '9') AS set_min,
	fastjson_insert('[1,2,3]', '{-2147483648}', '9', true) AS insert_min,
	fastjson_set('{"b":[1,2]}', '{b,-2147483648}', '9') AS nested_min,
	'[1,2,3]'::fastjson - (-2147483648) AS delete_min,
	fastjson_set('{"b":[1,2]}', '{b,-2147483648}', '9')::jsonb = jsonb_set('{"b":[1,2]}', '{b,-2147483648}', '9') AS same_as_jsonb;
SELECT fastjson_insert('[1,2]', '{0}', '9') AS before, fastjson_insert('[1,2]', '{0}', '9', true) AS after,
	fastjson_insert('{"a":1}', '{b}', '9') AS new_key;
SELECT fastjson_insert('{"a":1}', '{a}', '9');
-- a path of more than one dimension is jsonb's error (2202E), checked first
SELECT fastjson_set('{"a":1}', '{{a},{b}}', '2');
SELECT fastjson_insert('{"a":1}', '{{a},{b}}', '2');
SELECT '{"a":1}'::fastjson #- '{{a},{b}}';
SELECT fastjson_set('1', '{{a}}', '2');
SELECT jsonb_set('1', '{{a}}', '2');
-- subscripts: reading is like #>, assignment like jsonb (missing paths are created, gaps filled with null)
SELECT ('{"a":[1,{"b":2}]}'::fastjson)['a'][1]['b'] AS b, ('[1,2]'::fastjson)['1'] AS text_index,
	('[1,2]'::fastjson)[-1] AS negative, ('[1,2]'::fastjson)['x'] IS NULL AS not_an_index, ('1'::fastjson)[0] IS NULL AS scalar;
CREATE TEMP TABLE t (id int, d fastjson, j jsonb);
INSERT INTO t VALUES (1, '{"a":1}', '{"a":1}'), (2, NULL, NULL), (3, '[1]', '[1]'), (4, '{"a":[]}', '{"a":[]}');
UPDATE t SET d['x']['y'] = '1', j['x']['y'] = '1' WHERE id = 1;
UPDATE t SET d[0]['q'] = 'true', j[0]['q'] = 'true' WHERE id = 2;
UPDATE t SET d[3] = '"z"', j[3] = '"z"' WHERE id = 3;
UPDATE t SET d['a'][2]['k'] = 'null', j['a'][2]['k'] = 'null' WHERE id = 4;
SELECT id, d, d::jsonb = j AS same_as_jsonb FROM t ORDER BY id;
UPDATE t SET d['a'] = '2' WHERE id = 3;
UPDATE t SET d[-5] = '2' WHERE id = 3;
UPDATE t SET d[-2147483648] = '2' WHERE id = 3;
UPDATE t SET d['a']['b'] = '2' WHERE id = 1;
UPDATE t SET d[NULL] = '2' WHERE id = 1;

-- Differential: every editing operation against jsonb's over generated
-- documents (random nesting, duplicate keys, numbers in many spellings,
-- unicode), compared as jsonb; errors must match too (SQLSTATE and message,
-- with "jsonb" read as "fastjson").
SELECT setseed(0.42);
CREATE FUNCTION gen_doc(depth int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r float8 := random();
	n int;
	parts text[] := '{}';
	nums text[] := ARRAY['0', '1', '-1', '1.0', '1e2', '-0', '2.50', '123456789012345678901234567890', '0.001', '7'];
	strs text[] := ARRAY['"a"', '"b"', '"x y"', '"\u00e9"', '"日本"', '""', '"\"q\""', '"k1"'];
	keys text[] := ARRAY['a', 'b', 'c', 'k1', 'k2', 'é', 'x'];
BEGIN
	IF depth > 3 OR (depth > 0 AND r < 0.35) OR r < 0.05 THEN
		r := random();
		IF r < 0.4 THEN RETURN nums[1 + floor(random() * 10)::int]; END IF;
		IF r < 0.8 THEN RETURN strs[1 + floor(random() * 8)::int]; END IF;
		RETURN (ARRAY['true', 'false', 'null'])[1 + floor(random() * 3)::int];
	END IF;
	n := floor(random() * 5)::int;
	IF r < 0.65 THEN
		FOR i IN 1 .. n LOOP
			parts := parts || gen_doc(depth + 1);
		END LOOP;
		RETURN '[' || array_to_string(parts, ',') || ']';
	END IF;
	FOR i IN 1 .. n LOOP
		parts := parts || ('"' || keys[1 + floor(random() * 7)::int] || '":' || gen_doc(depth + 1));
	END LOOP;
	RETURN '{' || array_to_string(parts, ',') || '}';
END
$$;
CREATE TEMP TABLE docs AS SELECT g AS id, gen_doc(0) AS txt FROM generate_series(1, 2000) g;
CREATE TEMP TABLE paths AS
SELECT id, (ARRAY['{a}', '{b,0}', '{0}', '{-1}', '{1,a}', '{a,-1,b}', '{k1}', '{x,y,z}', '{5}', '{é}', '{0,0}', '{-7}'])[1 + (id % 12)]::text[] AS path,
	(ARRAY['a', 'b', 'k1', 'é', 'zz'])[1 + (id % 5)] AS key, (id % 7) - 3 AS idx
FROM docs;
-- run an expression on both types; the result as jsonb text, or the error
CREATE FUNCTION try_both(fj text, jb text, OUT f text, OUT j text) LANGUAGE plpgsql AS $$
BEGIN
	BEGIN
		EXECUTE 'SELECT (' || fj || ')::jsonb::text' INTO f;
	EXCEPTION WHEN OTHERS THEN
		f := 'ERROR ' || SQLSTATE || ' ' || replace(SQLERRM, 'fastjson', 'jsonb');
	END;
	BEGIN
		EXECUTE 'SELECT (' || jb || ')::text' INTO j;
	EXCEPTION WHEN OTHERS THEN
		j := 'ERROR ' || SQLSTATE || ' ' || SQLERRM;
	END;
END
$$;
CREATE TEMP TABLE diff AS
SELECT d.id, op, r.f, r.j
FROM docs d JOIN paths p USING (id), docs d2,
	LATERAL (VALUES
		('||', format('%L::fastjson || %L::fastjson', d.txt, d2.txt), format('%L::jsonb || %L::jsonb', d.txt, d2.txt)),
		('- text', format('%L::fastjson - %L::text', d.txt, p.key), format('%L::jsonb - %L::text', d.txt, p.key)),
		('- text[]', format('%L::fastjson - %L::text[]', d.txt, ARRAY[p.key, 'b']), format('%L::jsonb - %L::text[]', d.txt, ARRAY[p.key, 'b'])),
		('- int', format('%L::fastjson - %s', d.txt, p.idx), format('%L::jsonb - %s', d.txt, p.idx)),
		('#-', format('%L::fastjson #- %L', d.txt, p.path), format('%L::jsonb #- %L', d.txt, p.path)),
		('set', format('fastjson_set(%L, %L, %L)', d.txt, p.path, d2.txt), format('jsonb_set(%L, %L, %L)', d.txt, p.path, d2.txt)),
		('set no create', format('fastjson_set(%L, %L, %L, false)', d.txt, p.path, d2.txt), format('jsonb_set(%L, %L, %L, false)', d.txt, p.path, d2.txt)),
		('insert', format('fastjson_insert(%L, %L, %L)', d.txt, p.path, d2.txt), format('jsonb_insert(%L, %L, %L)', d.txt, p.path, d2.txt)),
		('insert after', format('fastjson_insert(%L, %L, %L, true)', d.txt, p.path, d2.txt), format('jsonb_insert(%L, %L, %L, true)', d.txt, p.path, d2.txt)),
		('subscript', format('(%L::fastjson)%s', d.txt, (SELECT string_agg(format('[%L]', e), '') FROM unnest(p.path) e)),
					  format('(%L::jsonb)%s', d.txt, (SELECT string_agg(format('[%L]', e), '') FROM unnest(p.path) e)))
	) AS v(op, fexpr, jexpr),
	LATERAL try_both(v.fexpr, v.jexpr) AS r
WHERE d2.id = 2001 - d.id;
SELECT op, count(*) AS cases, count(*) FILTER (WHERE f LIKE 'ERROR%') AS errors,
	count(*) FILTER (WHERE f IS DISTINCT FROM j) AS differences
FROM diff GROUP BY op ORDER BY op;
SELECT * FROM diff WHERE f IS DISTINCT FROM j LIMIT 10;
-- subscript assignment, row by row, against jsonb's
CREATE TEMP TABLE assign AS
SELECT d.id, d.txt::fastjson AS f, d.txt::jsonb AS j, p.path FROM docs d JOIN paths p USING (id) WHERE d.id <= 600;
CREATE FUNCTION assign_all() RETURNS TABLE (cases int, same int, both_failed int) LANGUAGE plpgsql AS $$
DECLARE
	r record;
	ef text;
	ej text;
	sub text;
BEGIN
	cases := 0; same := 0; both_failed := 0;
	FOR r IN SELECT * FROM assign ORDER BY id LOOP
		sub := (SELECT string_agg(format('[%L]', e), '') FROM unnest(r.path) e);
		ef := NULL; ej := NULL;
		BEGIN
			EXECUTE format('UPDATE assign SET f%s = %L WHERE id = %s', sub, '{"new":1.50}', r.id);
		EXCEPTION WHEN OTHERS THEN ef := SQLSTATE || replace(SQLERRM, 'fastjson', 'jsonb');
		END;
		BEGIN
			EXECUTE format('UPDATE assign SET j%s = %L WHERE id = %s', sub, '{"new":1.50}', r.id);
		EXCEPTION WHEN OTHERS THEN ej := SQLSTATE || SQLERRM;
		END;
		cases := cases + 1;
		IF ef IS NOT DISTINCT FROM ej AND (SELECT f::jsonb = j FROM assign WHERE id = r.id) THEN
			same := same + 1;
			IF ef IS NOT NULL THEN both_failed := both_failed + 1; END IF;
		ELSE
			RAISE NOTICE 'differs: % % % / %', r.id, sub, ef, ej;
		END IF;
	END LOOP;
	RETURN NEXT;
END
$$;
SELECT * FROM assign_all();
