#!/usr/bin/python3
"""The fastjson demo: load an event log into fastjson and jsonb columns and run
the README's example queries on both, printing results and times side by side.

usage: demo.py EVENTS.ndjson    (PGHOST/PGPORT/PGUSER name the cluster)
"""
import sys
import time

import psycopg

# The README's example queries ({t} is the table). Keep them in step with README.md.
QUERIES = [
    ("Events by type",
     "SELECT doc->>'type' AS type, count(*) FROM {t} GROUP BY 1 ORDER BY 2 DESC"),
    ("Server errors (HTTP 5xx) by service",
     "SELECT doc->>'service' AS service, count(*) FROM {t} "
     "WHERE (doc #>> '{{http,status}}')::int >= 500 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5"),
    ("Slowest requests",
     "SELECT doc->>'id' AS id, doc #>> '{{http,path}}' AS path, doc #>> '{{http,duration_ms}}' AS ms FROM {t} "
     "WHERE doc->>'type' = 'http_request' ORDER BY (doc #>> '{{http,duration_ms}}')::numeric DESC, 1 LIMIT 5"),
    ("Revenue by currency",
     "SELECT doc #>> '{{cart,currency}}' AS currency, count(*), sum((doc #>> '{{cart,total}}')::numeric) AS revenue "
     "FROM {t} WHERE doc->>'action' = 'purchase' GROUP BY 1 ORDER BY 1"),
    ("Top client cities (unicode)",
     "SELECT doc #>> '{{client,geo,city}}' AS city, count(*) FROM {t} "
     "WHERE doc #> '{{client,geo}}' IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5"),
    ("Sum of a bigint field",
     "SELECT sum((doc->>'id')::bigint) AS sum_of_ids FROM {t}"),
    ("Numbers as written (fastjson keeps 1.0, 1e3, -0.0; jsonb normalises them)",
     "SELECT doc #>> '{{metrics,score}}' AS score FROM {t} WHERE doc #>> '{{metrics,score}}' ~ '[eE]|\\.0$|^-0' "
     "ORDER BY (doc->>'id')::bigint LIMIT 5"),
    ("A 30-digit integer, exact",
     "SELECT doc->'big_id' AS big_id FROM {t} WHERE doc->'big_id' IS NOT NULL ORDER BY (doc->>'id')::bigint LIMIT 3"),
    ("Whole documents as text",
     "SELECT count(*), sum(length(doc::text)) AS text_bytes FROM {t}"),
]


def timed(cur, sql, reps=3):
    """Run sql reps times; return (best seconds, rows of the last run)."""
    best, rows = None, None
    for _ in range(reps):
        t0 = time.perf_counter()
        cur.execute(sql)
        rows = cur.fetchall()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best, rows


def show(rows, cols):
    widths = [max(len(c), *(len(str(r[i])) for r in rows)) if rows else len(c) for i, c in enumerate(cols)]
    print("    " + " | ".join(c.ljust(w) for c, w in zip(cols, widths)))
    for r in rows:
        print("    " + " | ".join(str(v).ljust(w) for v, w in zip(r, widths)))


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        data = f.read()
    with psycopg.connect(dbname="postgres", autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("DROP EXTENSION IF EXISTS fastjson CASCADE")
        cur.execute("CREATE EXTENSION fastjson")
        cur.execute("SELECT fastjson_simd_kernel(), version()")
        kernel, version = cur.fetchone()
        print(f"\n{version}\nfastjson SIMD kernel: {kernel}\nevent log: {path} ({len(data):,} bytes)\n")
        print("Loading with COPY (the CSV trick: one JSON document a line, no quoting):")
        for typ in ("fastjson", "jsonb"):
            cur.execute(f"DROP TABLE IF EXISTS events_{typ}")
            cur.execute(f"CREATE TABLE events_{typ} (id bigserial, doc {typ})")
            t0 = time.perf_counter()
            with cur.copy(f"COPY events_{typ}(doc) FROM STDIN WITH (FORMAT csv, QUOTE e'\\x01', DELIMITER e'\\x02')") as cp:
                cp.write(data)
            dt = time.perf_counter() - t0
            cur.execute(f"VACUUM ANALYZE events_{typ}")
            cur.execute(f"SELECT count(*), pg_total_relation_size('events_{typ}') FROM events_{typ}")
            n, size = cur.fetchone()
            print(f"  {typ:9} {n:,} rows in {dt:6.2f} s, table {size / 1e6:7.1f} MB")
        print()
        for title, q in QUERIES:
            sql_f = q.format(t="events_fastjson")
            t_f, rows_f = timed(cur, sql_f)
            t_j, rows_j = timed(cur, q.format(t="events_jsonb"))
            cols = [d.name for d in cur.description]
            print(f"-- {title}")
            print(f"   {sql_f}")
            show(rows_f, cols)
            same = "same results" if [tuple(map(str, r)) for r in rows_f] == [tuple(map(str, r)) for r in rows_j] \
                else "results differ in spelling (jsonb normalises numbers and spacing)"
            print(f"   fastjson {t_f * 1000:8.1f} ms   jsonb {t_j * 1000:8.1f} ms   "
                  f"jsonb/fastjson {t_j / t_f:5.2f}x   {same}\n")


if __name__ == "__main__":
    main()
