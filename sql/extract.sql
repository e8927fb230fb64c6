-- -> ->> #> #>>: json/jsonb lookup rules. The last of duplicate keys wins;
-- a missing key, a wrong shape or an index out of range gives NULL;
-- negative indexes count from the end. ->> gives strings unescaped and
-- numbers as written.
CREATE TEMP TABLE docs (id int, doc fastjson);
INSERT INTO docs VALUES
	(1, '{"a":1,"b":{"c":[10,20,30],"d":"x\"y"},"a":2,"n":1.50,"t":true,"z":null}'),
	(2, '[1,"two",[3],{"four":4}]'),
	(3, '"scalar"');
SELECT id, doc -> 'a' AS a, doc ->> 'a' AS a_text, doc -> 'b' AS b, doc ->> 'n' AS n_text,
	doc ->> 't' AS t, doc ->> 'z' IS NULL AS z_null, doc -> 'z' AS z, doc -> 'missing' IS NULL AS missing
FROM docs ORDER BY id;
SELECT id, doc -> 0 AS first, doc ->> 1 AS second, doc -> -1 AS last, doc ->> -4 AS from_end,
	doc -> 4 IS NULL AS past_end, doc -> -5 IS NULL AS before_start
FROM docs ORDER BY id;
SELECT id, doc #> '{b,c}' AS bc, doc #>> '{b,c,1}' AS bc1, doc #>> '{b,c,-1}' AS bc_last, doc #>> '{b,d}' AS bd,
	doc #> '{}' AS whole, doc #>> '{b,c,x}' IS NULL AS bad_index, doc #> '{3,four}' AS four
FROM docs ORDER BY id;
SELECT '{"a":[1,2]}'::fastjson #> ARRAY['a', NULL] IS NULL AS null_step;
-- the same answers as jsonb (containers compared as jsonb, text as text)
SELECT bool_and((d -> k)::jsonb IS NOT DISTINCT FROM (d::jsonb -> k)) AS arrow,
	bool_and(CASE WHEN fastjson_typeof(d -> k) IN ('object', 'array') THEN (d ->> k)::jsonb = (d::jsonb ->> k)::jsonb
				  ELSE (d ->> k) IS NOT DISTINCT FROM (d::jsonb ->> k) END) AS arrow_text
FROM (SELECT '{"a":{"x":1},"b":[1,2],"c":"s","d":null,"e":false,"f":-3}'::fastjson AS d) s,
	unnest(ARRAY['a','b','c','d','e','f','g']) AS k;
-- integers of every stored width come back as text exactly as written
SELECT k, d ->> k AS text, d ->> k = d::jsonb ->> k AS same_as_jsonb
FROM (SELECT '{"a":0,"b":23,"c":24,"d":255,"e":256,"f":65536,"g":4294967296,"h":9223372036854775807,
	"i":-1,"j":-24,"k":-25,"l":-256,"m":-65537,"n":-4294967297,"o":-9223372036854775808}'::fastjson AS d) s,
	unnest('{a,b,c,d,e,f,g,h,i,j,k,l,m,n,o}'::text[]) AS k;
-- large objects carry a key index: lookups are O(log n) and still last-wins
CREATE TEMP TABLE wide AS
SELECT ('{' || string_agg(format('"key%s":%s', g, g), ',') || ',"key7":"last"}')::fastjson AS doc
FROM generate_series(1, 500) g;
SELECT doc ->> 'key1' AS k1, doc ->> 'key500' AS k500, doc ->> 'key7' AS k7, doc -> 'key501' IS NULL AS missing FROM wide;
