#!/usr/bin/python3
"""parallel.py — run test/parallel.sql: every query gives the same rows with
and without parallel workers.

usage: /usr/bin/python3 test/parallel.py [test/parallel.sql]

Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE). The
part of the file before the first "-- @query" line is run once (setup); each
query section is then run with max_parallel_workers_per_gather = 0 and = 2,
parallel plans forced (parallel_setup_cost = parallel_tuple_cost = 0,
min_parallel_table_scan_size = min_parallel_index_scan_size = 0). Checks:
the serial plan has no Gather; the parallel plan has one, contains every
"-- @expect" text, and launches workers (EXPLAIN ANALYZE); both runs give the
same rows (the same order for "-- @ordered" sections, the same multiset
otherwise). Prints one line per query; exits 1 on any difference.
"""
import hashlib
import os
import re
import subprocess
import sys
import time

import psycopg

FORCE = {
    "parallel_setup_cost": "0",
    "parallel_tuple_cost": "0",
    "min_parallel_table_scan_size": "0",
    "min_parallel_index_scan_size": "0",
    "max_parallel_workers": "8",
}


def parse(path):
    text = open(path).read()
    parts = re.split(r"^-- @query ", text, flags=re.M)
    setup, queries = parts[0], []
    for part in parts[1:]:
        label, _, body = part.partition("\n")
        q = {"label": label.strip(), "ordered": False, "expect": [], "set": {}, "sql": []}
        for line in body.splitlines():
            if line.startswith("-- @ordered"):
                q["ordered"] = True
            elif line.startswith("-- @expect "):
                q["expect"].append(line[len("-- @expect "):].strip())
            elif line.startswith("-- @set "):
                name, _, value = line[len("-- @set "):].partition("=")
                q["set"][name.strip()] = value.strip()
            elif line.strip() and not line.startswith("--"):
                q["sql"].append(line)
        q["sql"] = "\n".join(q["sql"]).strip().rstrip(";")
        queries.append(q)
    return setup, queries


def configure(conn, workers, extra):
    for name, value in list(FORCE.items()) + list(extra.items()):
        conn.execute(f"SET {name} = '{value}'")
    conn.execute(f"SET max_parallel_workers_per_gather = {workers}")


def plan(conn, sql, analyze=False):
    opts = "ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF" if analyze else "COSTS OFF"
    return "\n".join(r[0] for r in conn.execute(f"EXPLAIN ({opts}) {sql}").fetchall())


def digest(rows, ordered):
    lines = ["\x1f".join("\\N" if v is None else str(v) for v in r) for r in rows]
    if not ordered:
        lines.sort()
    return hashlib.md5("\n".join(lines).encode()).hexdigest(), len(lines)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "parallel.sql")
    setup, queries = parse(path)
    conn = psycopg.connect(autocommit=True)
    t0 = time.monotonic()
    # through psql: the setup holds VACUUM, which cannot run in the implicit
    # transaction of a multi-statement query
    subprocess.run(["/usr/lib/postgresql/15/bin/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1"],
                   input=setup.encode(), check=True)
    n = conn.execute("SELECT count(*), pg_size_pretty(pg_table_size('par')) FROM par").fetchone()
    print(f"parallel: setup {time.monotonic() - t0:.1f} s: table par {n[0]} rows, {n[1]}; {len(queries)} queries")
    failures = []
    for q in queries:
        sql = q["sql"]
        configure(conn, 0, q["set"])
        serial_plan = plan(conn, sql)
        t = time.monotonic()
        serial = digest(conn.execute(sql).fetchall(), q["ordered"])
        t_serial = time.monotonic() - t
        configure(conn, 2, q["set"])
        parallel_plan = plan(conn, sql)
        t = time.monotonic()
        parallel = digest(conn.execute(sql).fetchall(), q["ordered"])
        t_parallel = time.monotonic() - t
        analyzed = plan(conn, sql, analyze=True)
        launched = sum(int(x) for x in re.findall(r"Workers Launched: (\d+)", analyzed))
        for name in list(FORCE) + list(q["set"]) + ["max_parallel_workers_per_gather"]:
            conn.execute(f"RESET {name}")

        problems = []
        if "Gather" in serial_plan:
            problems.append("the serial plan has a Gather")
        if "Gather" not in parallel_plan:
            problems.append("the parallel plan has no Gather")
        for e in q["expect"]:
            if e not in parallel_plan:
                problems.append(f"the parallel plan lacks '{e}'")
        if launched == 0:
            problems.append("no worker launched")
        if serial != parallel:
            problems.append(f"results differ: serial {serial[1]} rows md5 {serial[0]}, "
                            f"parallel {parallel[1]} rows md5 {parallel[0]}")
        gather = "Gather Merge" if "Gather Merge" in parallel_plan else "Gather"
        status = "ok" if not problems else "FAIL: " + "; ".join(problems)
        print(f"  {q['label']:48s} {serial[1]:7d} rows  serial {t_serial:5.2f} s  "
              f"{gather}, {launched} workers {t_parallel:5.2f} s  {status}")
        if problems:
            failures.append(q["label"])
            print("    serial plan:\n      " + serial_plan.replace("\n", "\n      "))
            print("    parallel plan:\n      " + parallel_plan.replace("\n", "\n      "))
    conn.execute("DROP TABLE par, par_dim")
    if failures:
        print(f"parallel: {len(failures)} of {len(queries)} queries failed: {', '.join(failures)}")
        return 1
    print(f"parallel: all {len(queries)} queries give the same rows with and without workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
