#!/usr/bin/env python3
"""Two builds of fastjson.so on loading a log and on the lookups after it.

A development tool, not part of `make bench`. Each variant is a table loaded
by COPY from an NDJSON file the server can read: fastjson written by build A
or B at a compression level, with the column's compression pglz or lz4, or
jsonb or text for context. Each round loads every variant once, in an order
that rotates, each in a new connection after installing its build's
fastjson.so in the server's library folder (renamed into place), and then
times the lookups of bench/storage_bench.py on the table just loaded, with
the build that wrote it, serially, best of --reps. It prints each variant's
best (median) COPY and lookups, the ratio of its COPY to the first variant's,
and its table's sizes and how many values PostgreSQL compressed.

    make && cp fastjson.so /tmp/B.so        # and the other build's as /tmp/A.so
    bench/store_ab.py --a /tmp/A.so --b /tmp/B.so --log session --file /tmp/session.ndjson \\
        --variants A:1:pglz,B:1:pglz,B:2:pglz,jsonb,text --rounds 3

libpq's environment (PGHOST, PGPORT, PGUSER) names a development cluster of
the PostgreSQL whose `pg_config --pkglibdir` is given (default: the one on
PATH): the library is replaced under it. The build left installed is B.
"""
import argparse
import statistics
import time

import psycopg
from psycopg import sql

from storage_bench import COPY_OPTS, QUERIES
from swap_build import install_build, library_path


def parse_variant(v):
    """'A:1:pglz' -> ('A', 1, 'pglz'); 'jsonb' or 'text' -> (None, None, type)."""
    if v in ("jsonb", "text"):
        return (None, None, v)
    build, level, comp = v.split(":")
    if build not in ("A", "B") or comp not in ("pglz", "lz4"):
        raise ValueError(v)
    return (build, int(level), comp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="build A's fastjson.so")
    ap.add_argument("--b", required=True, help="build B's fastjson.so")
    ap.add_argument("--log", choices=sorted(QUERIES), required=True)
    ap.add_argument("--file", required=True, help="NDJSON file the server can read")
    ap.add_argument("--variants", default="A:1:pglz,B:1:pglz,jsonb,text",
                    help="comma-separated: BUILD:LEVEL:pglz|lz4, jsonb, text")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=5, help="runs of each lookup after each load")
    ap.add_argument("--pg-config", default="pg_config")
    args = ap.parse_args()
    variants = [parse_variant(v) for v in args.variants.split(",")]
    names = args.variants.split(",")
    lib = library_path(args.pg_config)
    builds = {"A": args.a, "B": args.b}
    installed = [None]

    def install(b):
        if b is None or installed[0] == b:
            return
        install_build(builds[b], lib)
        installed[0] = b

    queries = [(label, q) for label, q in QUERIES[args.log] if label != "bare scan"]
    copy_s = {n: [] for n in names}
    look = {n: {label: [] for label, _ in queries} for n in names}
    sizes = {}
    for r in range(args.rounds):
        for j in range(len(variants)):
            i = (r + j) % len(variants)
            build, level, comp = variants[i]
            name = names[i]
            tab = "store_ab_%d" % i
            install(build)
            with psycopg.connect(autocommit=True) as c:
                cur = c.cursor()
                cur.execute("CREATE EXTENSION IF NOT EXISTS fastjson")
                cur.execute("SET jit = off")
                cur.execute("SET max_parallel_workers_per_gather = 0")
                cur.execute("DROP TABLE IF EXISTS %s" % tab)
                cur.execute("CREATE TABLE %s (doc %s)" % (tab, "fastjson" if build else comp))
                if build:
                    cur.execute("ALTER TABLE %s ALTER COLUMN doc SET COMPRESSION %s" % (tab, comp))
                    cur.execute("SET fastjson.compression_level = %d" % level)
                cur.execute("CHECKPOINT")
                t0 = time.perf_counter()
                cur.execute(sql.SQL("COPY {} (doc) FROM {} " + COPY_OPTS).format(sql.Identifier(tab),
                                                                                 sql.Literal(args.file)))
                copy_s[name].append(time.perf_counter() - t0)
                cur.execute("VACUUM ANALYZE %s" % tab)
                if comp != "text":
                    for label, q in queries:
                        best = None
                        for _ in range(args.reps):
                            t0 = time.perf_counter()
                            cur.execute(q.format(t=tab))
                            cur.fetchall()
                            dt = time.perf_counter() - t0
                            best = dt if best is None else min(best, dt)
                        look[name][label].append(best)
                cur.execute("SELECT pg_relation_size(%s), pg_total_relation_size(%s), "
                            "(SELECT sum(pg_column_size(doc)) FROM " + tab + "), "
                            "(SELECT count(*) FROM " + tab + " WHERE pg_column_compression(doc) IS NOT NULL)",
                            (tab, tab))
                sizes[name] = cur.fetchone()
    base = min(copy_s[names[0]])
    print("| variant | COPY s, best (median) | COPY / %s | heap MB | total MB | sum of pg_column_size MB "
          "| compressed by PostgreSQL |" % names[0])
    print("|---|--:|--:|--:|--:|--:|--:|")
    for n in names:
        c = copy_s[n]
        heap, total, col, comp = sizes[n]
        print("| %s | %.3f (%.3f) | %.2f | %.1f | %.1f | %.1f | %d |" % (
            n, min(c), statistics.median(c), min(c) / base, heap / 1e6, total / 1e6, col / 1e6, comp))
    print()
    print("Lookups on each table with the build that wrote it: ms, best of %d runs after each load, then the "
          "best (median) over %d loads." % (args.reps, args.rounds))
    print()
    shown = [n for n in names if variants[names.index(n)][2] != "text"]
    print("| query | " + " | ".join(shown) + " |")
    print("|---|" + "--:|" * len(shown))
    for label, _ in queries:
        print("| %s | %s |" % (label.replace("|", "\\|"), " | ".join(
            "%.1f (%.1f)" % (1000 * min(look[n][label]), 1000 * statistics.median(look[n][label])) for n in shown)))
    install("B")


if __name__ == "__main__":
    main()
