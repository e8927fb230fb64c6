#!/usr/bin/python3
"""agg_bench.py — fastjson_agg / fastjson_object_agg against jsonb_agg / jsonb_object_agg over
1,000,000 small documents, serial and parallel (2 workers, Partial and Finalize Aggregate for
fastjson), the types interleaved, 5 rounds, min and median.

usage: /usr/bin/python3 bench/agg_bench.py   (libpq environment: PGHOST, PGPORT, PGUSER,
PGDATABASE; the fastjson extension installed; makes and drops the table a1m)"""
import psycopg, time, statistics, json
c = psycopg.connect(autocommit=True)
c.execute("CREATE EXTENSION IF NOT EXISTS fastjson")
c.execute("DROP TABLE IF EXISTS a1m")
c.execute("""CREATE TABLE a1m AS SELECT g AS id, j::fastjson AS f, j::jsonb AS b FROM (
  SELECT g, format('{"id":%s,"k":"k%s","v":%s.50,"tags":["a","b%s"]}', g, g % 100, g, g % 7) AS j
  FROM generate_series(1, 1000000) g) s""")
c.execute("VACUUM ANALYZE a1m")
Q = {
 "fastjson_agg": "SELECT fastjson_array_length(fastjson_agg(f)) FROM a1m",
 "jsonb_agg": "SELECT jsonb_array_length(jsonb_agg(b)) FROM a1m",
 "fastjson_object_agg": "SELECT octet_length(fastjson_object_agg(id::text, f)::text) FROM a1m",
 "jsonb_object_agg": "SELECT octet_length(jsonb_object_agg(id::text, b)::text) FROM a1m",
}
MODES = {"serial": ["SET max_parallel_workers_per_gather = 0"],
         "parallel": ["SET max_parallel_workers_per_gather = 2", "SET parallel_setup_cost = 0",
                      "SET parallel_tuple_cost = 0", "SET min_parallel_table_scan_size = 0"]}
times = {(q, m): [] for q in Q for m in MODES}
res = {}
for m, sets in MODES.items():
    for s in sets: c.execute(s)
    for q, sql in Q.items():
        plan = "\n".join(r[0] for r in c.execute("EXPLAIN (ANALYZE, COSTS OFF) " + sql))
        print(m, q, "Partial Aggregate" in plan, [l.strip() for l in plan.splitlines() if "Workers Launched" in l])
for rep in range(5):
    for m, sets in MODES.items():
        for s in sets: c.execute(s)
        keys = list(Q) if rep % 2 == 0 else list(reversed(Q))
        for q in keys:
            t = time.perf_counter(); r = c.execute(Q[q]).fetchone()[0]; t = time.perf_counter() - t
            times[(q, m)].append(t); res.setdefault((q, m), r)
print("| aggregate | mode | min s | median s | result |")
print("|---|---|--:|--:|--:|")
for (q, m), v in times.items():
    print("| %s | %s | %.3f | %.3f | %s |" % (q, m, min(v), statistics.median(v), res[(q, m)]))
c.execute("DROP TABLE a1m")
