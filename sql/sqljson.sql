-- SQL/JSON (PostgreSQL 17 and later) on a fastjson column: JSON_TABLE,
-- JSON_QUERY, JSON_VALUE and JSON_EXISTS take fastjson through its cast to
-- jsonb, and give what they give on jsonb. IS JSON takes only text, json,
-- jsonb and bytea: on fastjson use its documented equivalents.
CREATE TEMP TABLE ev (id int, doc fastjson);
INSERT INTO ev VALUES
	(1, '{"type":"push","user":{"login":"ann","id":7},"tags":["a","b"],"amount":19.90,"n":1e2}'),
	(2, '{"type":"pull","user":{"login":"bob","id":8},"tags":[],"amount":0.1000}'),
	(3, '{"type":"push","user":{"login":"cid"},"tags":["c"],"a":1,"a":2}'),
	(4, '[1,2,3]'),
	(5, '"just a string"');
CREATE TEMP TABLE evj AS SELECT id, doc::jsonb AS doc FROM ev;
-- JSON_TABLE
SELECT * FROM ev, JSON_TABLE(doc, '$' COLUMNS (
	type text PATH '$.type', login text PATH '$.user.login', uid int PATH '$.user.id',
	amount numeric PATH '$.amount', ntags int PATH '$.tags.size()',
	NESTED PATH '$.tags[*]' COLUMNS (tag text PATH '$'))) t WHERE id <= 3 ORDER BY id, tag;
SELECT (SELECT array_agg(t ORDER BY t) FROM (SELECT row(t.*)::text AS t FROM ev, JSON_TABLE(doc, '$' COLUMNS (
	type text PATH '$.type', login text PATH '$.user.login', amount numeric PATH '$.amount',
	NESTED PATH '$.tags[*]' COLUMNS (tag text PATH '$'))) t) s) =
	(SELECT array_agg(t ORDER BY t) FROM (SELECT row(t.*)::text AS t FROM evj, JSON_TABLE(doc, '$' COLUMNS (
	type text PATH '$.type', login text PATH '$.user.login', amount numeric PATH '$.amount',
	NESTED PATH '$.tags[*]' COLUMNS (tag text PATH '$'))) t) s) AS json_table_same;
-- JSON_QUERY, JSON_VALUE, JSON_EXISTS, side by side with jsonb
SELECT e.id, JSON_QUERY(e.doc, '$.tags') AS tags, JSON_VALUE(e.doc, '$.user.login') AS login,
	JSON_VALUE(e.doc, '$.amount' RETURNING numeric) AS amount, JSON_EXISTS(e.doc, '$.user.id') AS has_id,
	JSON_QUERY(e.doc, '$.tags') IS NOT DISTINCT FROM JSON_QUERY(j.doc, '$.tags')
		AND JSON_VALUE(e.doc, '$.user.login') IS NOT DISTINCT FROM JSON_VALUE(j.doc, '$.user.login')
		AND JSON_VALUE(e.doc, '$.amount' RETURNING numeric) IS NOT DISTINCT FROM JSON_VALUE(j.doc, '$.amount' RETURNING numeric)
		AND JSON_EXISTS(e.doc, '$.user.id') = JSON_EXISTS(j.doc, '$.user.id') AS same_as_jsonb
FROM ev e JOIN evj j USING (id) ORDER BY id;
SELECT JSON_QUERY(doc, '$.a' WITH WRAPPER) AS operative_key, JSON_VALUE(doc, '$.a') AS a FROM ev WHERE id = 3;
SELECT JSON_VALUE(doc, '$.user' ERROR ON ERROR) FROM ev WHERE id = 1;
SELECT JSON_QUERY(doc, 'strict $.missing' ERROR ON ERROR) FROM ev WHERE id = 1;
-- RETURNING fastjson: the input function's soft errors give the ON ERROR default
SELECT JSON_QUERY(doc, '$.user' RETURNING fastjson) AS user_doc,
	JSON_VALUE(jsonb '{"s":"{\"a\":[1,2.50]}"}', '$.s' RETURNING fastjson) AS parsed_string,
	JSON_VALUE(jsonb '{"s":"{bad"}', '$.s' RETURNING fastjson DEFAULT '{"default":true}' ON ERROR) AS bad_string
FROM ev WHERE id = 1;
SELECT JSON_VALUE(jsonb '{"s":"{bad"}', '$.s' RETURNING fastjson ERROR ON ERROR);
-- IS JSON: the equivalents (every fastjson value is JSON)
SELECT e.id, e.doc IS NOT NULL AS is_json,
	fastjson_typeof(e.doc) = 'object' AS is_json_object, fastjson_typeof(e.doc) = 'array' AS is_json_array,
	fastjson_typeof(e.doc) NOT IN ('object', 'array') AS is_json_scalar,
	e.doc::text IS JSON OBJECT WITH UNIQUE KEYS AS unique_keys,
	(e.doc IS NOT NULL) = (e.doc::text IS JSON)
		AND (fastjson_typeof(e.doc) = 'object') = (e.doc::text IS JSON OBJECT)
		AND (fastjson_typeof(e.doc) = 'array') = (e.doc::text IS JSON ARRAY)
		AND (fastjson_typeof(e.doc) NOT IN ('object', 'array')) = (e.doc::text IS JSON SCALAR) AS same_as_is_json
FROM ev e ORDER BY id;
DO $$ BEGIN PERFORM doc IS JSON FROM ev; EXCEPTION WHEN OTHERS THEN RAISE NOTICE '%: %', SQLSTATE, SQLERRM; END $$;
