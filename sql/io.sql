-- Text input and output: the canonical minified form (doc/design.md, section 2).
-- Whitespace goes; key order, duplicate keys and number spelling stay.
SELECT '{ "b" : 1 , "a" : [ true , false , null ] , "b" : 2 }'::fastjson;
SELECT '[1, 1.0, 1e2, 1E+2, -0, 0.1000, 123456789012345678901234567890, -9223372036854775808, 9223372036854775808]'::fastjson;
SELECT '"tab\there, quote\", backslash\\, slash\/, e-acute \u00e9, emoji \ud83d\ude00, nul \u0000"'::fastjson;
SELECT '"\u001f\u007f\b\f\n\r"'::fastjson;
-- scalars and empty containers at the root
SELECT v::fastjson FROM (VALUES ('null'), ('true'), ('false'), ('0'), ('-1.5e-7'), ('""'), ('[]'), ('{}'), ('  [ ]  ')) AS t(v);
-- for every valid input X: X::fastjson::text::jsonb = X::jsonb
SELECT v, v::fastjson::text::jsonb = v::jsonb AS same
FROM (VALUES ('{"a":{"b":[1,2,{"c":null}]},"d":"x"}'), ('[1.0, 1e2, -0]'), ('{"a":1,"a":2}'),
             ('"\u00e9\/"'), ('{"k":"\u0041\u20ac"}')) AS t(v);
-- casts: text, json and jsonb both ways
SELECT '{"a": 1}'::text::fastjson, '{"a": 1}'::json::fastjson, '{"a": 1}'::jsonb::fastjson;
SELECT '{"b":1,"a":2}'::fastjson::text, '{"b":1,"a":2}'::fastjson::json, '{"b":1,"a":2}'::fastjson::jsonb;
-- assignment casts: text and json columns insert into fastjson columns
CREATE TEMP TABLE src (t text, j json, b jsonb);
INSERT INTO src VALUES ('[1,"two"]', '{"x": [3]}', '{"y": 4}');
CREATE TEMP TABLE dst (doc fastjson);
INSERT INTO dst SELECT t FROM src;
INSERT INTO dst SELECT j FROM src;
INSERT INTO dst SELECT b FROM src;
SELECT doc FROM dst;
-- fastjson_valid
SELECT v, fastjson_valid(v) FROM (VALUES ('{"a":1}'), ('{"a":1,}'), (''), ('[1] x'), ('"\ud800"'), ('1e999999')) AS t(v);
-- fastjson_from_utf8 reads raw UTF-8 bytes
SELECT fastjson_from_utf8(convert_to('{"caf\u00e9": "cr\u00e8me"}', 'UTF8'));
SELECT fastjson_from_utf8('\x5b22c3a9225d'::bytea);
-- fastjson_typeof and fastjson_array_length
SELECT v, fastjson_typeof(v::fastjson) FROM (VALUES ('{}'), ('[]'), ('"s"'), ('1'), ('1.5'), ('-0'), ('true'), ('false'), ('null')) AS t(v);
SELECT fastjson_array_length('[1,[2,3],{}]'), fastjson_array_length('[]');
SELECT fastjson_array_length('{"a":1}');
SELECT fastjson_array_length('3');
-- storage: values are stored compressed and read back exactly
CREATE TEMP TABLE big (doc fastjson);
INSERT INTO big SELECT ('{"items":[' || string_agg('{"id":' || g || ',"name":"item ' || g || '","price":' || (g * 1.25) || '}', ',') || ']}')::fastjson
FROM generate_series(1, 2000) g;
SELECT pg_column_size(doc) < length(doc::text) AS compressed, fastjson_array_length(doc -> 'items') AS n,
	doc -> 'items' -> 1999 AS last FROM big;
