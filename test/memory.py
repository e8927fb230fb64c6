#!/usr/bin/python3
"""memory.py — a backend's memory stays flat however many rows fastjson handles.

usage: /usr/bin/python3 test/memory.py [--rows N] [--slack-mb M]

Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE) to a
server on this machine, and reads the backend's /proc/<pid>/status (run as
root or as the server's user). Each step runs in a new session (so that
memory an earlier step freed cannot hide a leak), with parallel query off (so
the backend does all the work): a small warm-up run, then N/10 rows, then N
rows (N = 1,000,000 by default). A thread samples the backend's private
memory (RssAnon) every 10 ms; the peak for N rows must not exceed the peak
for N/10 rows by more than the slack (8 MB by default), and the total of
pg_backend_memory_contexts after the step must not grow by more than the
slack either. Steps:

  COPY ... FROM STDIN (the CSV trick) into a fastjson column
  SELECT sum(length(f->>'k')), and more extraction, output, conversion,
  containment and failing-parse queries over the table

Then the same with N/50 large documents (about 6 kB of text each, held in
the stored form and out of line, so that every whole read detoasts a copy
and decompresses it): a sort on the document, count(DISTINCT) and a hash
index build, each of which compares or hashes whole documents in a memory
context that lasts for the statement, and = against a constant document,
whose tape is kept for the transaction (doc/format.md, section 7,
"Constants in the stored form") and must not be kept again for each row.

Prints the figures; exits 1 if any step's memory grows with the row count.
"""
import argparse
import hashlib
import sys
import threading
import time

import psycopg

def rss_anon_kb(pid):
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    raise RuntimeError(f"no RssAnon in /proc/{pid}/status")


class Sampler(threading.Thread):
    """Samples a process's RssAnon every 10 ms until stopped; keeps the peak."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = rss_anon_kb(pid)
        self.samples = 0
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            self.peak = max(self.peak, rss_anon_kb(self.pid))
            self.samples += 1
            time.sleep(0.01)

    def stop(self):
        self.done.set()
        self.join()
        self.peak = max(self.peak, rss_anon_kb(self.pid))
        return self.peak


def doc(i):
    return (f'{{"id":{i},"k":"val{i % 977}","a":{{"b":[{i % 13},2.5,"x{i % 7}"],"c":{{"d":{i * 3}}}}},'
            f'"t":true,"n":null,"s":"h\\u00e9llo w\u00f6rld","num":1.5e{i % 9},"dup":1,"dup":{i % 5}}}')


def large_doc(i):
    """About 6 kB of text: too little repeats for its stored form to fit in a row."""
    items = ",".join(f'{{"name":"{hashlib.md5(f"{i}-{j}".encode()).hexdigest()}","n":{i * 41 + j},'
                     f'"tags":["{hashlib.sha1(f"{j}/{i}".encode()).hexdigest()[:12]}","t{j % 9}"]}}'
                     for j in range(60))
    return f'{{"id":{i},"kind":"k{i % 11}","items":[{items}],"end":true}}'


def copy_rows(conn, table, first, count, make=doc):
    with conn.cursor().copy(f"COPY {table} (f) FROM STDIN WITH (FORMAT csv, QUOTE e'\\x01', DELIMITER e'\\x02')") as cp:
        batch = []
        for i in range(first, first + count):
            batch.append(make(i))
            if len(batch) == 5000:
                cp.write("\n".join(batch) + "\n")
                batch = []
        if batch:
            cp.write("\n".join(batch) + "\n")


def contexts(conn):
    return conn.execute("SELECT sum(total_bytes), count(*) FROM pg_backend_memory_contexts").fetchone()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--slack-mb", type=float, default=8.0)
    args = ap.parse_args()
    big, small = args.rows, args.rows // 10
    slack_kb = args.slack_mb * 1024

    conn = psycopg.connect(autocommit=True)
    conn.execute("SET client_min_messages = warning")
    conn.execute("CREATE EXTENSION IF NOT EXISTS fastjson")
    for t in ("mem_warm", "mem_small", "mem_big"):
        conn.execute(f"DROP TABLE IF EXISTS {t}")
        conn.execute(f"CREATE UNLOGGED TABLE {t} (f fastjson)")
    print(f"{small} vs {big} rows, each step in a new session; slack {args.slack_mb} MB", flush=True)

    failures = []

    def measure(sconn, pid, fn):
        s = Sampler(pid)
        s.start()
        t0 = time.monotonic()
        fn(sconn)
        secs = time.monotonic() - t0
        peak = s.stop()
        total, n = contexts(sconn)
        return peak, total, secs, s.samples

    def step(label, make, small=small, big=big):
        """In a new session: make(table, rows) gives a function of the
        connection; run it on the warm-up table, then N/10 rows, then N."""
        with psycopg.connect(autocommit=True) as sconn:
            sconn.execute("SET max_parallel_workers_per_gather = 0")
            spid = sconn.execute("SELECT pg_backend_pid()").fetchone()[0]
            p0 = rss_anon_kb(spid)
            measure(sconn, spid, make("mem_warm", small // 10))
            p1, c1, t1, n1 = measure(sconn, spid, make("mem_small", small))
            p2, c2, t2, n2 = measure(sconn, spid, make("mem_big", big))
        grow_peak = p2 - p1
        grow_ctx = (c2 - c1) / 1024
        ok = grow_peak <= slack_kb and grow_ctx <= slack_kb
        print(f"{label}\n    peak RssAnon {p1 / 1024:6.1f} MB for {small} rows ({t1:5.2f} s, {n1} samples), "
              f"{p2 / 1024:6.1f} MB for {big} rows ({t2:5.2f} s, {n2} samples); new session {p0 / 1024:.1f} MB; "
              f"contexts {c1 / 1048576:.2f} -> {c2 / 1048576:.2f} MB: {'ok' if ok else 'GROWS'}", flush=True)
        if not ok:
            failures.append(f"{label}: peak {p1 / 1024:.1f} -> {p2 / 1024:.1f} MB, "
                            f"contexts {c1 / 1048576:.2f} -> {c2 / 1048576:.2f} MB")

    step("COPY FROM STDIN (CSV trick) into a fastjson column",
         lambda t, n: lambda c: copy_rows(c, t, 0, n))
    for t in ("mem_warm", "mem_small", "mem_big"):
        conn.execute(f"VACUUM ANALYZE {t}")

    queries = [
        ("SELECT sum(length(f->>'k'))", "SELECT sum(length(f->>'k')) FROM {t}"),
        ("SELECT sum((f #>> '{a,c,d}')::bigint)", "SELECT sum((f #>> '{{a,c,d}}')::bigint) FROM {t}"),
        ("SELECT count(*) WHERE f @> '{\"dup\":3}'", "SELECT count(*) FROM {t} WHERE f @> '{{\"dup\":3}}'"),
        ("SELECT sum(length(f::text))", "SELECT sum(length(f::text)) FROM {t}"),
        ("SELECT sum(length(f::jsonb::text))", "SELECT sum(length(f::jsonb::text)) FROM {t}"),
        ("SELECT sum(length(fastjson_to_cbor(f)))", "SELECT sum(length(fastjson_to_cbor(f))) FROM {t}"),
        ("SELECT count(*) WHERE fastjson_from_cbor(fastjson_to_cbor(f)) = f",
         "SELECT count(*) FROM {t} WHERE fastjson_from_cbor(fastjson_to_cbor(f)) = f"),
        ("SELECT count(DISTINCT f->'a') (hashing)", "SELECT count(DISTINCT f->'a') FROM {t}"),
        ("SELECT sum(length(fastjson_set(f, '{a,b,0}', f->'id')::text))",
         "SELECT sum(length(fastjson_set(f, '{{a,b,0}}', f->'id')::text)) FROM {t}"),
        ("failing parses: SELECT count(*) WHERE NOT fastjson_valid(broken text)",
         "SELECT count(*) FROM {t} WHERE NOT fastjson_valid(left(f::text, -2) || ',]')"),
    ]
    for label, q in queries:
        step(label, lambda t, n, q=q: lambda c: c.execute(q.format(t=t)).fetchall())

    for t in ("mem_warm", "mem_small", "mem_big"):
        conn.execute(f"DROP TABLE {t}")

    # large documents, out of line in the stored form: N/50 rows against N/500
    large = {"mem_warm": max(big // 5000, 1), "mem_small": max(big // 500, 1), "mem_big": max(big // 50, 1)}
    for t, n in large.items():
        conn.execute(f"CREATE UNLOGGED TABLE {t} (f fastjson)")
        copy_rows(conn, t, 0, n, large_doc)
        conn.execute(f"VACUUM ANALYZE {t}")
    forms = conn.execute("SELECT count(*), count(*) FILTER (WHERE fastjson_storage_form(f) = 'blocks' AND "
                         "pg_column_size(f) > 2032) FROM mem_big").fetchone()
    print(f"large documents: {large['mem_small']} vs {large['mem_big']} rows, "
          f"{forms[1]} of {forms[0]} in the stored form and out of line", flush=True)
    if forms[1] * 10 < forms[0] * 9:
        failures.append(f"large documents: only {forms[1]} of {forms[0]} in the stored form and out of line")
    probe = large_doc(7).replace("{", "{{").replace("}", "}}")
    large_queries = [
        ("large documents: ORDER BY f (a sort compares whole documents)",
         ["SELECT count(*) FROM (SELECT f FROM {t} ORDER BY f) s"]),
        ("large documents: count(DISTINCT f)", ["SELECT count(DISTINCT f) FROM {t}"]),
        ("large documents: CREATE INDEX USING hash (f)",
         ["CREATE INDEX {t}_hash ON {t} USING hash (f)", "DROP INDEX {t}_hash"]),
        ("large documents: count(*) WHERE f = a constant document",
         ["SELECT count(*) FROM {t} WHERE f = '" + probe + "'::fastjson"]),
    ]
    for label, qs in large_queries:
        step(label, lambda t, n, qs=qs: lambda c: [c.execute(q.format(t=t)) for q in qs],
             large["mem_small"], large["mem_big"])
    for t in ("mem_warm", "mem_small", "mem_big"):
        conn.execute(f"DROP TABLE {t}")
    print()
    if failures:
        print(f"memory.py: memory grows with the row count in {len(failures)} step(s):")
        for f in failures:
            print(f"  {f}")
        return 1
    print("memory.py: memory is flat in every step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
