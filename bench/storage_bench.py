#!/usr/bin/env python3
"""fastjson's storage choices side by side with jsonb.

Loads one NDJSON event log into four tables (jsonb; fastjson with the type's
storage, `extended`; fastjson with `SET STORAGE main`, the type's storage
before 0.2; fastjson with `SET STORAGE external`), then times a bare
scan and the lookups of the benchmark's section 3 on each, serially, the
four tables interleaved (the order rotates each round), and prints the
best and median of each with its ratio to jsonb's best, and the tables'
sizes. Not part of `make bench`: run it against any cluster with libpq's
environment (PGHOST, PGPORT, PGUSER) and an NDJSON file the server can read:

    scripts/gen_session_events.py --rows 20000 --seed 7 --out /tmp/session.ndjson
    bench/storage_bench.py --log session --file /tmp/session.ndjson --reps 5
    scripts/gen_corpus_events.py --rows 100000 --seed 1 --out /tmp/corpus.ndjson
    bench/storage_bench.py --log corpus --file /tmp/corpus.ndjson --reps 5

The tables stay in shared buffers when they fit (the default cluster's
256 MB holds these logs), so the scan row measures reading the heap from
there; the heap sizes say what a scan from disk or the page cache reads.

With `--variants levels` the tables are jsonb and fastjson loaded at
`fastjson.compression_level` 1 (the default, LZ4's fast mode), 2 and 9 (LZ4
HC), and `--copy-reps N` loads each table N times, the tables interleaved
in a rotating order, and reports the best (median) load:

    bench/storage_bench.py --log corpus --file /tmp/corpus.ndjson --variants levels --copy-reps 3 --reps 7

With `--update` every row of each table is then updated once, `doc = doc ||
'{"seen":true}'` (timed after each load, and reported beside COPY), and the
lookups run on the updated tables: what a log enriched in place reads.

    bench/storage_bench.py --log session --file /tmp/session.ndjson --variants type --update --copy-reps 3
"""
import argparse
import sys
import time

import psycopg
from psycopg import sql

COPY_OPTS = "WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"

QUERIES = {
    "session": [
        ("bare scan", "SELECT count(*) FROM {t}"),
        ("->> filter, first key", "SELECT count(*) FROM {t} WHERE doc->>'kind' = 'checkout'"),
        ("#>> three levels", "SELECT count(*) FROM {t} WHERE (doc #>> '{{session,user,geo,city}}') = 'Zürich'"),
        ("->> last key to bigint", "SELECT sum((doc->>'seq')::bigint) FROM {t}"),
        ("@> filter", "SELECT count(*) FROM {t} WHERE doc @> '{{\"kind\":\"checkout\"}}'"),
        ("full text output", "SELECT sum(octet_length(doc::text)) FROM {t}"),
    ],
    "corpus": [
        ("bare scan", "SELECT count(*) FROM {t}"),
        ("->> filter", "SELECT count(*) FROM {t} WHERE doc->>'type' = 'PushEvent'"),
        ("#>> nested", "SELECT count(*) FROM {t} WHERE (doc #>> '{{user,screen_name}}') LIKE 'a%'"),
        ("->> to bigint", "SELECT sum((doc->>'id')::bigint) FROM {t}"),
        ("@> filter", "SELECT count(*) FROM {t} WHERE doc @> '{{\"type\":\"PushEvent\"}}'"),
        ("full text output", "SELECT sum(octet_length(doc::text)) FROM {t}"),
    ],
}

# (name, type, storage, fastjson.compression_level)
VARIANTS = {
    "storage": [("jsonb", "jsonb", None, None), ("fastjson (extended)", "fastjson", None, None),
                ("fastjson main", "fastjson", "main", None), ("fastjson external", "fastjson", "external", None)],
    "type": [("jsonb", "jsonb", None, None), ("fastjson", "fastjson", None, None)],
    "levels": [("jsonb", "jsonb", None, None), ("fastjson level 1", "fastjson", None, 1),
               ("fastjson level 2", "fastjson", None, 2), ("fastjson level 9", "fastjson", None, 9)],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--log", choices=sorted(QUERIES), required=True)
    ap.add_argument("--file", required=True, help="NDJSON file the server can read")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--variants", choices=sorted(VARIANTS), default="storage")
    ap.add_argument("--copy-reps", type=int, default=1, help="loads of each table, interleaved")
    ap.add_argument("--update", action="store_true",
                    help="update every row (doc || '{\"seen\":true}') after each load")
    args = ap.parse_args()
    if args.copy_reps < 1 or args.reps < 1:
        ap.error("--reps and --copy-reps must be at least 1")
    variants = VARIANTS[args.variants]
    conn = psycopg.connect(autocommit=True)
    cur = conn.cursor()
    cur.execute("CREATE EXTENSION IF NOT EXISTS fastjson")
    cur.execute("SET max_parallel_workers_per_gather = 0")
    tables = ["storage_bench_%d" % i for i in range(len(variants))]
    copy_s = {t: [] for t in tables}
    update_s = {t: [] for t in tables}
    for r in range(args.copy_reps):
        for j in range(len(variants)):
            i = (r + j) % len(variants)
            name, typ, storage, level = variants[i]
            tab = tables[i]
            cur.execute("DROP TABLE IF EXISTS %s" % tab)
            cur.execute("CREATE TABLE %s (doc %s)" % (tab, typ))
            if storage:
                cur.execute("ALTER TABLE %s ALTER COLUMN doc SET STORAGE %s" % (tab, storage))
            if level:
                cur.execute("SET fastjson.compression_level = %d" % level)
            cur.execute("CHECKPOINT")
            t0 = time.perf_counter()
            cur.execute(sql.SQL("COPY {} (doc) FROM {} " + COPY_OPTS).format(sql.Identifier(tab),
                                                                             sql.Literal(args.file)))
            copy_s[tab].append(time.perf_counter() - t0)
            if args.update:
                cur.execute("VACUUM %s" % tab)
                t0 = time.perf_counter()
                cur.execute("UPDATE %s SET doc = doc || '{\"seen\":true}'" % tab)
                update_s[tab].append(time.perf_counter() - t0)
            cur.execute("RESET fastjson.compression_level")
    print("| table | COPY s |%s heap MB | total MB | sum of pg_column_size MB | values out of line | compressed by PostgreSQL |"
          % (" UPDATE s |" if args.update else ""))
    print("|---|--:|--:|--:|--:|--:|--:|" + ("--:|" if args.update else ""))
    for (name, typ, storage, level), tab in zip(variants, tables):
        cur.execute("VACUUM ANALYZE %s" % tab)
        cur.execute("SELECT pg_relation_size(%s), pg_total_relation_size(%s), "
                    "(SELECT sum(pg_column_size(doc)) FROM " + tab + "), "
                    "(SELECT reltoastrelid::regclass::text FROM pg_class WHERE oid = %s::regclass)",
                    (tab, tab, tab))
        heap, total, col, toast = cur.fetchone()
        cur.execute("SELECT count(DISTINCT chunk_id) FROM %s" % toast)
        out = cur.fetchone()[0]
        cur.execute("SELECT count(*) FROM %s WHERE pg_column_compression(doc) IS NOT NULL" % tab)
        compressed = cur.fetchone()[0]
        c = sorted(copy_s[tab])
        u = sorted(update_s[tab])
        print("| %s | %.2f%s |%s %.1f | %.1f | %.1f | %d | %d |" % (
            name, c[0], " (%.2f)" % c[len(c) // 2] if len(c) > 1 else "",
            " %.2f%s |" % (u[0], " (%.2f)" % u[len(u) // 2] if len(u) > 1 else "") if u else "",
            heap / 1e6, total / 1e6, col / 1e6, out, compressed))
    print()
    print("Serial, best (median) of %d interleaved runs, ms; ratio of bests to jsonb's." % args.reps)
    print()
    print("| query | " + " | ".join(v[0] for v in variants) + " |")
    print("|---|" + "--:|" * len(variants))
    for label, query in QUERIES[args.log]:
        times = {t: [] for t in tables}
        results = {}
        for t in tables:
            cur.execute(query.format(t=t))  # a warming run
        for r in range(args.reps):
            for j in range(len(tables)):
                t = tables[(r + j) % len(tables)]
                t0 = time.perf_counter()
                cur.execute(query.format(t=t))
                results[t] = cur.fetchone()[0]
                times[t].append(time.perf_counter() - t0)
        base = min(times[tables[0]])
        cells = []
        for t in tables:
            best, med = min(times[t]), sorted(times[t])[len(times[t]) // 2]
            cells.append("%.1f (%.1f) %.2f×" % (best * 1e3, med * 1e3, best / base))
        # jsonb's text output normalises the document; the lookups must agree
        agree = label == "full text output" or len(set(str(v) for v in results.values())) == 1
        print("| %s | %s |%s" % (label, " | ".join(cells), "" if agree else " RESULTS DIFFER: %s" % results))
        if not agree:
            sys.exit(1)
    for t in tables:
        cur.execute("DROP TABLE %s" % t)


if __name__ == "__main__":
    main()
