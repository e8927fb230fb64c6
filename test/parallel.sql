-- parallel.sql — queries whose answers must not depend on parallel query.
--
-- Run by test/parallel.py: the part before the first "-- @query" line sets up
-- the tables (once); each "-- @query LABEL" section holds one query, run with
-- max_parallel_workers_per_gather = 0 and = 2 (parallel plans forced:
-- parallel_setup_cost = parallel_tuple_cost = 0, min_parallel_*_scan_size = 0).
-- The parallel plan must contain a Gather (and launch workers), the serial one
-- must not, and both must give the same rows: in the same order when the
-- section says "-- @ordered", as the same multiset otherwise. "-- @expect TEXT"
-- requires TEXT in the parallel plan; "-- @set name=value" applies to both runs.
-- The file is also valid SQL on its own (psql -f runs each query once).

SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fastjson;
DROP TABLE IF EXISTS par, par_dim;

-- Numbers of equal value are spelled in several ways (1, 1.0, 1e0, 10e-1), so
-- equality, hashing and ordering must treat them alike in every process.
CREATE TABLE par (id int PRIMARY KEY, f fastjson NOT NULL);
INSERT INTO par
SELECT g, format('{"id":%s,"k":"k%s","a":{"b":"%s","c":%s,"num":%s},"tags":["t%s","u%s"],"o":{"x":%s,"y":%s},%s"s":"h\u00e9llo %s","dup":0,"dup":%s}',
	g, g % 50, substr(md5((g % 300)::text), 1, 6), g % 100,
	(ARRAY['1', '1.0', '1e0', '10e-1', '2', '2.00', '0.2e1', '-0', '0', '0.0'])[1 + g % 10],
	g % 7, g % 11, g % 13, (ARRAY['null', 'true', '[]', '{}', '"y"', '1.5'])[1 + g % 6],
	CASE WHEN g % 10 = 0 THEN '"opt":true,' ELSE '' END, g % 17, g % 4)::fastjson
FROM generate_series(1, 200000) AS g;

-- the dimension side of the joins: one row per distinct value of f->'o'
CREATE TABLE par_dim (o fastjson NOT NULL, label text NOT NULL);
INSERT INTO par_dim
SELECT DISTINCT ON (f->'o') (f->'o')::text::fastjson, 'dim ' || (f->'o')::text FROM par;
-- equal values in other spellings
INSERT INTO par_dim
SELECT replace(replace((f->'o')::text, '1.5', '15e-1'), '"x":1,', '"x":1.0,')::fastjson, 'respelled'
FROM (SELECT DISTINCT ON (f->'o') f FROM par) AS s;
VACUUM ANALYZE par;
VACUUM ANALYZE par_dim;

-- @query ->> filter
SELECT id FROM par WHERE f->>'k' = 'k7';

-- @query ->> filter with a cast
SELECT id, f->>'s' FROM par WHERE (f->>'id')::int % 1000 = 3;

-- @query #>> nested path
SELECT id, f #>> '{a,b}', f #>> '{tags,1}' FROM par WHERE (f #>> '{a,c}')::int > 95;

-- @query counts by a field
SELECT f->>'k', count(*), sum((f->>'id')::bigint), min(f #>> '{a,b}') FROM par GROUP BY 1;

-- @query counts by a nested number, by value
-- (a group shows the spelling of whichever row came first, so the output
-- normalises it with trim_scale; the counts show the grouping)
SELECT trim_scale((f #>> '{a,num}')::numeric), count(*) FROM par GROUP BY (f #>> '{a,num}')::numeric;

-- @query fastjson_agg, ordered inside each group
SELECT f->>'k', fastjson_agg(f->'id' ORDER BY id DESC) FROM par WHERE id % 7 = 0 GROUP BY 1;

-- @query fastjson_agg over the whole table, ordered
SELECT fastjson_agg(f->'a' ORDER BY f->'a', id) FROM par WHERE id % 50 = 1;

-- @query fastjson_object_agg, ordered
SELECT fastjson_object_agg(f->>'id', f->'tags' ORDER BY id) FROM par WHERE id % 997 = 0;

-- @query @> filter
SELECT id FROM par WHERE f @> '{"tags":["t3"],"o":{"x":5}}';

-- @query @> filter, numbers by value
SELECT id FROM par WHERE f @> '{"a":{"num":1}}';

-- @query ? filter
SELECT id FROM par WHERE f ? 'opt';

-- @query ?| and ?& filters
SELECT id, f ?& array['opt', 'dup'] FROM par WHERE f ?| array['opt', 'nope'];

-- @query ORDER BY fastjson (Gather Merge)
-- @ordered
SELECT id, f->'a' FROM par ORDER BY f->'a', id;

-- @query ORDER BY fastjson DESC with LIMIT
-- @ordered
SELECT id, f FROM par ORDER BY f DESC, id LIMIT 2000;

-- @query ORDER BY a fastjson scalar
-- @ordered
SELECT f->'o'->'y', id FROM par ORDER BY f->'o'->'y', id;

-- @query GROUP BY fastjson (hashing)
-- @set enable_sort=off
SELECT f->'a', count(*) FROM par GROUP BY f->'a';

-- @query GROUP BY fastjson (sorting)
-- @set enable_hashagg=off
SELECT f->'o', count(*), min(id) FROM par GROUP BY f->'o';

-- @query GROUP BY a fastjson number spelled four ways (hashing)
-- @set enable_sort=off
SELECT trim_scale((f #> '{a,num}')::numeric), count(*) FROM par GROUP BY f #> '{a,num}';

-- @query GROUP BY a fastjson number spelled four ways (sorting)
-- @set enable_hashagg=off
SELECT trim_scale((f #> '{a,num}')::numeric), count(*), sum(id) FROM par GROUP BY f #> '{a,num}';

-- @query DISTINCT fastjson
SELECT DISTINCT f->'o' FROM par;

-- @query DISTINCT fastjson numbers (sorting)
-- @set enable_hashagg=off
SELECT trim_scale(n::numeric), d FROM (SELECT DISTINCT f #> '{a,num}' AS n, f->'dup' AS d FROM par) AS s;

-- @query hash join on fastjson = fastjson
-- @expect Hash Join
-- @set enable_mergejoin=off
-- @set enable_nestloop=off
SELECT p.id, d.label FROM par p JOIN par_dim d ON p.f->'o' = d.o;

-- @query merge join on fastjson = fastjson
-- @expect Merge Join
-- @set enable_hashjoin=off
-- @set enable_nestloop=off
SELECT count(*), sum(p.id), count(DISTINCT d.label) FROM par p JOIN par_dim d ON p.f->'o' = d.o;

-- @query self hash join on a whole document
-- @expect Hash Join
-- @set enable_mergejoin=off
-- @set enable_nestloop=off
SELECT count(*), sum(a.id - b.id) FROM par a JOIN par b ON a.f = b.f;
