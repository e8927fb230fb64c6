-- fastjson_ndjson: one row per line of newline-delimited JSON.
SELECT * FROM fastjson_ndjson(E'{"a":1}\n[2]\n\n  \n"three"\r\n{"b":[4]}');
SELECT n, d ->> 'id' AS id FROM fastjson_ndjson(E'{"id":1}\n{"id":2}\n{"id":3}') WITH ORDINALITY AS t(d, n);
SELECT count(*) FROM fastjson_ndjson(convert_to(E'{"x":"\u00e9"}\n{"x":2}\n', 'UTF8'));
SELECT count(*) FROM fastjson_ndjson('');
-- an error names its line
SELECT * FROM fastjson_ndjson(E'{"a":1}\n{"a":2}\n{"a":}\n{"a":4}');
SELECT * FROM fastjson_ndjson('\x7b7d0a5bc35d'::bytea);
-- loading a table
CREATE TEMP TABLE events (id bigserial, doc fastjson);
INSERT INTO events(doc) SELECT * FROM fastjson_ndjson(
	(SELECT string_agg(format('{"n":%s,"type":"%s"}', g, CASE WHEN g % 3 = 0 THEN 'error' ELSE 'ok' END), E'\n')
	 FROM generate_series(1, 3000) g));
SELECT doc ->> 'type' AS type, count(*) FROM events GROUP BY 1 ORDER BY 1;
