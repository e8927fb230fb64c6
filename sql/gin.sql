-- GIN indexes: fastjson_ops (@> ? ?| ?&) and fastjson_path_ops (@>). With
-- sequential scans off, every query must give exactly the rows a sequential
-- scan gives, over generated documents with duplicate keys, nested arrays,
-- scalars at the root and empty containers.
SELECT setseed(0.17);
CREATE FUNCTION gin_doc(depth int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r float8 := random();
	n int;
	parts text[] := '{}';
	keys text[] := ARRAY['a', 'b', 'c', 'type', 'tags', 'x', 'é', repeat('long', 40)];
	vals text[] := ARRAY['1', '1.0', '2', '1e2', '100', '-0', '0', 'true', 'false', 'null', '"a"', '"b"',
						 '"error"', '"é"', '""', '{}', '[]', '"' || repeat('v', 200) || '"'];
BEGIN
	IF depth > 2 OR (depth > 0 AND r < 0.4) OR r < 0.05 THEN
		RETURN vals[1 + floor(random() * 18)::int];
	END IF;
	n := floor(random() * 5)::int;
	IF r < 0.4 THEN
		FOR i IN 1 .. n LOOP
			parts := parts || gin_doc(depth + 1);
		END LOOP;
		RETURN '[' || array_to_string(parts, ',') || ']';
	END IF;
	FOR i IN 1 .. n LOOP
		parts := parts || ('"' || keys[1 + floor(random() * 8)::int] || '":' || gin_doc(depth + 1));
	END LOOP;
	RETURN '{' || array_to_string(parts, ',') || '}';
END
$$;
CREATE TABLE docs (id serial PRIMARY KEY, doc fastjson);
INSERT INTO docs(doc) SELECT gin_doc(0)::fastjson FROM generate_series(1, 3000);
-- queries: documents drawn from the table and small hand-written ones
CREATE TABLE queries AS
SELECT DISTINCT q FROM (
	SELECT gin_doc(1) AS q FROM generate_series(1, 150)
	UNION ALL SELECT unnest(ARRAY['{}', '[]', '{"a":1}', '{"a":1.0}', '{"a":{}}', '{"a":[]}', '{"tags":["a"]}',
		'["a"]', '"a"', '1', '{"type":"error"}', '[[]]', '[{}]', '{"a":null}', '{"x":{"y":1}}', '[1,1.0]',
		'{"' || repeat('long', 40) || '":"a"}', '"' || repeat('v', 200) || '"'])
) s;
CREATE TABLE keys AS SELECT unnest(ARRAY['a', 'b', 'c', 'type', 'tags', 'x', 'é', 'zz', '', repeat('long', 40)]) AS k;
CREATE FUNCTION run_all(label text) RETURNS TABLE (query text, matches bigint) LANGUAGE sql AS $$
	SELECT '@> ' || q, (SELECT count(*) FROM docs WHERE doc @> q::fastjson) FROM queries
	UNION ALL SELECT '? ' || k, (SELECT count(*) FROM docs WHERE doc ? k) FROM keys
	UNION ALL SELECT '?| ' || k, (SELECT count(*) FROM docs WHERE doc ?| ARRAY[k, 'b']) FROM keys
	UNION ALL SELECT '?& ' || k, (SELECT count(*) FROM docs WHERE doc ?& ARRAY[k, 'a']) FROM keys
	UNION ALL SELECT '?| {}', (SELECT count(*) FROM docs WHERE doc ?| '{}'::text[])
	UNION ALL SELECT '?& {}', (SELECT count(*) FROM docs WHERE doc ?& '{}'::text[])
$$;
CREATE TABLE seq AS SELECT * FROM run_all('seq');
SELECT count(*) AS queries, sum(matches) AS total_matches FROM seq;
CREATE INDEX docs_gin ON docs USING gin (doc);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM docs WHERE doc @> '{"type":"error"}';
EXPLAIN (COSTS OFF) SELECT * FROM docs WHERE doc ? 'tags';
EXPLAIN (COSTS OFF) SELECT * FROM docs WHERE doc ?| ARRAY['a', 'b'];
EXPLAIN (COSTS OFF) SELECT * FROM docs WHERE doc ?& ARRAY['a', 'b'];
CREATE TABLE idx_ops AS SELECT * FROM run_all('fastjson_ops');
SELECT count(*) AS differences FROM seq FULL JOIN idx_ops USING (query) WHERE seq.matches IS DISTINCT FROM idx_ops.matches;
DROP INDEX docs_gin;
CREATE INDEX docs_gin_path ON docs USING gin (doc fastjson_path_ops);
EXPLAIN (COSTS OFF) SELECT * FROM docs WHERE doc @> '{"type":"error"}';
CREATE TABLE idx_path AS SELECT * FROM run_all('fastjson_path_ops');
SELECT count(*) AS differences FROM seq JOIN idx_path USING (query)
WHERE query LIKE '@>%' AND seq.matches IS DISTINCT FROM idx_path.matches;
-- the same answers as jsonb's own GIN-free operators
SELECT count(*) AS differences_from_jsonb FROM queries q, LATERAL (
	SELECT count(*) FILTER (WHERE doc @> q.q::fastjson) AS f, count(*) FILTER (WHERE doc::jsonb @> q.q::jsonb) AS j FROM docs
) c WHERE c.f <> c.j;
-- an index is maintained through updates and deletes
UPDATE docs SET doc = doc || '{"type":"error"}' WHERE id % 10 = 0;
DELETE FROM docs WHERE id % 7 = 0;
SELECT count(*) AS via_index FROM docs WHERE doc @> '{"type":"error"}';
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS via_seqscan FROM docs WHERE doc @> '{"type":"error"}';
RESET enable_indexscan;
RESET enable_bitmapscan;

-- btree expression indexes and extended statistics on fields
CREATE TABLE ev AS SELECT g AS id, format('{"type":"%s","n":%s,"http":{"status":%s}}',
	(ARRAY['error', 'ok', 'info'])[1 + g % 3], g, 200 + (g % 4) * 100)::fastjson AS doc
FROM generate_series(1, 5000) g;
CREATE INDEX ev_type ON ev ((doc->>'type'));
CREATE INDEX ev_n ON ev (((doc->>'n')::bigint));
CREATE STATISTICS ev_stats ON (doc->>'type'), ((doc #>> '{http,status}')::int) FROM ev;
ANALYZE ev;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM ev WHERE doc->>'type' = 'error';
EXPLAIN (COSTS OFF) SELECT * FROM ev WHERE (doc->>'n')::bigint BETWEEN 10 AND 20;
SELECT count(*) FROM ev WHERE doc->>'type' = 'error';
SELECT count(*) FROM ev WHERE (doc->>'n')::bigint BETWEEN 10 AND 20;
RESET enable_seqscan;
SELECT stxname, stxkind FROM pg_statistic_ext WHERE stxname = 'ev_stats';
SELECT count(*) > 0 AS has_expression_stats FROM pg_stats_ext_exprs WHERE statistics_name = 'ev_stats';
