#!/usr/bin/python3
"""GIN indexes on the event log: fastjson's two operator classes against
jsonb's two, side by side in one run: index build time, index size, and
@> / ? / ?| / ?& queries through the index (sequential scans off), best of
REPS (median in parentheses). Prints a markdown section.

usage: gin_bench.py --file EVENTS.ndjson --reps N   (PGHOST etc. name the cluster)
"""
import argparse
import statistics
import time

import psycopg

COPY_OPTS = "WITH (FORMAT csv, QUOTE e'\\x01', DELIMITER e'\\x02')"
QUERIES = [
    ("@> top-level field", "SELECT count(*) FROM {t} WHERE doc @> '{{\"type\":\"error\"}}'"),
    ("@> nested field", "SELECT count(*) FROM {t} WHERE doc @> '{{\"http\":{{\"status\":503}}}}'"),
    ("@> two fields", "SELECT count(*) FROM {t} WHERE doc @> '{{\"type\":\"user_action\",\"action\":\"purchase\"}}'"),
    ("? rare key", "SELECT count(*) FROM {t} WHERE doc ? 'big_id'"),
    ("?| keys", "SELECT count(*) FROM {t} WHERE doc ?| ARRAY['big_id','note']"),
    ("?& keys", "SELECT count(*) FROM {t} WHERE doc ?& ARRAY['error','http']"),
]


def timed(cur, sql, reps):
    times, result = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        cur.execute(sql)
        result = cur.fetchall()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times), result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", required=True)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    out = ["## GIN indexes on the event log", "",
           "Each type's table holds the same event log; indexes are built one at a time "
           "(`maintenance_work_mem` 256MB), queries run with sequential scans off and the plan "
           "checked to use the index. Best of %d (median). Ratios are jsonb / fastjson: above 1, "
           "fastjson is faster or smaller." % args.reps, ""]
    with psycopg.connect(dbname="postgres", autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("SET jit = off")
        cur.execute("SET maintenance_work_mem = '256MB'")
        for typ in ("fastjson", "jsonb"):
            cur.execute("DROP TABLE IF EXISTS gin_%s" % typ)
            cur.execute("CREATE TABLE gin_%s (id bigserial, doc %s)" % (typ, typ))
            cur.execute("COPY gin_%s (doc) FROM '%s' %s" % (typ, args.file, COPY_OPTS))
            cur.execute("VACUUM ANALYZE gin_%s" % typ)
        build = {}
        for typ, opclass in (("fastjson", "fastjson_ops"), ("jsonb", "jsonb_ops"),
                             ("fastjson", "fastjson_path_ops"), ("jsonb", "jsonb_path_ops")):
            times = []
            for _ in range(args.reps):
                cur.execute("DROP INDEX IF EXISTS gin_%s_idx" % opclass)
                t0 = time.perf_counter()
                cur.execute("CREATE INDEX gin_%s_idx ON gin_%s USING gin (doc %s)" % (opclass, typ, opclass))
                times.append(time.perf_counter() - t0)
            cur.execute("SELECT pg_relation_size('gin_%s_idx')" % opclass)
            build[opclass] = (min(times), statistics.median(times), cur.fetchone()[0])
        out += ["| operator class | build s | size MB |", "|---|--:|--:|"]
        for opclass, (best, med, size) in build.items():
            out.append("| `%s` | %.2f (%.2f) | %.1f |" % (opclass, best, med, size / 1e6))
        out += ["", "| build time jsonb/fastjson | ops %.2f | path_ops %.2f |" % (
            build["jsonb_ops"][0] / build["fastjson_ops"][0], build["jsonb_path_ops"][0] / build["fastjson_path_ops"][0]),
            "| index size jsonb/fastjson | ops %.2f | path_ops %.2f |" % (
            build["jsonb_ops"][2] / build["fastjson_ops"][2], build["jsonb_path_ops"][2] / build["fastjson_path_ops"][2]),
            ""]
        cur.execute("SET enable_seqscan = off")
        for ops in ("ops", "path_ops"):
            out += ["### queries through `*_%s`" % ops, "",
                    "| query | fastjson s | jsonb s | jsonb/fastjson | rows |", "|---|--:|--:|--:|--:|"]
            for typ in ("fastjson", "jsonb"):
                for other in ("ops", "path_ops"):
                    cur.execute("DROP INDEX IF EXISTS gin_%s_%s_idx" % (typ, other))
                cur.execute("DROP INDEX IF EXISTS gin_%s_ops_idx" % typ)
                cur.execute("DROP INDEX IF EXISTS gin_%s_path_ops_idx" % typ)
                cur.execute("CREATE INDEX gin_%s_%s_idx ON gin_%s USING gin (doc %s_%s)" % (typ, ops, typ, typ, ops))
            for label, q in QUERIES:
                if ops == "path_ops" and "@>" not in label:
                    continue
                res = {}
                for typ in ("fastjson", "jsonb"):
                    sql = q.format(t="gin_" + typ)
                    cur.execute("EXPLAIN " + sql)
                    plan = " ".join(r[0] for r in cur.fetchall())
                    if "Bitmap Index Scan" not in plan:
                        raise SystemExit("gin_bench: the index is not used for: " + sql)
                    res[typ] = timed(cur, sql, max(args.reps, 5))
                if res["fastjson"][2] != res["jsonb"][2]:
                    raise SystemExit("gin_bench: fastjson and jsonb disagree on: " + label)
                out.append("| %s | %.4f (%.4f) | %.4f (%.4f) | %.2f | %s |" % (
                    label, res["fastjson"][0], res["fastjson"][1], res["jsonb"][0], res["jsonb"][1],
                    res["jsonb"][0] / res["fastjson"][0], res["fastjson"][2][0][0]))
            out.append("")
        cur.execute("DROP TABLE gin_fastjson, gin_jsonb")
    print("\n".join(out))


if __name__ == "__main__":
    main()
