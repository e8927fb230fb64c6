#!/usr/bin/python3
"""Lookups in large documents, which PostgreSQL compresses: fastjson against
jsonb, side by side in one run, each type with its default storage. The rows
are the statuses of the corpus's twitter.json, each with a text member of
about 15 kB added last ("body": words of the statuses' texts, drawn with a
fixed seed), about 6 kB compressed.
Both types' storage (extended) stores them out of line. jsonb detoasts the
whole value for every lookup; fastjson reads only the TOAST chunks holding
the blocks a lookup needs, found next to the chunks read last rather than
through the TOAST index, and decodes only the start of those blocks. The timed runs interleave the two
types, best of REPS (median in parentheses). Prints a markdown section.

usage: large_bench.py --corpus DIR --file OUT.ndjson --rows N --reps N
       (PGHOST etc. name the cluster; OUT.ndjson must be readable by the server)
"""
import argparse
import json
import os
import random
import statistics
import time

import psycopg

COPY_OPTS = "WITH (FORMAT csv, QUOTE e'\\x01', DELIMITER e'\\x02')"
TYPES = ("jsonb", "fastjson")
QUERIES = [
    ("`->>` of a member near the start", "SELECT count(*) FROM {t} WHERE doc->>'id_str' LIKE '5%'"),
    ("`#>>` into a nested object", "SELECT count(*) FROM {t} WHERE doc #>> '{{user,screen_name}}' LIKE 'a%'"),
    ("`->>` of the member before the large one", "SELECT count(*) FROM {t} WHERE doc->>'lang' = 'ja'"),
    ("`->>` of the large member itself (needs it all)", "SELECT sum(length(doc->>'body')) FROM {t}"),
]


def write_rows(corpus, path, rows):
    with open(os.path.join(corpus, "twitter.json"), encoding="utf-8") as f:
        text = f.read()
    statuses = json.loads(text)["statuses"]
    words = [w for s in statuses for w in s["text"].split()]
    rnd = random.Random(42)
    body_bytes = 0
    with open(path, "w", encoding="utf-8") as out:
        for i in range(rows):
            doc = dict(statuses[i % len(statuses)])
            doc["seq"] = i
            parts, n = [], 0
            while n < 15000:
                parts.append(rnd.choice(words))
                n += len(parts[-1].encode()) + 1
            doc["body"] = " ".join(parts)
            body_bytes += len(doc["body"].encode())
            out.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
    os.chmod(path, 0o644)
    return len(statuses), os.path.getsize(path), body_bytes // max(rows, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--file", required=True)
    ap.add_argument("--rows", type=int, default=4000)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    nstatuses, size, body = write_rows(args.corpus, args.file, args.rows)
    out = ["## Lookups in large documents (TOAST)", "",
           "`bench/large_bench.py`: the %d statuses of twitter.json, each with a text member of "
           "%s bytes on average added last, %s rows (%.1f MB of NDJSON, mean line %s bytes), loaded "
           "with COPY into a "
           "jsonb and a fastjson table (default pglz compression, each type's default storage). Such rows "
           "are compressed, and both types' storage (extended) moves them out of line. A lookup in jsonb "
           "fetches every TOAST chunk of the value, through the TOAST index, and decompresses all of it; "
           "one in fastjson fetches only the chunks holding the blocks it needs, found next to the chunks "
           "read last, and decodes only the start of those blocks (the heap column shows where the "
           "values are). Serial scans, the timed runs of the two types "
           "interleaved, best of %d (median)." % (nstatuses, f"{body:,}", f"{args.rows:,}", size / 1e6,
                                                  f"{size // max(args.rows, 1):,}", args.reps), ""]
    with psycopg.connect(dbname="postgres", autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("SET jit = off")
        cur.execute("SET max_parallel_workers_per_gather = 0")
        stored = {}
        for typ in TYPES:
            cur.execute("DROP TABLE IF EXISTS large_%s" % typ)
            cur.execute("CREATE TABLE large_%s (doc %s)" % (typ, typ))
            cur.execute("COPY large_%s (doc) FROM '%s' %s" % (typ, args.file, COPY_OPTS))
            cur.execute("VACUUM ANALYZE large_%s" % typ)
            cur.execute("SELECT pg_total_relation_size('large_%s'), pg_relation_size('large_%s'), "
                        "avg(pg_column_size(doc)), "
                        "count(*) FILTER (WHERE pg_column_compression(doc) IS NOT NULL), count(*) "
                        "FROM large_%s" % (typ, typ, typ))
            stored[typ] = cur.fetchone()
        out.append("| type | table MB | heap MB | mean stored value B | rows compressed |")
        out.append("|---|--:|--:|--:|--:|")
        for typ in TYPES:
            total, heap, avg, comp, n = stored[typ]
            out.append("| %s | %.1f | %.1f | %s | %s of %s |" % (typ, total / 1e6, heap / 1e6, f"{int(avg):,}",
                                                            f"{comp:,}", f"{n:,}"))
        out += ["", "| query | jsonb s | fastjson s | fastjson / jsonb time | same result |", "|---|--:|--:|--:|---|"]
        for label, sql in QUERIES:
            times = {t: [] for t in TYPES}
            results = {}
            for typ in TYPES:                       # warm
                cur.execute(sql.format(t="large_" + typ))
                results[typ] = cur.fetchall()
            for rep in range(args.reps):
                for typ in (TYPES if rep % 2 == 0 else TYPES[::-1]):
                    t0 = time.perf_counter()
                    cur.execute(sql.format(t="large_" + typ))
                    cur.fetchall()
                    times[typ].append(time.perf_counter() - t0)
            j, f = times["jsonb"], times["fastjson"]
            out.append("| %s: `%s` | %.3f (%.3f) | %.3f (%.3f) | %.2f× (%.2f×) | %s |" % (
                label, sql.format(t="t"), min(j), statistics.median(j), min(f), statistics.median(f),
                min(f) / min(j), statistics.median(f) / statistics.median(j),
                "yes" if results["jsonb"] == results["fastjson"] else "**NO**"))
        for typ in TYPES:
            cur.execute("DROP TABLE large_%s" % typ)
    os.remove(args.file)
    print("\n".join(out))


if __name__ == "__main__":
    main()
