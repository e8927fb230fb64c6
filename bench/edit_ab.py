#!/usr/bin/env python3
"""Two builds of fastjson.so on the paths that edit or build documents.

A development tool, not part of `make bench`. It installs each build's
fastjson.so in turn into the server's library folder (renamed into place,
never overwritten while a backend may map it), opens a new connection (a new
backend loads the library afresh), and times on one event log, serially:
an UPDATE of every row (`doc || '{"seen":true}'`, and the same on a jsonb
copy), the lookups after it, full text output, `||` sent to the client with
and through a sort (on another column, and on the document), PL/pgSQL loops that grow one document by `||` (and
jsonb's), CREATE TABLE AS of `fastjson_build_object`, scalar subqueries and a
GROUP BY over the log in groups of about 10 rows, and a roll-up table of
`fastjson_agg` with lookups in its first and last documents. The builds take
turns, A then B, B then A, for ROUNDS rounds; it prints best and median of
each and B's time over A's at the best, and the sizes after the UPDATE.

    make && cp fastjson.so /tmp/B.so        # and the other build's as /tmp/A.so
    bench/edit_ab.py --a /tmp/A.so --b /tmp/B.so --log session --file /tmp/session.ndjson --rounds 5

libpq's environment (PGHOST, PGPORT, PGUSER) names a cluster of the
PostgreSQL whose `pg_config --pkglibdir` is given (default: the one on
PATH). It must be a development cluster: the library is replaced under it.
The build left installed at the end is B.
"""
import argparse
import statistics
import time

import psycopg

from swap_build import install_build, library_path

# the first key each log's roll-up lookups read
FIRST_KEY = {"session": "kind", "corpus": "type"}

QUERIES = {
    "session": {
        "->> first key": "SELECT count(*) FROM upd WHERE doc->>'kind' = 'checkout'",
        "#>> three levels": "SELECT count(*) FROM upd WHERE doc #>> '{session,user,geo,city}' = 'Zürich'",
        "->> last key to bigint": "SELECT sum((doc->>'seq')::bigint) FROM upd",
        "@>": "SELECT count(*) FROM upd WHERE doc @> '{\"kind\":\"checkout\"}'",
    },
    "corpus": {
        "->> filter": "SELECT count(*) FROM upd WHERE doc->>'type' = 'PushEvent'",
        "#>> nested": "SELECT count(*) FROM upd WHERE doc #>> '{user,screen_name}' LIKE 'a%'",
        "->> to bigint": "SELECT sum((doc->>'id')::bigint) FROM upd",
        "@>": "SELECT count(*) FROM upd WHERE doc @> '{\"type\":\"PushEvent\"}'",
    },
}

LOOP = ("DO $$ DECLARE d {t}; BEGIN FOR j IN 1..{outer} LOOP d := '{{}}'; FOR i IN 1..{inner} LOOP "
        "d := d || {t}_build_object('k' || i, md5(i::text)); END LOOP; END LOOP; END $$")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="build A's fastjson.so")
    ap.add_argument("--b", required=True, help="build B's fastjson.so")
    ap.add_argument("--log", choices=sorted(QUERIES), required=True)
    ap.add_argument("--file", required=True, help="the log's NDJSON (read by this script)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pg-config", default="pg_config")
    args = ap.parse_args()
    lib = library_path(args.pg_config)
    builds = {"A": args.a, "B": args.b}

    def install(b):
        install_build(builds[b], lib)

    src = "edit_ab_" + args.log
    install("B")
    with psycopg.connect(autocommit=True) as c:
        cur = c.cursor()
        cur.execute("CREATE EXTENSION IF NOT EXISTS fastjson")
        cur.execute("SELECT to_regclass(%s)", (src,))
        if cur.fetchone()[0] is None:
            cur.execute("CREATE TABLE %s (doc text)" % src)
            with cur.copy("COPY %s (doc) FROM STDIN" % src) as cp, open(args.file, "rb") as f:
                for line in f:
                    cp.write(line.replace(b"\\", b"\\\\"))
            cur.execute("VACUUM ANALYZE %s" % src)

    q = {"UPDATE every row, doc || '{\"seen\":true}'": "UPDATE upd SET doc = doc || '{\"seen\":true}'",
         "the same on jsonb (context)": "UPDATE updj SET doc = doc || '{\"seen\":true}'"}
    q.update(QUERIES[args.log])
    q.update({
        "full text output": "SELECT sum(octet_length(doc::text)) FROM upd",
        "|| sent to the client": "SELECT sum(octet_length((doc || '{\"a\":1}')::text)) FROM upd",
        "|| through a sort": "SELECT sum(octet_length(x::text)) FROM (SELECT doc || '{\"a\":1}' AS x, "
                             "random() AS r FROM upd ORDER BY r) s",
        "ORDER BY the edited document": "SELECT sum(octet_length(x::text)) FROM (SELECT doc || '{\"a\":1}' AS x "
                                        "FROM upd ORDER BY 1) s",
        "PL/pgSQL || loop, 200 documents of up to 5 kB": LOOP.format(t="fastjson", outer=200, inner=100),
        "the same with jsonb (context)": LOOP.format(t="jsonb", outer=200, inner=100),
        "PL/pgSQL || loop, one document of 150 kB": LOOP.format(t="fastjson", outer=1, inner=3000),
        "the same with jsonb (context) ": LOOP.format(t="jsonb", outer=1, inner=3000),
        "CREATE TABLE AS fastjson_build_object": "CREATE TEMP TABLE bo AS SELECT "
                                                 "fastjson_build_object('id', 1, 'doc', doc) AS d FROM upd",
        "scalar subquery: doc || x of a group, sent to the client":
            "SELECT sum(octet_length((SELECT doc || '{\"a\":1}' FROM updg WHERE updg.g = o.g LIMIT 1)::text)) "
            "FROM updg_groups o",
        "scalar subquery: fastjson_agg of a group, sent to the client":
            "SELECT sum(octet_length((SELECT fastjson_agg(doc) FROM updg WHERE updg.g = o.g)::text)) "
            "FROM updg_groups o",
        "GROUP BY: fastjson_agg of each group, sent to the client":
            "SELECT sum(octet_length(a::text)) FROM (SELECT g, fastjson_agg(doc) AS a FROM updg GROUP BY g) s",
        "roll-up: CREATE TABLE AS fastjson_agg, 10 documents a row":
            "CREATE TEMP TABLE ru AS SELECT g, fastjson_agg(doc) AS a FROM "
            "(SELECT row_number() OVER () / 10 AS g, doc FROM upd) s GROUP BY g",
        "roll-up: the first document's first key": "SELECT count(*) FROM ru WHERE a->0->>'%s' IS NOT NULL"
                                                   % FIRST_KEY[args.log],
        "roll-up: the last document's first key": "SELECT count(*) FROM ru WHERE a->-1->>'%s' IS NOT NULL"
                                                  % FIRST_KEY[args.log],
    })
    times = {k: {"A": [], "B": []} for k in q}
    sizes = {}
    for r in range(args.rounds):
        for b in ("A", "B") if r % 2 == 0 else ("B", "A"):
            install(b)
            with psycopg.connect(autocommit=True) as c:
                cur = c.cursor()
                cur.execute("SET jit = off")
                cur.execute("SET max_parallel_workers_per_gather = 0")
                cur.execute("DROP TABLE IF EXISTS upd, updj")
                cur.execute("CREATE TABLE upd AS SELECT doc::fastjson AS doc FROM %s" % src)
                cur.execute("CREATE TABLE updj AS SELECT doc::jsonb AS doc FROM %s" % src)
                cur.execute("VACUUM upd")
                cur.execute("VACUUM updj")
                # the log in groups of about 10 rows, for the subqueries and the roll-up
                cur.execute("DROP TABLE IF EXISTS updg, updg_groups")
                cur.execute("CREATE TABLE updg AS SELECT row_number() OVER () / 10 AS g, doc::fastjson AS doc FROM %s" % src)
                cur.execute("CREATE INDEX ON updg (g)")
                cur.execute("CREATE TABLE updg_groups AS SELECT DISTINCT g FROM updg")
                cur.execute("VACUUM ANALYZE updg")
                cur.execute("VACUUM ANALYZE updg_groups")
                for k, sql in q.items():
                    t0 = time.perf_counter()
                    cur.execute(sql)
                    times[k][b].append(time.perf_counter() - t0)
                    if sql.startswith("UPDATE upd "):
                        cur.execute("SELECT sum(pg_column_size(doc)), count(*) FILTER "
                                    "(WHERE pg_column_compression(doc) IS NOT NULL), count(*) FILTER "
                                    "(WHERE fastjson_storage_form(doc) = 'blocks') FROM upd")
                        sizes[b] = cur.fetchone()
                cur.execute("DROP TABLE IF EXISTS bo, ru, upd, updj, updg, updg_groups")
    install("B")
    print("| %s log | A best s | A median | B best s | B median | B / A at the best |" % args.log)
    print("|---|--:|--:|--:|--:|--:|")
    for k in q:
        a, b = times[k]["A"], times[k]["B"]
        print("| %s | %.3f | %.3f | %.3f | %.3f | %.2f |" % (k.replace("|", "\\|"), min(a), statistics.median(a), min(b),
                                                           statistics.median(b), min(b) / min(a)))
    print()
    for b in ("A", "B"):
        col, pg, blocks = sizes[b]
        print("%s after the UPDATE: sum of pg_column_size %.1f MB, %d values compressed by PostgreSQL, %d in blocks"
              % (b, col / 1e6, pg, blocks))


if __name__ == "__main__":
    main()
