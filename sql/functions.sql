-- Processing functions, twins of jsonb's: fastjson_object_keys, fastjson_each,
-- fastjson_each_text, fastjson_array_elements(_text), fastjson_extract_path(_text),
-- fastjson_strip_nulls, fastjson_pretty. Enumerations give each distinct key
-- once with its operative (last) value, in the document order of those last
-- occurrences; text results are those of ->> (strings unescaped, numbers as
-- written, JSON null as SQL NULL).

-- object enumerations: "a" comes where its last occurrence is
SELECT * FROM fastjson_object_keys('{"a":1,"b":[1,2],"a":"x\"y","c":null,"":{}}');
SELECT * FROM fastjson_each('{"a":1,"b":[1, 2],"a":"x\"y","c":null,"n":1.50}');
SELECT key, value, value IS NULL AS is_null FROM fastjson_each_text('{"a":1,"b":[1, 2],"a":"x\"y","c":null,"n":1.50,"e":"\u00e9"}');
SELECT count(*) FROM fastjson_each('{}');
-- a large object (key index; enumeration sorts to find the last of each key)
SELECT string_agg(key || '=' || value, ' ') FROM fastjson_each_text(
	'{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k2":"two","k1":"one"}');
-- wrong shapes: jsonb's errors with the fastjson function's name
SELECT fastjson_object_keys('[1]');
SELECT fastjson_object_keys('1');
SELECT fastjson_each('[]');
SELECT fastjson_each_text('"s"');
SELECT fastjson_array_elements('{"a":1}');
SELECT fastjson_array_elements_text('null');

-- arrays in order; text results as ->> gives them
SELECT * FROM fastjson_array_elements('[1,"a",null,{"x":1,"x":2},[],1e2,-0]') WITH ORDINALITY;
SELECT value, value IS NULL AS is_null FROM fastjson_array_elements_text('[1,"a\nb",null,{"x":1},[],1e2,-0,true]');
SELECT count(*) FROM fastjson_array_elements('[]');
-- U+0000 is stored, but is no text (json's error)
SELECT * FROM fastjson_array_elements('["\u0000"]');
SELECT * FROM fastjson_array_elements_text('["\u0000"]');
SELECT * FROM fastjson_each_text('{"a":"\u0000"}');

-- extract_path: #> and #>> by another name
SELECT fastjson_extract_path('{"a":{"b":[1,{"c":2}]},"a":{"b":[3,{"c":"x"}]}}', 'a', 'b', '1'),
	fastjson_extract_path_text('{"a":{"b":[1,{"c":2}]},"a":{"b":[3,{"c":"x"}]}}', 'a', 'b', '1', 'c'),
	fastjson_extract_path_text('{"a":{"b":[1,{"c":2}]}}', 'a', 'b', '-2'),
	fastjson_extract_path('{"a":1}', 'a', 'b') IS NULL AS too_deep,
	fastjson_extract_path_text('{"a":null}', 'a') IS NULL AS json_null,
	fastjson_extract_path('{"a":1}', VARIADIC '{}') AS empty_path,
	fastjson_extract_path('{"a":1}', VARIADIC ARRAY['a']) AS variadic_array;

-- strip_nulls: object members whose value is null go, at any depth; array
-- elements stay. A key whose last (operative) value is null goes entirely, as
-- jsonb (which keeps only the last) would have it.
SELECT fastjson_strip_nulls('[null,{"a":null,"b":{"c":null,"d":[null,{"e":null}]}},1]');
SELECT fastjson_strip_nulls('{"a":1,"a":null,"b":null,"b":2,"c":3,"c":3.0}');
SELECT fastjson_strip_nulls('null'), fastjson_strip_nulls('{}'), fastjson_strip_nulls('{"a":null}');

-- pretty: jsonb_pretty's layout, keys in document order, numbers as written
SELECT fastjson_pretty('{"a":{},"b":[]}');
SELECT fastjson_pretty('{"b":[1,{"c":"x\ty"},[]],"a":1.50,"a":null,"e":{"f":{"g":[true]}}}');
SELECT fastjson_pretty('[]'), fastjson_pretty('{}'), fastjson_pretty('"s\"s"'), fastjson_pretty('1e2');
SELECT fastjson_pretty('[[],{},[1,[2,{}]],{"a":{"b":[]}}]') = jsonb_pretty('[[],{},[1,[2,{}]],{"a":{"b":[]}}]') AS same_as_jsonb;

-- differential against jsonb over generated documents (random nesting,
-- duplicate keys, number spellings, escapes, unicode, large objects)
-- random documents: nesting, duplicate keys, number spellings, escapes, unicode
CREATE FUNCTION pg_temp.gen_json(depth int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	scalars text[] := ARRAY['0', '1', '-1', '1.0', '1e2', '1E+2', '-0', '-0.0', '0.1000',
		'123456789012345678901234567890', '-9223372036854775808', '9223372036854775808',
		'1.5e-3', '2.5', '-7', '3.14159', 'true', 'false', 'null', '""', '"a"', '"é"',
		'"\u00e9"', '"x\ny"', '"q\"q"', '"back\\slash"', '"\/"', '"😀"', '"\ud83d\ude00"',
		'"tab\there"', '"\u001f"', '[]', '{}'];
	keys text[] := ARRAY['a', 'b', 'c', 'a', 'dd', 'é', '', 'a b', 'z'];
	r float8 := random();
	n int;
	parts text[] := '{}';
BEGIN
	IF depth <= 0 OR r < 0.35 THEN
		RETURN scalars[1 + floor(random() * array_length(scalars, 1))::int];
	ELSIF r < 0.6 THEN
		n := floor(random() * 5);
		FOR i IN 1..n LOOP
			parts := parts || pg_temp.gen_json(depth - 1);
		END LOOP;
		RETURN '[' || array_to_string(parts, ',') || ']';
	ELSE
		-- now and then a large object (key index, sorted enumeration)
		n := CASE WHEN random() < 0.15 THEN 9 + floor(random() * 30) ELSE floor(random() * 6) END;
		FOR i IN 1..n LOOP
			parts := parts || (to_json(CASE WHEN n > 8 THEN 'k' || floor(random() * 25) ELSE keys[1 + floor(random() * 9)::int] END)::text
				|| ':' || pg_temp.gen_json(depth - 1));
		END LOOP;
		RETURN '{' || array_to_string(parts, ',') || '}';
	END IF;
END $$;
SELECT setseed(0.5);
CREATE TEMP TABLE gen AS
SELECT g AS id, t::fastjson AS f, t::jsonb AS j
FROM (SELECT g, pg_temp.gen_json(4) AS t FROM generate_series(1, 3000) g) s;
SELECT count(*) AS docs, count(*) FILTER (WHERE jsonb_typeof(j) = 'object') AS objects,
	count(*) FILTER (WHERE jsonb_typeof(j) = 'array') AS arrays FROM gen;

-- how jsonb's text results compare with fastjson's: numbers by value,
-- containers as jsonb, everything else as text
CREATE FUNCTION pg_temp.same_text(ft text, jt text, jtype text) RETURNS boolean LANGUAGE sql AS $$
	SELECT CASE WHEN jtype = 'number' THEN ft::numeric = jt::numeric
		WHEN jtype IN ('object', 'array') THEN ft::jsonb = jt::jsonb
		ELSE ft IS NOT DISTINCT FROM jt END $$;

-- each: the same pairs (one per distinct key), each value equal as jsonb
SELECT count(*) AS objects, count(*) FILTER (WHERE NOT ok) AS differ FROM (
	SELECT id, (SELECT count(*) FROM fastjson_each(f)) = (SELECT count(*) FROM jsonb_each(j))
		AND (SELECT coalesce(jsonb_object_agg(key, value::jsonb), '{}') FROM fastjson_each(f)) = j AS ok
	FROM gen WHERE jsonb_typeof(j) = 'object') s;
-- each_text, object_keys: per key, the text and the key set
SELECT count(*) AS pairs, count(*) FILTER (WHERE NOT pg_temp.same_text(ft.value, jt.value, jsonb_typeof(je.value))) AS differ
FROM gen, fastjson_each_text(f) ft
	JOIN jsonb_each_text(j) jt USING (key) JOIN jsonb_each(j) je USING (key)
WHERE jsonb_typeof(j) = 'object';
SELECT count(*) FILTER (WHERE NOT ok) AS differ FROM (
	SELECT (SELECT array_agg(k ORDER BY k COLLATE "C") FROM fastjson_object_keys(f) k)
		IS NOT DISTINCT FROM (SELECT array_agg(k ORDER BY k COLLATE "C") FROM jsonb_object_keys(j) k) AS ok
	FROM gen WHERE jsonb_typeof(j) = 'object') s;
-- the order: document order of the last occurrences (checked against
-- the positions of the keys in the text output, reading it back as json)
SELECT count(*) FILTER (WHERE NOT ok) AS differ FROM (
	SELECT (SELECT array_agg(key) FROM fastjson_each(f)) IS NOT DISTINCT FROM
		(SELECT array_agg(key ORDER BY pos) FROM (
			SELECT key, max(pos) AS pos FROM json_each(f::json) WITH ORDINALITY AS e(key, value, pos) GROUP BY key) l) AS ok
	FROM gen WHERE jsonb_typeof(j) = 'object') s;
-- array_elements(_text): element by element
SELECT count(*) AS elements,
	count(*) FILTER (WHERE fe.value::jsonb IS DISTINCT FROM je.value) AS differ,
	count(*) FILTER (WHERE NOT pg_temp.same_text(ft.value, jt.value, jsonb_typeof(je.value))) AS differ_text
FROM gen, fastjson_array_elements(f) WITH ORDINALITY fe(value, n)
	JOIN jsonb_array_elements(j) WITH ORDINALITY je(value, n) USING (n)
	JOIN fastjson_array_elements_text(f) WITH ORDINALITY ft(value, n) USING (n)
	JOIN jsonb_array_elements_text(j) WITH ORDINALITY jt(value, n) USING (n)
WHERE jsonb_typeof(j) = 'array';
SELECT count(*) FILTER (WHERE (SELECT count(*) FROM fastjson_array_elements(f)) <> jsonb_array_length(j)) AS differ
FROM gen WHERE jsonb_typeof(j) = 'array';
-- extract_path(_text) along paths that hit and miss
SELECT count(*) AS lookups, count(*) FILTER (WHERE jv IS NOT NULL) AS found,
	count(*) FILTER (WHERE fv::jsonb IS DISTINCT FROM jv) AS differ,
	count(*) FILTER (WHERE NOT pg_temp.same_text(ft, jt, jsonb_typeof(jv))) AS differ_text
FROM (SELECT fastjson_extract_path(f, VARIADIC p) AS fv, jsonb_extract_path(j, VARIADIC p) AS jv,
		fastjson_extract_path_text(f, VARIADIC p) AS ft, jsonb_extract_path_text(j, VARIADIC p) AS jt
	FROM gen, (VALUES ('{a}'::text[]), ('{a,0}'), ('{b,a}'), ('{0}'), ('{-1}'), ('{0,a}'), ('{1,1}'), ('{k3}'),
		('{k3,k7}'), ('{a,b,c}'), ('{é}'), ('{""}'), ('{c,0,a}'), ('{0,-1,dd}'), ('{a,-1}')) AS paths(p)) s;
-- strip_nulls: equal as jsonb
SELECT count(*) FILTER (WHERE fastjson_strip_nulls(f)::jsonb <> jsonb_strip_nulls(j)) AS differ FROM gen;
-- pretty: exactly jsonb_pretty's text for the document jsonb keeps (its key
-- order, no duplicates, its number spellings); and the text reads back the same
SELECT count(*) FILTER (WHERE fastjson_pretty(j::fastjson) <> jsonb_pretty(j)) AS differ,
	count(*) FILTER (WHERE fastjson_pretty(f)::jsonb <> j) AS differ_reread
FROM gen;
