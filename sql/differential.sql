-- The 10,000-document differential: generated documents (random nesting,
-- duplicate keys, numbers in many spellings, unicode; sql/include/
-- random_docs.sql) checked against jsonb for ordering, hashing, grouping,
-- joins and the lookup operators and functions. Every count of differences
-- must be 0.
\i sql/include/random_docs.sql
SELECT setseed(0.10000);
CREATE TEMP TABLE d10k AS SELECT row_number() OVER () AS id, t, f, j FROM fj_random_docs(2500, 4);
SELECT count(*) >= 10000 AS at_least_10000, count(*) FILTER (WHERE t ~ '"([^"]*)":.*"\1":') > 0 AS has_duplicate_keys FROM d10k;
-- sorting by fastjson gives jsonb's order (ties compared as sets of jsonb values)
WITH fo AS (SELECT j, row_number() OVER (ORDER BY f, id) AS pos FROM d10k),
	 jo AS (SELECT j, row_number() OVER (ORDER BY j, id) AS pos FROM d10k)
SELECT count(*) AS order_differences FROM fo JOIN jo USING (pos) WHERE fo.j <> jo.j;
-- hash agrees with =, = agrees with jsonb's
SELECT count(*) AS hash_differences FROM d10k a JOIN d10k b ON a.f = b.f
WHERE fastjson_hash(a.f) <> fastjson_hash(b.f) OR a.j <> b.j;
SELECT count(*) AS eq_differences FROM (SELECT f, j FROM d10k ORDER BY id LIMIT 700) a, (SELECT f, j FROM d10k ORDER BY id DESC LIMIT 700) b
WHERE (a.f = b.f) <> (a.j = b.j) OR (a.f < b.f) <> (a.j < b.j);
-- GROUP BY and DISTINCT, hashed and sorted
SET enable_hashagg = on;
SELECT (SELECT count(*) FROM (SELECT f FROM d10k GROUP BY f) s) AS groups_hashed,
	   (SELECT count(*) FROM (SELECT j FROM d10k GROUP BY j) s) AS groups_jsonb,
	   (SELECT count(DISTINCT f) FROM d10k) AS distinct_fastjson;
SET enable_hashagg = off;
SELECT (SELECT count(*) FROM (SELECT f FROM d10k GROUP BY f) s) AS groups_sorted;
RESET enable_hashagg;
-- hash join and merge join give jsonb's pairs
SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT count(*) AS hash_join_pairs FROM d10k a JOIN d10k b ON a.f = b.f;
RESET enable_mergejoin; SET enable_hashjoin = off;
SELECT count(*) AS merge_join_pairs FROM d10k a JOIN d10k b ON a.f = b.f;
RESET enable_hashjoin; RESET enable_nestloop;
SELECT count(*) AS jsonb_join_pairs FROM d10k a JOIN d10k b ON a.j = b.j;
-- lookups and functions on every document, with probes
CREATE FUNCTION pg_temp.same_text(ft text, jt text, jv jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE
		WHEN ft IS NULL OR jt IS NULL THEN ft IS NULL AND jt IS NULL
		WHEN jsonb_typeof(jv) IN ('object', 'array') THEN ft::jsonb = jt::jsonb
		WHEN jsonb_typeof(jv) = 'number' THEN ft::numeric = jt::numeric
		ELSE ft = jt END
$$;
SELECT count(*) AS lookup_differences
FROM d10k, unnest(ARRAY['a', 'b', 'aa', 'é', '', '1', 'zz', 'missing']) AS k, unnest(ARRAY[0, 1, -1, 2, -3, 99]) AS i
WHERE (f -> k)::jsonb IS DISTINCT FROM (j -> k)
   OR NOT pg_temp.same_text(f ->> k, j ->> k, j -> k)
   OR (f -> i)::jsonb IS DISTINCT FROM (j -> i)
   OR NOT pg_temp.same_text(f ->> i, j ->> i, j -> i)
   OR (f #> ARRAY[k, i::text])::jsonb IS DISTINCT FROM (j #> ARRAY[k, i::text])
   OR NOT pg_temp.same_text(f #>> ARRAY[i::text, k], j #>> ARRAY[i::text, k], j #> ARRAY[i::text, k])
   OR (f ? k) <> (j ? k)
   OR (f ?| ARRAY[k, 'b']) <> (j ?| ARRAY[k, 'b'])
   OR (f ?& ARRAY[k, 'a']) <> (j ?& ARRAY[k, 'a']);
SELECT count(*) AS function_differences FROM d10k
WHERE fastjson_typeof(f) <> jsonb_typeof(j)
   OR (jsonb_typeof(j) = 'array' AND fastjson_array_length(f) <> jsonb_array_length(j))
   OR (jsonb_typeof(j) = 'object' AND (SELECT array_agg(k ORDER BY k) FROM fastjson_object_keys(f) k)
		IS DISTINCT FROM (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(j) k))
   OR (jsonb_typeof(j) = 'object' AND (SELECT jsonb_object_agg(key, value::jsonb) FROM fastjson_each(f))
		IS DISTINCT FROM (SELECT jsonb_object_agg(key, value) FROM jsonb_each(j)))
   OR (jsonb_typeof(j) = 'array' AND (SELECT jsonb_agg(e::jsonb) FROM fastjson_array_elements(f) e)
		IS DISTINCT FROM (SELECT jsonb_agg(e) FROM jsonb_array_elements(j) e))
   OR fastjson_strip_nulls(f)::jsonb <> jsonb_strip_nulls(j)
   OR (f @> fastjson_strip_nulls(f)) <> (j @> jsonb_strip_nulls(j))
   OR f::text::jsonb <> j;
