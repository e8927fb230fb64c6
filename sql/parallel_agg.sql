-- The aggregates combine: parallel query splits them into Partial and
-- Finalize Aggregate, passing states between processes as fastjson values
-- (the array or object of the members so far). Results hold the same members as
-- the serial plan; without ORDER BY the order of the parts is the order they
-- arrive in, so the checks compare members, not order.
CREATE TABLE pa AS
SELECT g AS id, format('{"g":%s,"k":"k%s","n":%s}', g, g % 10, CASE WHEN g % 7 = 0 THEN 'null' ELSE g || '.50' END)::fastjson AS doc
FROM generate_series(1, 30000) g;
ANALYZE pa;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT fastjson_agg(doc) FROM pa;
EXPLAIN (COSTS OFF) SELECT fastjson_object_agg(id, doc -> 'n') FROM pa;
CREATE TEMP TABLE par AS
SELECT (SELECT fastjson_agg(doc) FROM pa) AS agg,
	(SELECT fastjson_agg_strict(doc -> 'n') FROM pa) AS agg_strict,
	(SELECT fastjson_object_agg(id, doc -> 'n') FROM pa) AS obj,
	(SELECT fastjson_object_agg_strict(id, doc -> 'n') FROM pa) AS obj_strict,
	(SELECT fastjson_object_agg_unique(id, doc -> 'n') FROM pa) AS obj_unique,
	(SELECT fastjson_object_agg_unique_strict(id, doc -> 'n') FROM pa) AS obj_unique_strict;
RESET max_parallel_workers_per_gather;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT fastjson_agg(doc) FROM pa;
-- the same members as the serial plan, and as jsonb's own aggregates give them
SELECT fastjson_array_length(agg) AS elements,
	(SELECT count(*) FROM (SELECT e FROM jsonb_array_elements(agg::jsonb) e
		EXCEPT ALL SELECT doc::jsonb FROM pa) s) AS extra,
	(SELECT count(*) FROM (SELECT doc::jsonb FROM pa
		EXCEPT ALL SELECT e FROM jsonb_array_elements(agg::jsonb) e) s) AS missing,
	fastjson_array_length(agg_strict) AS strict_elements,
	(SELECT count(*) FROM pa WHERE doc -> 'n' IS NOT NULL) AS non_sql_null_values,
	obj::jsonb = (SELECT jsonb_object_agg(id, doc -> 'n') FROM pa) AS obj_same,
	obj_strict::jsonb = (SELECT jsonb_object_agg(id, doc -> 'n') FROM pa WHERE doc ->> 'n' IS NOT NULL) AS strict_same,
	obj_unique::jsonb = obj::jsonb AS unique_same,
	obj_unique_strict::jsonb = obj_strict::jsonb AS unique_strict_same
FROM par;
-- grouped, in parallel: each group's members
SET max_parallel_workers_per_gather = 2;
SELECT k, fastjson_array_length(a) AS n,
	(SELECT sum((e ->> 'g')::int) FROM jsonb_array_elements(a::jsonb) e) = s AS same_sum
FROM (SELECT doc ->> 'k' AS k, fastjson_agg(doc) AS a, sum((doc ->> 'g')::int) AS s FROM pa GROUP BY 1) t ORDER BY k;
-- the variants on small inputs: _strict leaves out null values (SQL NULL, and
-- for objects JSON null too, as jsonb does), so a key's operative value is its
-- last non-null one; _unique counts every key, also those _strict leaves out
SELECT fastjson_agg_strict(v) AS agg_strict, fastjson_object_agg_strict(k, v ORDER BY n) AS obj_strict,
	fastjson_object_agg_unique(k2, v) AS obj_unique, fastjson_object_agg_unique_strict(k2, v) AS obj_unique_strict
FROM (VALUES (1, 'a', 'b', '1'::fastjson), (2, 'a', 'c', 'null'), (3, 'd', 'd', NULL), (4, 'a', 'e', '2.50')) t(n, k, k2, v);
SELECT fastjson_object_agg_strict(k, v ORDER BY n) -> 'a' AS last_non_null
FROM (VALUES (1, 'a', '1'::fastjson), (2, 'a', 'null'), (3, 'a', NULL)) t(n, k, v);
SELECT fastjson_object_agg_unique_strict(k, v) FROM (VALUES ('a', NULL::fastjson), ('a', '1')) t(k, v);
SELECT fastjson_object_agg_unique(k, v) FROM (VALUES ('a', 1), ('b', 2), ('a', 3)) t(k, v);
-- a repeated key across the parts is still found by _unique
INSERT INTO pa VALUES (30001, '{"g":30001,"k":"k1","n":1}');
SELECT fastjson_object_agg_unique(doc ->> 'k', 1) FROM pa;
SELECT count(*) FROM (SELECT fastjson_object_agg_unique(id, 1) AS o FROM pa) s WHERE o IS NOT NULL;
-- ORDER BY inside the aggregate gives a defined order (the plan is then not split)
SELECT fastjson_agg(doc -> 'g' ORDER BY id DESC) -> 0 AS last_id_first FROM pa;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
DROP TABLE pa;
