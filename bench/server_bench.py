#!/usr/bin/env python3
"""server_bench.py — in-server measurements of the fastjson benchmark (scripts/bench.sh).

usage: server_bench.py COMMAND [options]     (connects through libpq's PG* environment)

  info         machine-side facts from the server: version, SIMD kernel, features, lz4
  jsonb-sizes  "file bytes" lines: pg_column_size(doc::jsonb) per corpus file (core_bench)
  corpus       section 2: fastjson_in/json_in/jsonb_in/fastjson_out/jsonb_out MB/s per
               corpus file, a detoast+copy baseline, datum sizes, plan checks
  eventlog     section 3: COPY of an NDJSON event log into text/json/jsonb/fastjson
               columns (pglz, lz4), table sizes, storage shares, queries; --log picks the
               queries written for that log's fields: corpus (one real corpus document a
               row, scripts/gen_corpus_events.py), session (sessions of 1 to 8 real
               documents, 2 to 20 kB, scripts/gen_session_events.py) or generated
               (scripts/gen_events.py)
  pagecache-scan  section 3: the bare count(*) of the real-document logs' jsonb and
               fastjson tables (kept by eventlog --keep-scan-tables) in a cluster restarted
               with a small shared_buffers, so that every heap is read from the kernel's
               page cache through a ring of buffers; then drops the tables
  cbor         section 4: fastjson_to_cbor / fastjson_from_cbor MB/s and the jsonb-based
               SQL conversion (bench/cbor_baseline.sql); n/a when not implemented

Every command writes one JSON file (--out). Timings are client wall time
(time.perf_counter) around execute + fetch of the whole statement. Errors, crashes and
wrong results do not stop the run: they are recorded in the JSON ("problems") and the
report lists them.
"""

import argparse
import json
import os
import re
import statistics
import sys
import time

import psycopg

HERE = os.path.dirname(os.path.abspath(__file__))


def log(msg):
    print("server_bench: " + msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- database


class MeasureError(Exception):
    """A statement failed; str() is the message to report."""


class DB:
    """One autocommit connection; reconnects after the server drops it (a crash)."""

    SESSION = (
        "SET jit = off",
        "SET statement_timeout = '900s'",
        "SET max_parallel_workers_per_gather = 0",
        "SET client_min_messages = warning",
    )

    # glibc serves malloc requests above its mmap threshold (128 KB at start) with a fresh
    # mmap each time, until a large mmap'ed block is freed and the threshold rises. A new
    # backend therefore page-faults on every big palloc block: jsonb_in of twitter.json
    # runs ~25% slower in a fresh session than in one that once freed a large block. One
    # 16 MB allocation at connect puts every session in the same (warm) state.
    MALLOC_WARMUP = "SELECT octet_length(repeat('x', 16000000))"

    def __init__(self, problems, warm=True):
        self.problems = problems
        self.crashes = 0
        self.warm = warm
        self.conn = None
        self.connect()

    def connect(self):
        deadline = time.time() + 60
        while True:
            try:
                # prepare_threshold=None: never a server-side prepared statement, so every
                # statement gets a custom plan in which the bound document is a constant.
                self.conn = psycopg.connect(autocommit=True, prepare_threshold=None)
                break
            except psycopg.OperationalError:
                if time.time() > deadline:
                    raise
                time.sleep(1)
        for s in self.SESSION:
            self.conn.execute(s)
        if self.warm:
            self.conn.execute(self.MALLOC_WARMUP)

    def _run(self, sql, params):
        with self.conn.cursor() as cur:
            cur.execute(sql, params)
            if cur.description is not None:
                return cur.fetchall()
            return cur.rowcount

    def run(self, sql, params=None, what=None):
        """Execute; return rows (or the row count). Raises MeasureError on failure."""
        try:
            return self._run(sql, params)
        except psycopg.Error as e:
            msg = describe_error(e)
            if self.conn.closed or self.conn.broken:
                msg = "SERVER CRASHED (connection lost; see the server log lines below)"
                self.crashes += 1
                log("connection lost during %s; reconnecting" % (what or short_sql(sql)))
                try:
                    self.conn.close()
                except Exception:
                    pass
                self.connect()
            raise MeasureError(msg) from None

    def timed(self, sql, params=None, what=None):
        """(seconds, result) of one execution, client wall time."""
        t0 = time.perf_counter()
        r = self.run(sql, params, what)
        return time.perf_counter() - t0, r

    def one(self, sql, params=None, what=None):
        return self.run(sql, params, what)[0][0]

    def settings(self, pairs):
        for k, v in pairs.items():
            self.run("SET %s = %s" % (k, v))


def describe_error(e):
    diag = getattr(e, "diag", None)
    state = getattr(e, "sqlstate", None) or ""
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    detail = diag.message_detail if diag is not None and diag.message_detail else ""
    out = "%s%s" % ("[%s] " % state if state else "", first)
    if detail:
        out += " (DETAIL: %s)" % detail
    return out


def short_sql(sql):
    s = " ".join(sql.split())
    return s if len(s) <= 90 else s[:87] + "..."


def summarize(times):
    return {"best": min(times), "median": statistics.median(times), "runs": times}


# ------------------------------------------------------------------------ calibration


def calibrate(db, make_sql, params, target, what, max_n=10_000_000):
    """Pick N so that one run takes about target seconds; returns (N, seconds at N or None)."""
    n = 1
    while True:
        t, _ = db.timed(make_sql(n), params, what)
        if t >= target / 5 or n >= max_n:
            break
        n = min(max_n, n * max(2, min(1000, int(target / 5 / max(t, 1e-4)) + 1)))
    if t >= target * 0.7:
        return n, t          # already long enough: keep this run as the first repetition
    return max(1, min(max_n, int(round(n * target / t)))), None


# ------------------------------------------------------------------------ features


def features(db):
    """Which of the optional fastjson SQL features exist in the installed extension."""
    q = db.run("""
        SELECT
          EXISTS (SELECT 1 FROM pg_operator WHERE oprname = '@>' AND oprleft = 'fastjson'::regtype),
          EXISTS (SELECT 1 FROM pg_operator WHERE oprname = '=' AND oprleft = 'fastjson'::regtype
                                               AND oprright = 'fastjson'::regtype),
          EXISTS (SELECT 1 FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
                  WHERE c.opcintype = 'fastjson'::regtype AND c.opcdefault AND a.amname = 'btree'),
          EXISTS (SELECT 1 FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
                  WHERE c.opcintype = 'fastjson'::regtype AND c.opcdefault AND a.amname = 'hash'),
          EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'fastjson_to_cbor'
                  AND pronargs >= 1 AND proargtypes[0] = 'fastjson'::regtype
                  AND pronargs - pronargdefaults <= 1 AND prorettype = 'bytea'::regtype),
          EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'fastjson_from_cbor'
                  AND pronargs >= 1 AND proargtypes[0] = 'bytea'::regtype
                  AND pronargs - pronargdefaults <= 1 AND prorettype = 'fastjson'::regtype),
          EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'fastjson_storage_form'
                  AND pronargs = 1 AND proargtypes[0] = 'fastjson'::regtype
                  AND prorettype = 'text'::regtype)
    """)[0]
    f = {"contains": q[0], "eq": q[1], "btree": q[2], "hash": q[3],
         "to_cbor": q[4], "from_cbor": q[5], "storage_form": q[6]}
    f["group_by_value"] = f["eq"] and (f["btree"] or f["hash"])
    f["cbor"] = f["to_cbor"] and f["from_cbor"]
    return f


def lz4_available(db):
    try:
        db.run("SET default_toast_compression = 'lz4'")
        db.run("RESET default_toast_compression")
        return True
    except MeasureError:
        return False


def cmd_info(args):
    problems = []
    db = DB(problems)
    out = {
        "version": db.one("SELECT version()"),
        "server_version": db.one("SHOW server_version"),
        "simd_kernel": db.one("SELECT fastjson_simd_kernel()"),
        "kernels": [list(r) for r in db.run("SELECT name, supported, in_use FROM fastjson_simd_kernels()")],
        "extversion": (db.run("SELECT extversion FROM pg_extension WHERE extname = 'fastjson'") or [[None]])[0][0],
        "features": features(db),
        "lz4": lz4_available(db),
        "settings": {k: db.one("SHOW " + k) for k in (
            "shared_buffers", "work_mem", "max_parallel_workers_per_gather", "fsync",
            "wal_level", "default_toast_compression", "jit", "max_worker_processes",
            "fastjson.compression_level")},
        "problems": problems,
    }
    out["settings"]["jit"] += " (the benchmark sets jit = off in its sessions)"
    write_json(args.out, out)


# ------------------------------------------------------------------------ corpus files


def corpus_files(args):
    files = []
    for name in args.files.split(","):
        name = name.strip()
        if not name:
            continue
        path = os.path.join(args.corpus, name if name.endswith(".json") else name + ".json")
        if os.path.isfile(path):
            files.append((os.path.basename(path)[:-5], path))
        else:
            log("corpus file %s is missing; skipped" % path)
    return files


def read_doc(path):
    with open(path, "rb") as f:
        raw = f.read()
    return raw.decode("utf-8"), len(raw)


def cmd_jsonb_sizes(args):
    """One "file.json bytes" line per corpus file: the jsonb datum size (core_bench --jsonb-sizes)."""
    problems = []
    db = DB(problems)
    lines = ["# pg_column_size(doc::jsonb) per corpus file, from the server (%s)" %
             db.one("SHOW server_version")]
    for name in sorted(os.listdir(args.corpus)):
        if not name.endswith(".json"):
            continue
        doc, _ = read_doc(os.path.join(args.corpus, name))
        try:
            lines.append("%s %d" % (name, db.one("SELECT pg_column_size(%s::text::jsonb)", (doc,))))
        except MeasureError as e:
            lines.append("# %s: jsonb rejects it: %s" % (name, e))
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


# Section 2 statements. {n} is the repetition count; %s is the document (bound as text).
IN_SQL = "SELECT count((CASE WHEN g > 0 THEN %s::text END)::{type}) FROM generate_series(1, {n}) g"
OUT_SQL = ("SELECT sum(octet_length(d::text)) FROM (SELECT %s::text::{type} AS d OFFSET 0) s, "
           "generate_series(1, {n}) g")
PHYS_SQL = "SELECT sum(octet_length(t || '')) FROM bench_phys, generate_series(1, {n}) g"

CORPUS_OPS = (
    ("fastjson_in", IN_SQL.replace("{type}", "fastjson"), True),
    ("json_in", IN_SQL.replace("{type}", "json"), True),
    ("jsonb_in", IN_SQL.replace("{type}", "jsonb"), True),
    ("fastjson_out", OUT_SQL.replace("{type}", "fastjson"), True),
    ("jsonb_out", OUT_SQL.replace("{type}", "jsonb"), True),
    ("detoast_copy", PHYS_SQL, False),
)


def walk_plan(node):
    yield node
    for child in node.get("Plans", []):
        yield from walk_plan(child)


def explain(db, sql, params=None, analyze=False):
    opts = "ANALYZE, VERBOSE, FORMAT JSON" if analyze else "VERBOSE, FORMAT JSON"
    plan = db.one("EXPLAIN (%s) %s" % (opts, sql), params)
    if isinstance(plan, str):
        plan = json.loads(plan)
    return plan[0]["Plan"]


def check_corpus_plans(db, problems):
    """Check on a small document that input runs per row and output runs per row on a
    value parsed once; returns {op: "ok" | message}."""
    doc = '{"a":[1,2.50,"x"],"b":{"c":null}}'
    res = {}
    db.run("DROP TABLE IF EXISTS bench_phys")
    db.run("CREATE TABLE bench_phys (t text)")
    db.run("ALTER TABLE bench_phys ALTER COLUMN t SET STORAGE EXTERNAL")
    db.run("INSERT INTO bench_phys VALUES (%s)", (doc,))
    for op, sql, bind in CORPUS_OPS:
        try:
            plan = explain(db, sql.format(n=7), (doc,) if bind else None)
            nodes = list(walk_plan(plan))
            top = " ".join(plan.get("Output", []))
            kinds = [x["Node Type"] for x in nodes]
            if op.endswith("_in"):
                ok = (kinds == ["Aggregate", "Function Scan"] and "CASE WHEN" in top
                      and re.search(r"END\)::(fastjson|jsonb?)\)$", top) is not None)
                why = "the cast of the CASE expression is not evaluated per row"
            elif op.endswith("_out"):
                consts = [x for x in nodes if x["Node Type"] == "Result" and
                          all(re.fullmatch(r"'.*'::(fastjson|jsonb)", o, re.S) for o in x.get("Output", []))]
                ok = (kinds[0] == "Aggregate" and "Function Scan" in kinds and len(consts) == 1
                      and re.search(r"\)\)::text\)\)$", top) is not None)
                why = "the value is not a constant parsed once, or ::text is not evaluated per row"
            else:
                ok = (kinds[0] == "Aggregate" and "Function Scan" in kinds and
                      any(x.get("Relation Name") == "bench_phys" for x in nodes) and "|| ''::text" in top)
                why = "the concatenation is not evaluated per joined row"
            res[op] = "ok" if ok else "UNEXPECTED PLAN: %s: %s" % (why, json.dumps(plan)[:600])
        except MeasureError as e:
            res[op] = "error: %s" % e
        if res[op] != "ok":
            problems.append("plan check %s: %s" % (op, res[op]))
    # Function-call counts (track_functions = all counts C functions; pending counts
    # accumulate in the backend, so take differences inside one transaction): the input
    # statement must call the fastjson cast N times; the output statement must parse at
    # most once (at plan time) and call text(fastjson) N times.
    try:
        db.run("SET track_functions = 'all'")
        counts = []
        sqls = dict((o, s) for o, s, _ in CORPUS_OPS)
        stat = ("SELECT coalesce(pg_stat_get_xact_function_calls('fastjson(text)'::regprocedure), 0),"
                "       coalesce(pg_stat_get_xact_function_calls('text(fastjson)'::regprocedure), 0)")
        db.run("BEGIN")
        try:
            counts.append(db.run(stat)[0])
            db.run(sqls["fastjson_in"].format(n=7), (doc,))
            counts.append(db.run(stat)[0])
            db.run(sqls["fastjson_out"].format(n=7), (doc,))
            counts.append(db.run(stat)[0])
        finally:
            db.run("COMMIT")
        db.run("RESET track_functions")
        cin = [counts[1][i] - counts[0][i] for i in (0, 1)]
        cout = [counts[2][i] - counts[1][i] for i in (0, 1)]
        ok = cin == [7, 0] and cout[0] <= 1 and cout[1] == 7
        res["call_counts"] = ("ok" if ok else "UNEXPECTED") + (
            " (N=7: input statement: fastjson(text) %d calls; output statement: fastjson(text) %d,"
            " text(fastjson) %d calls)" % (cin[0], cout[0], cout[1]))
        if not ok:
            problems.append("plan check call counts: " + res["call_counts"])
    except MeasureError as e:
        res["call_counts"] = "not checked: %s" % e
    return res


# The reference anchors in the server (MB/s on a 2-core Zen 4, PostgreSQL 15.20), as listed
# in doc/design.md, section 5 (Reference anchors).
REFERENCE_ANCHORS = {
    "twitter": {"json_in": 707, "jsonb_in": 110, "jsonb_out": 270},
    "citm_catalog": {"json_in": 963, "jsonb_in": 132, "jsonb_out": 643},
    "gsoc-2018": {"json_in": 659, "jsonb_in": 178, "jsonb_out": 262},
    "canada": {"json_in": 573, "jsonb_in": 80, "jsonb_out": 208},
    "github_events": {"json_in": 746, "jsonb_in": 158, "jsonb_out": 310},
}
# The method the reference anchors were measured with (they are reproduced within machine
# noise this way, not with the malloc warm-up): every timed statement in a new
# session (a new backend, as a new psql session), nothing run before it. The parse-only
# targets are read from these. jsonb_out is timed the anchors' way too, through length(),
# which its anchor figures match; fastjson_out is not (through length() the run would
# mostly time the character count): the output target is read from the warmed table.
NEW_SESSION_OPS = (
    ("fastjson_in", IN_SQL.replace("{type}", "fastjson"), "fastjson_in"),
    ("json_in", IN_SQL.replace("{type}", "json"), "json_in"),
    ("jsonb_in", IN_SQL.replace("{type}", "jsonb"), "jsonb_in"),
)
ANCHOR_JSONB_OUT = ("jsonb_out", OUT_SQL.replace("{type}", "jsonb").replace("octet_length(", "length("),
                    "jsonb_out")


def minor_faults(pid):
    """Minor page faults of a local server process so far, or None if it cannot be read."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[7])
    except (OSError, ValueError, IndexError):
        return None


def new_session_runs(problems, ops, doc, size, plan, reps, what):
    """{op: summary} of each op of ops, every run in a new backend with no warm-up, at the
    N the warmed measurement calibrated (plan[key][0] for the op's key); the repetitions
    interleave the ops, so a slow spell of the machine falls on all of them."""
    times = {op: [] for op, _, key in ops if key in plan}
    faults = {op: [] for op in times}
    failed = {}
    for _ in range(reps):
        for op, sql, key in ops:
            if op not in times or op in failed:
                continue
            db = DB(problems, warm=False)
            try:
                pid = db.one("SELECT pg_backend_pid()")
                before = minor_faults(pid)
                t, _ = db.timed(sql.format(n=plan[key][0]), (doc,), "%s %s (new session)" % (what, op))
                after = minor_faults(pid)
                times[op].append(t)
                if before is not None and after is not None:
                    faults[op].append((after - before) / plan[key][0])
            except MeasureError as e:
                failed[op] = str(e)
                problems.append("%s: %s in a new session: %s" % (what, op, e))
            finally:
                db.conn.close()
    out = {}
    for op, _, key in ops:
        if op in failed:
            out[op] = {"error": failed[op]}
        elif times.get(op):
            n = plan[key][0]
            s = summarize(times[op])
            out[op] = {"n": n, "best_s": s["best"], "median_s": s["median"], "runs": times[op],
                       "best_mbps": size * n / s["best"] / 1e6, "median_mbps": size * n / s["median"] / 1e6}
            if faults[op]:
                out[op]["minor_faults_per_row"] = statistics.median(faults[op])
    return out


def datum_sizes(db, name, doc, problems, lz4):
    """pg_column_size of text, jsonb and fastjson: uncompressed (EXTERNAL), pglz, lz4."""
    out = {}
    variants = [("external", None), ("pglz", "pglz")] + ([("lz4", "lz4")] if lz4 else [])
    for label, comp in variants:
        db.run("DROP TABLE IF EXISTS bench_sizes")
        db.run("CREATE TABLE bench_sizes (t text, jb jsonb, fj fastjson)")
        for col in ("t", "jb", "fj"):
            if comp is None:
                db.run("ALTER TABLE bench_sizes ALTER COLUMN %s SET STORAGE EXTERNAL" % col)
            else:
                db.run("ALTER TABLE bench_sizes ALTER COLUMN %s SET COMPRESSION %s" % (col, comp))
        row = {}
        for col, expr in (("text", "%s::text"), ("jsonb", "%s::text::jsonb"), ("fastjson", "%s::text::fastjson")):
            c = {"text": "t", "jsonb": "jb", "fastjson": "fj"}[col]
            try:
                db.run("INSERT INTO bench_sizes (%s) VALUES (%s)" % (c, expr), (doc,))
                row[col] = db.one("SELECT pg_column_size(%s) FROM bench_sizes WHERE %s IS NOT NULL" % (c, c))
            except MeasureError as e:
                row[col] = None
                problems.append("%s: datum size %s (%s): %s" % (name, col, label, e))
        out[label] = row
    db.run("DROP TABLE IF EXISTS bench_sizes")
    return out


def cmd_corpus(args):
    problems = []
    db = DB(problems)
    lz4 = lz4_available(db)
    out = {"method": {}, "files": [], "problems": problems, "reps": args.reps, "target_s": args.target}
    log("section 2: plan checks")
    out["plan_checks"] = check_corpus_plans(db, problems)
    out["new_session_reps"] = args.new_session_reps
    out["anchors"] = REFERENCE_ANCHORS
    for name, path in corpus_files(args):
        doc, size = read_doc(path)
        log("section 2: %s (%d bytes)" % (name, size))
        rec = {"file": name, "bytes": size, "ops": {}, "roundtrip": None}
        # physical baseline: the text in a column with storage external (uncompressed TOAST)
        db.run("TRUNCATE bench_phys")
        db.run("INSERT INTO bench_phys VALUES (%s)", (doc,))
        # correctness: X::fastjson::text::jsonb = X::jsonb
        try:
            same = db.one("SELECT %s::text::fastjson::text::jsonb = %s::text::jsonb", (doc, doc))
            rec["roundtrip"] = "ok" if same else "MISMATCH"
            if not same:
                problems.append("%s: X::fastjson::text::jsonb <> X::jsonb" % name)
        except MeasureError as e:
            rec["roundtrip"] = "error: %s" % e
            problems.append("%s: round trip: %s" % (name, e))
        # calibrate every statement, then interleave the timed repetitions
        plan = {}
        for op, sql, bind in CORPUS_OPS:
            params = (doc,) if bind else None
            try:
                db.timed(sql.format(n=1), params, "%s %s" % (name, op))        # warm-up
                n, first = calibrate(db, lambda k, s=sql: s.format(n=k), params, args.target,
                                     "%s %s" % (name, op))
                plan[op] = (n, [first] if first is not None else [])
            except MeasureError as e:
                rec["ops"][op] = {"error": str(e)}
                problems.append("%s: %s: %s" % (name, op, e))
        for rep in range(args.reps):
            for op, sql, bind in CORPUS_OPS:
                if op not in plan or len(plan[op][1]) >= args.reps:
                    continue
                n, times = plan[op]
                try:
                    t, _ = db.timed(sql.format(n=n), (doc,) if bind else None, "%s %s" % (name, op))
                    times.append(t)
                except MeasureError as e:
                    rec["ops"][op] = {"error": str(e)}
                    del plan[op]
                    problems.append("%s: %s: %s" % (name, op, e))
        for op, (n, times) in plan.items():
            s = summarize(times)
            rec["ops"][op] = {"n": n, "best_s": s["best"], "median_s": s["median"], "runs": times,
                              "best_mbps": size * n / s["best"] / 1e6,
                              "median_mbps": size * n / s["median"] / 1e6}
        ops = NEW_SESSION_OPS + ((ANCHOR_JSONB_OUT,) if name in REFERENCE_ANCHORS else ())
        rec["new_session"] = new_session_runs(problems, ops, doc, size, plan, args.new_session_reps, name)
        rec["sizes"] = datum_sizes(db, name, doc, problems, lz4)
        out["files"].append(rec)
    db.run("DROP TABLE IF EXISTS bench_phys")
    out["method"] = {
        "fastjson_in": IN_SQL.replace("{type}", "fastjson"),
        "json_in": IN_SQL.replace("{type}", "json"),
        "jsonb_in": IN_SQL.replace("{type}", "jsonb"),
        "fastjson_out": OUT_SQL.replace("{type}", "fastjson"),
        "jsonb_out": OUT_SQL.replace("{type}", "jsonb"),
        "detoast_copy": PHYS_SQL,
    }
    write_json(args.out, out)


# ------------------------------------------------------------------------ event log

COPY_OPTS = "WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"
TYPES = ("text", "json", "jsonb", "fastjson")

SERIAL = {"max_parallel_workers_per_gather": "0"}
PARALLEL = {"max_parallel_workers_per_gather": "2", "parallel_setup_cost": "0",
            "parallel_tuple_cost": "0", "min_parallel_table_scan_size": "0"}

# key, label, SQL ({t} = table), types, kind ("serial" | "parallel" | "copy"), needs feature.
# One set of queries per log (--log): the same keys mean the same family of query (the chart
# and the targets compare them), each written for fields that log's documents have; the
# bare scan and the output of whole documents are the same on every log.
QUERY_SCAN = (
    ("scan", "bare scan: `count(*)` (no value read, no detoast)",
     "SELECT count(*) FROM {t}",
     TYPES, "serial", None),
)

QUERIES_OUTPUT = (
    ("text_out", "full text output: `sum(octet_length(doc::text))`",
     "SELECT sum(octet_length(doc::text)) FROM {t}",
     TYPES, "serial", None),
    # for text, text_out reads only the length in the value's header: this is the text
    # column's own detoast and copy, which full text output is compared with
    ("detoast_copy", "the text column's detoast and copy: `sum(octet_length(doc || ''))`",
     "SELECT sum(octet_length(doc || '')) FROM {t}",
     ("text",), "serial", None),
    ("copy_out", "full output as a client gets it: `COPY t TO '/dev/null'`",
     "COPY {t} TO '/dev/null'",
     TYPES, "serial", None),
)

QUERIES_GENERATED = QUERY_SCAN + ((
    ("filter", "`->>` filter: `count(*) WHERE doc->>'type' = 'error'`",
     "SELECT count(*) FROM {t} WHERE doc->>'type' = 'error'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("nested", "`#>>` nested: `count(*) WHERE doc #>> '{http,status}' = '500'`",
     "SELECT count(*) FROM {t} WHERE (doc #>> '{http,status}') = '500'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("arrow", "`->` then `->>`: `count(*) WHERE doc->'http'->>'method' = 'POST'`",
     "SELECT count(*) FROM {t} WHERE doc->'http'->>'method' = 'POST'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("bigint", "`->>` to bigint: `sum((doc->>'id')::bigint)`",
     "SELECT sum((doc->>'id')::bigint) FROM {t}",
     ("json", "jsonb", "fastjson"), "serial", None),
)
    + QUERIES_OUTPUT
    + (
    ("contains", "`@>` filter: `count(*) WHERE doc @> '{\"type\":\"error\"}'`",
     "SELECT count(*) FROM {t} WHERE doc @> '{\"type\":\"error\"}'",
     ("jsonb", "fastjson"), "serial", "contains"),
    ("group_text", "GROUP BY a text field: `doc->>'service', count(*) ... GROUP BY 1`",
     "SELECT doc->>'service', count(*) FROM {t} GROUP BY 1",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("group_value", "GROUP BY a JSON value: `doc->'service', count(*) ... GROUP BY 1`",
     "SELECT doc->'service', count(*) FROM {t} GROUP BY 1",
     ("jsonb", "fastjson"), "serial", "group_by_value"),
    ("parallel", "`->>` filter, parallel scan with 2 workers",
     "SELECT count(*) FROM {t} WHERE doc->>'type' = 'error'",
     ("json", "jsonb", "fastjson"), "parallel", None),
))

# The corpus log (scripts/gen_corpus_events.py): tweets, GitHub events and product rows.
# Only GitHub events have "type", "actor" and "payload", only tweets "user"; every query
# still reads every row (a missing key gives NULL), so each runs over all three kinds. The
# kinds have no last key in common: "id" is the last key of a GitHub event (and the second
# of a tweet), so `bigint` is the last-key lookup of 40 % of the rows.
QUERIES_CORPUS = QUERY_SCAN + ((
    ("filter", "`->>` filter: `count(*) WHERE doc->>'type' = 'PushEvent'`",
     "SELECT count(*) FROM {t} WHERE doc->>'type' = 'PushEvent'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("nested", "`#>>` nested (tweets): `count(*) WHERE doc #>> '{user,screen_name}' LIKE 'a%'`",
     "SELECT count(*) FROM {t} WHERE (doc #>> '{user,screen_name}') LIKE 'a%'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("nested_actor", "`#>>` nested (GitHub events): `count(*) WHERE doc #>> '{actor,login}' LIKE 'a%'`",
     "SELECT count(*) FROM {t} WHERE (doc #>> '{actor,login}') LIKE 'a%'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("arrow", "`->` then `->>`: `count(*) WHERE doc->'payload'->>'action' = 'started'`",
     "SELECT count(*) FROM {t} WHERE doc->'payload'->>'action' = 'started'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("bigint", "`->>` to bigint: `sum((doc->>'id')::bigint)` (tweets: numbers, the second key; GitHub "
     "events: strings of digits, the last key; products: none)",
     "SELECT sum((doc->>'id')::bigint) FROM {t}",
     ("json", "jsonb", "fastjson"), "serial", None),
)
    + QUERIES_OUTPUT
    + (
    ("contains", "`@>` filter: `count(*) WHERE doc @> '{\"type\":\"PushEvent\"}'`",
     "SELECT count(*) FROM {t} WHERE doc @> '{\"type\":\"PushEvent\"}'",
     ("jsonb", "fastjson"), "serial", "contains"),
    ("group_text", "GROUP BY a text field: `doc->>'type', count(*) ... GROUP BY 1`",
     "SELECT doc->>'type', count(*) FROM {t} GROUP BY 1",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("group_value", "GROUP BY a JSON value: `doc->'type', count(*) ... GROUP BY 1`",
     "SELECT doc->'type', count(*) FROM {t} GROUP BY 1",
     ("jsonb", "fastjson"), "serial", "group_by_value"),
    ("parallel", "`->>` filter, parallel scan with 2 workers",
     "SELECT count(*) FROM {t} WHERE doc->>'type' = 'PushEvent'",
     ("json", "jsonb", "fastjson"), "parallel", None),
))

# The session log (scripts/gen_session_events.py): each row a session of 1 to 8 real
# documents, 2 to 20 kB; "kind" is its first key, "seq" (an integer) its last, the city
# three levels down ({session,user,geo,city}); every row has every key the queries read.
QUERIES_SESSION = QUERY_SCAN + ((
    ("filter", "`->>` filter, first key: `count(*) WHERE doc->>'kind' = 'checkout'`",
     "SELECT count(*) FROM {t} WHERE doc->>'kind' = 'checkout'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("nested", "`#>>` nested, three levels: `count(*) WHERE doc #>> '{session,user,geo,city}' = 'Zürich'`",
     "SELECT count(*) FROM {t} WHERE (doc #>> '{session,user,geo,city}') = 'Zürich'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("nested_login", "`#>>` nested, two levels: `count(*) WHERE doc #>> '{session,user,login}' LIKE 'a%'`",
     "SELECT count(*) FROM {t} WHERE (doc #>> '{session,user,login}') LIKE 'a%'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("arrow", "`->` then `->>`: `count(*) WHERE doc->'session'->>'agent' = 'curl/8.5.0'`",
     "SELECT count(*) FROM {t} WHERE doc->'session'->>'agent' = 'curl/8.5.0'",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("bigint", "`->>` to bigint, last key: `sum((doc->>'seq')::bigint)`",
     "SELECT sum((doc->>'seq')::bigint) FROM {t}",
     ("json", "jsonb", "fastjson"), "serial", None),
)
    + QUERIES_OUTPUT
    + (
    ("contains", "`@>` filter: `count(*) WHERE doc @> '{\"kind\":\"checkout\"}'`",
     "SELECT count(*) FROM {t} WHERE doc @> '{\"kind\":\"checkout\"}'",
     ("jsonb", "fastjson"), "serial", "contains"),
    ("group_text", "GROUP BY a text field: `doc->>'kind', count(*) ... GROUP BY 1`",
     "SELECT doc->>'kind', count(*) FROM {t} GROUP BY 1",
     ("json", "jsonb", "fastjson"), "serial", None),
    ("group_value", "GROUP BY a JSON value: `doc->'kind', count(*) ... GROUP BY 1`",
     "SELECT doc->'kind', count(*) FROM {t} GROUP BY 1",
     ("jsonb", "fastjson"), "serial", "group_by_value"),
    ("parallel", "`->>` filter, parallel scan with 2 workers",
     "SELECT count(*) FROM {t} WHERE doc->>'kind' = 'checkout'",
     ("json", "jsonb", "fastjson"), "parallel", None),
))

# The lookups also timed on tables loaded with COMPRESSION lz4 (PostgreSQL 19's default TOAST
# compression, and a common choice before it), for jsonb and fastjson: lz4 decompresses much
# faster than pglz, so jsonb's lookups in compressed values cost less there. These "types" are
# jsonb_lz4 and fastjson_lz4 in the results.
LZ4_TYPES = ("jsonb", "fastjson")
LZ4_KEYS = ("filter", "nested", "nested_actor", "nested_login", "arrow", "bigint", "contains",
            "jp_exists", "jp_match", "jp_first")


def table_of(table, typ):
    """The table of a query type: jsonb_lz4 is the lz4 table of jsonb, jsonb the pglz one."""
    return table("lz4", typ[:-4]) if typ.endswith("_lz4") else table("pglz", typ)


# log name: (table prefix, queries)
EVENT_LOGS = {"corpus": ("cl", QUERIES_CORPUS), "session": ("sl", QUERIES_SESSION),
              "generated": ("ev", QUERIES_GENERATED)}

# The reference anchors of the corpus log (a 2-core Zen 4, PostgreSQL 15.20; 100,000 real
# documents, 198 MB), as listed in doc/design.md, section 5 (Reference anchors): COPY s, table MB, and
# query s by the query keys above ("text_out" is its "full text out" column). The report
# sets the corpus log's figures beside them.
REFERENCE_EVENT_ANCHORS = {
    "copy_s": {"text": 2.67, "json": 3.03, "jsonb": 4.58},
    "table_mb": {"text": 108, "json": 108, "jsonb": 127},
    "query_s": {"text": {"text_out": 0.41},
                "json": {"filter": 1.02, "nested": 0.84, "bigint": 0.57, "text_out": 0.30},
                "jsonb": {"filter": 0.32, "nested": 0.20, "bigint": 0.15, "text_out": 0.62}},
}


def normalize_result(key, rows):
    """A comparable form of a query result (counts/sums; groups as sorted pairs or counts)."""
    if isinstance(rows, int):
        return rows
    if key == "group_text":
        return sorted((r[0] if r[0] is not None else "", r[1]) for r in rows)
    if key == "group_value":
        return sorted(r[1] for r in rows)
    return [str(v) for v in rows[0]]


def storage_shares(db, tab, typ, feat, problems, what):
    """How the rows of tab are stored: {"compressed": rows whose value PostgreSQL compressed
    (inline or out of line), "external": rows stored out of line (values in the TOAST
    table), "blocks": fastjson rows in fastjson's own block form (None for the other types,
    "n/a" when the installed build has no fastjson_storage_form)}."""
    res = {"compressed": None, "external": None, "blocks": None}
    try:
        blocks = typ == "fastjson" and feat.get("storage_form")
        r = db.run("SELECT count(*) FILTER (WHERE pg_column_compression(doc) IS NOT NULL)%s FROM %s" % (
            ", count(*) FILTER (WHERE fastjson_storage_form(doc) = 'blocks')" if blocks else "", tab))[0]
        res["compressed"] = r[0]
        if typ == "fastjson":
            res["blocks"] = r[1] if blocks else "n/a"
        toast = db.one("SELECT reltoastrelid::regclass::text FROM pg_class WHERE oid = '%s'::regclass" % tab)
        # a value stored out of line is one chunk_id in the TOAST table (a row has one value)
        res["external"] = db.one("SELECT count(DISTINCT chunk_id) FROM %s" % toast) if toast != "-" else 0
    except MeasureError as e:
        problems.append("storage shares of %s (%s): %s" % (typ, what, e))
    return res


def shared_buffers(db):
    """shared_buffers as set and in bytes."""
    return {"setting": db.one("SHOW shared_buffers"), "bytes": int(db.one(
        "SELECT setting::bigint * current_setting('block_size')::bigint FROM pg_settings "
        "WHERE name = 'shared_buffers'"))}


def cmd_eventlog(args):
    problems = []
    db = DB(problems)
    feat = features(db)
    feat.update(jsonpath_features(db))
    lz4 = lz4_available(db)
    comps = ["pglz"] + (["lz4"] if lz4 else [])
    prefix, queries = EVENT_LOGS[args.log]
    queries = queries + JSONPATH_QUERIES[args.log]
    out = {"log": args.log, "source": args.source, "rows_expected": args.rows,
           "file_bytes": os.path.getsize(args.file) if os.path.exists(args.file) else None,
           "reps": args.reps, "query_reps": args.query_reps, "lz4": lz4, "features": feat, "copy": {}, "sizes": {}, "queries": {},
           "checks": {}, "problems": problems}
    # whether a sequential scan reads a table through shared buffers or through a ring of
    # buffers: PostgreSQL uses the ring when the heap is larger than shared_buffers / 4
    out["shared_buffers"] = shared_buffers(db)
    if args.log == "corpus":
        out["anchors"] = REFERENCE_EVENT_ANCHORS
    if args.summary:
        try:
            with open(args.summary) as f:
                out["source_summary"] = json.load(f)
        except (OSError, ValueError) as e:
            problems.append("%s log: could not read the generator's summary %s: %s" % (args.log, args.summary, e))
    table = lambda comp, typ: "%s_%s_%s" % (prefix, comp, typ)

    # COPY: best of reps, the table recreated each time; repetitions interleave the types
    for comp in comps:
        times = {t: [] for t in TYPES}
        failed = {}
        for rep in range(args.reps):
            for typ in TYPES:
                if typ in failed:
                    continue
                tab = table(comp, typ)
                log("section 3, %s log: COPY %s (%s) run %d" % (args.log, typ, comp, rep + 1))
                try:
                    db.run("DROP TABLE IF EXISTS %s" % tab)
                    db.run("CREATE TABLE %s (doc %s)" % (tab, typ))
                    db.run("ALTER TABLE %s ALTER COLUMN doc SET COMPRESSION %s" % (tab, comp))
                    db.run("SET default_toast_compression = '%s'" % comp)
                    db.run("CHECKPOINT")
                    t, n = db.timed("COPY %s (doc) FROM '%s' %s" % (tab, args.file, COPY_OPTS),
                                    what="COPY %s (%s)" % (typ, comp))
                    times[typ].append(t)
                    if n != args.rows:
                        problems.append("COPY %s (%s, %s log) loaded %s rows, expected %d" % (
                            typ, comp, args.log, n, args.rows))
                except MeasureError as e:
                    failed[typ] = str(e)
                    problems.append("COPY into a %s column (%s, %s log): %s" % (typ, comp, args.log, e))
        db.run("RESET default_toast_compression")
        out["copy"][comp] = {t: ({"error": failed[t]} if t in failed else summarize(times[t])) for t in TYPES}
        # sizes of the last load
        sizes = {}
        for typ in TYPES:
            if typ in failed:
                continue
            tab = table(comp, typ)
            r = db.run("SELECT pg_total_relation_size('%s'), pg_relation_size('%s'), "
                       "(SELECT sum(pg_column_size(doc)) FROM %s), (SELECT count(*) FROM %s)"
                       % (tab, tab, tab, tab))[0]
            sizes[typ] = {"total": r[0], "heap": r[1], "sum_column": int(r[2] or 0), "rows": r[3]}
            sizes[typ].update(storage_shares(db, tab, typ, feat, problems, "%s log, %s" % (args.log, comp)))
        out["sizes"][comp] = sizes
        if comp != "pglz":
            for typ in TYPES:
                if not (comp == "lz4" and typ in LZ4_TYPES and typ not in failed):
                    db.run("DROP TABLE IF EXISTS %s" % table(comp, typ))

    # queries on the pglz tables, and the lookups also on the lz4 tables of jsonb and fastjson
    loaded = [t for t in TYPES if "error" not in out["copy"]["pglz"][t]]
    if lz4:
        loaded += [t + "_lz4" for t in LZ4_TYPES if "error" not in out["copy"]["lz4"][t]]
    log("section 3, %s log: VACUUM ANALYZE" % args.log)
    for typ in loaded:
        db.run("VACUUM ANALYZE %s" % table_of(table, typ))
    def time_query(key, sql, types, kind, need, q):
        """Warm and time sql on each type's table, the timed runs of the types interleaved."""
        db.settings(PARALLEL if kind == "parallel" else SERIAL)
        # plan checks and a warming run per type, then the timed runs, interleaving the
        # types (a slow spell of the machine then falls on all of them, not on one)
        ready = []
        for typ in types:
            if need and typ.startswith("fastjson") and not feat.get(need):
                q["types"][typ] = {"na": "not implemented"}
                continue
            if typ not in loaded:
                q["types"][typ] = {"error": "table not loaded"}
                continue
            stmt = sql.replace("{t}", table_of(table, typ)).replace("{type}", typ.replace("_lz4", ""))
            what = "%s on %s (%s log)" % (key, typ, args.log)
            log("section 3: %s" % what)
            rec = {}
            q["types"][typ] = rec
            try:
                if kind != "copy" and not stmt.startswith("COPY"):
                    plan = explain(db, stmt)
                    gathers = [x for x in walk_plan(plan) if x["Node Type"] in ("Gather", "Gather Merge")]
                    rec["plan"] = " > ".join(
                        x["Node Type"] + ("(%s)" % x["Strategy"] if x.get("Strategy") not in (None, "Plain") else "")
                        for x in walk_plan(plan))
                    if kind == "parallel":
                        planned = gathers[0].get("Workers Planned") if gathers else 0
                        if planned != 2:
                            problems.append("%s: expected a parallel plan with 2 workers, got %s" %
                                            (what, rec["plan"]))
                        rec["workers_planned"] = planned
                    elif gathers:
                        problems.append("%s: unexpected parallel plan %s" % (what, rec["plan"]))
                _, res = db.timed(stmt, what=what)                   # warm the cache
                if kind == "parallel":
                    a = explain(db, stmt, analyze=True)
                    g = [x for x in walk_plan(a) if x["Node Type"] in ("Gather", "Gather Merge")]
                    rec["workers_launched"] = g[0].get("Workers Launched") if g else 0
                ready.append((typ, stmt, what))
            except MeasureError as e:
                rec["error"] = str(e)
                problems.append("%s: %s" % (what, e))
        times = {typ: [] for typ, _, _ in ready}
        results = {}
        failed = set()
        for rep in range(args.query_reps):
            # rotate the order, so that no type always runs right after another
            for j in range(len(ready)):
                typ, stmt, what = ready[(rep + j) % len(ready)]
                if typ in failed:
                    continue
                try:
                    t, results[typ] = db.timed(stmt, what=what)
                    times[typ].append(t)
                except MeasureError as e:
                    failed.add(typ)
                    q["types"][typ]["error"] = str(e)
                    problems.append("%s: %s" % (what, e))
        for typ, _, _ in ready:
            if typ not in failed:
                q["types"][typ].update(summarize(times[typ]))
                q["types"][typ]["result"] = normalize_result(key, results[typ])
        db.settings(SERIAL)

    for key, label, sql, types, kind, need in queries:
        q = {"label": label, "sql": sql.replace("{t}", "t").replace("{type}", "TYPE"), "kind": kind, "types": {}}
        out["queries"][key] = q
        time_query(key, sql, types, kind, need, q)
    # the lookups on the lz4 tables, in a pass of their own after all the others: timed in the
    # same rotation, their pages would push the default tables' out of shared buffers between
    # the judged runs
    if lz4:
        for key, label, sql, types, kind, need in queries:
            if key in LZ4_KEYS:
                time_query(key, sql, tuple(t + "_lz4" for t in LZ4_TYPES if t in types), kind, need,
                           out["queries"][key])
    for key, q in out["queries"].items():
        # results must agree across types
        results = {t: r["result"] for t, r in q["types"].items() if "result" in r and key != "text_out"}
        if len(set(json.dumps(v) for v in results.values())) > 1:
            problems.append("%s (%s log): results differ between types: %s" % (key, args.log, json.dumps(results)[:400]))
            q["agree"] = False
        elif len(results) > 1:
            q["agree"] = True
    # parallel results equal serial results
    ser, par = out["queries"]["filter"]["types"], out["queries"]["parallel"]["types"]
    for typ in par:
        if "result" in par[typ] and "result" in ser.get(typ, {}) and par[typ]["result"] != ser[typ]["result"]:
            problems.append("parallel filter on %s (%s log) gives %s, serial gives %s" % (
                typ, args.log, par[typ]["result"], ser[typ]["result"]))

    jsonpath_gin(db, args, out, table, loaded, feat, problems)

    # whole-document check: X::fastjson::text::jsonb = X::jsonb for every row, by an
    # order-independent hash sum over both tables
    if "fastjson" in loaded and "jsonb" in loaded:
        try:
            a = db.one("SELECT sum(hashtext(doc::text::jsonb::text)::numeric) FROM %s" % table("pglz", "fastjson"))
            b = db.one("SELECT sum(hashtext(doc::text)::numeric) FROM %s" % table("pglz", "jsonb"))
            out["checks"]["fastjson_text_vs_jsonb"] = "ok" if a == b else "MISMATCH"
            if a != b:
                problems.append("%s event log: the fastjson rows, output as text and read as jsonb, differ "
                                "from the jsonb rows" % args.log)
        except MeasureError as e:
            out["checks"]["fastjson_text_vs_jsonb"] = "error: %s" % e
            problems.append("%s event log whole-document check: %s" % (args.log, e))
    # the tables are not used after this (the GIN and large-document benchmarks load their
    # own): drop them, so that the next log or section does not share the disk and page cache;
    # with --keep-scan-tables, jsonb's and fastjson's stay for pagecache-scan
    for typ in LZ4_TYPES:
        try:
            db.run("DROP TABLE IF EXISTS %s" % table("lz4", typ))
        except MeasureError as e:
            problems.append("%s event log: DROP TABLE: %s" % (args.log, e))
    for typ in TYPES:
        if args.keep_scan_tables and typ in SCAN_TYPES:
            out.setdefault("kept_tables", []).append(table("pglz", typ))
            continue
        try:
            db.run("DROP TABLE IF EXISTS %s" % table("pglz", typ))
        except MeasureError as e:
            problems.append("%s event log: DROP TABLE: %s" % (args.log, e))
    write_json(args.out, out)


# ------------------------------------------------------------ event log: bare scan from the page cache
# The criterion's case of the bare scan: a table that does not fit in shared buffers. In the
# event-log runs above the heaps fit (shared_buffers 256MB) and are scanned from shared
# buffers; bench.sh restarts the cluster with shared_buffers = 1MB for this step, so that a
# sequential scan of any heap over 256 kB (a quarter of it) goes through a ring of buffers and
# reads every page from the kernel's page cache, as a table larger than shared_buffers is read.
SCAN_TYPES = ("jsonb", "fastjson")


def buffers_line(db, sql):
    """The Buffers line of EXPLAIN (ANALYZE, BUFFERS) of sql, e.g. 'shared hit=3 read=241'."""
    rows = db.run("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) " + sql)
    lines = [r[0].strip() for r in rows if "Buffers:" in r[0]]
    return lines[0][len("Buffers:"):].strip() if lines else ""


def cmd_pagecache_scan(args):
    problems = []
    db = DB(problems)
    out = {"reps": args.reps, "problems": problems, "logs": {}, "shared_buffers": shared_buffers(db)}
    block = int(db.one("SELECT current_setting('block_size')"))
    db.settings(SERIAL)
    tables = []
    try:
        ready = []
        for lg in args.logs.split(","):
            prefix = EVENT_LOGS[lg][0]
            rec = {"types": {}}
            out["logs"][lg] = rec
            for typ in SCAN_TYPES:
                tab = "%s_pglz_%s" % (prefix, typ)
                if db.one("SELECT to_regclass(%s) IS NULL", (tab,)):
                    rec["types"][typ] = {"error": "table %s not kept by the event-log step" % tab}
                    problems.append("bare scan from the page cache, %s log: no table %s" % (lg, tab))
                    continue
                tables.append(tab)
                sql = "SELECT count(*) FROM %s" % tab
                what = "bare scan from the page cache, %s on %s (%s log)" % (tab, typ, lg)
                try:
                    heap = db.one("SELECT pg_relation_size(%s)", (tab,))
                    r = {"heap": heap, "pages": heap // block,
                         "ring": heap > out["shared_buffers"]["bytes"] / 4}
                    db.timed(sql, what=what)            # into the page cache, if it was not
                    r["buffers"] = buffers_line(db, sql)
                    rec["types"][typ] = r
                    ready.append((lg, typ, sql, what))
                except MeasureError as e:
                    rec["types"][typ] = {"error": str(e)}
                    problems.append("%s: %s" % (what, e))
        times = {(lg, typ): [] for lg, typ, _, _ in ready}
        results = {}
        failed = set()
        for rep in range(args.reps):
            for j in range(len(ready)):
                lg, typ, sql, what = ready[(rep + j) % len(ready)]
                if (lg, typ) in failed:
                    continue
                try:
                    t, res = db.timed(sql, what=what)
                    times[(lg, typ)].append(t)
                    results[(lg, typ)] = res[0][0]
                except MeasureError as e:
                    failed.add((lg, typ))
                    out["logs"][lg]["types"][typ]["error"] = str(e)
                    problems.append("%s: %s" % (what, e))
        for (lg, typ), ts in times.items():
            if (lg, typ) not in failed and ts:
                out["logs"][lg]["types"][typ].update(summarize(ts))
                out["logs"][lg]["types"][typ]["rows"] = results[(lg, typ)]
        for lg, rec in out["logs"].items():
            rows = {t: r.get("rows") for t, r in rec["types"].items() if r.get("rows") is not None}
            if len(set(rows.values())) > 1:
                problems.append("bare scan from the page cache, %s log: row counts differ: %s" % (lg, rows))
    finally:
        for tab in tables:
            try:
                db.run("DROP TABLE IF EXISTS %s" % tab)
            except MeasureError as e:
                problems.append("bare scan from the page cache: DROP TABLE %s: %s" % (tab, e))
    write_json(args.out, out)


# ------------------------------------------------------------ event log: SQL/JSON path
# The jsonpath queries of section 3, in their own set (run after the queries above, on the
# same tables, fastjson against jsonb side by side): @? with a filter, @@ on a nested
# number, fastjson_path_query_first of a nested string ({type} is the column's type, so
# the function is jsonb_path_query_first on jsonb); then @? through each GIN operator class
# against jsonb's (jsonpath_gin).

def jsonpath_features(db):
    """Whether the installed extension has SQL/JSON path (@? on fastjson)."""
    return {"jsonpath": bool(db.one(
        "SELECT EXISTS (SELECT 1 FROM pg_operator WHERE oprname = '@?' AND oprleft = 'fastjson'::regtype)"))}


JSONPATH_QUERIES = {
    # the corpus log: tweets have user and entities (a hashtag that 463 of 100,000 rows have)
    "corpus": (
        ("jp_exists", "jsonpath `@?` with a filter (tweets): `count(*) WHERE doc @? '$.entities.hashtags[*] ? (@.text == \"RTした人にやる\")'`",
         "SELECT count(*) FROM {t} WHERE doc @? '$.entities.hashtags[*] ? (@.text == \"RTした人にやる\")'",
         ("jsonb", "fastjson"), "serial", "jsonpath"),
        ("jp_match", "jsonpath `@@` on a nested number (tweets): `count(*) WHERE doc @@ '$.user.followers_count > 1000'`",
         "SELECT count(*) FROM {t} WHERE doc @@ '$.user.followers_count > 1000'",
         ("jsonb", "fastjson"), "serial", "jsonpath"),
        ("jp_first", "jsonpath `_path_query_first` of a nested string (tweets): `count(fastjson_path_query_first(doc, '$.user.screen_name'))`",
         "SELECT count({type}_path_query_first(doc, '$.user.screen_name')) FROM {t}",
         ("jsonb", "fastjson"), "serial", "jsonpath"),
    ),
    # the session log: a filter three levels deep near the start, a number after the
    # large events array, and a string two levels deep
    "session": (
        ("jp_exists", "jsonpath `@?` with a filter, three levels: `count(*) WHERE doc @? '$.session.user.geo ? (@.city == \"Zürich\")'`",
         "SELECT count(*) FROM {t} WHERE doc @? '$.session.user.geo ? (@.city == \"Zürich\")'",
         ("jsonb", "fastjson"), "serial", "jsonpath"),
        ("jp_match", "jsonpath `@@` on a number after the events: `count(*) WHERE doc @@ '$.totals.events > 4'`",
         "SELECT count(*) FROM {t} WHERE doc @@ '$.totals.events > 4'",
         ("jsonb", "fastjson"), "serial", "jsonpath"),
        ("jp_first", "jsonpath `_path_query_first` of a nested string: `count(fastjson_path_query_first(doc, '$.session.user.login'))`",
         "SELECT count({type}_path_query_first(doc, '$.session.user.login')) FROM {t}",
         ("jsonb", "fastjson"), "serial", "jsonpath"),
    ),
    "generated": (
        ("jp_exists", "jsonpath `@?` with a filter: `count(*) WHERE doc @? '$.tags[*] ? (@ == \"canary\")'`",
         "SELECT count(*) FROM {t} WHERE doc @? '$.tags[*] ? (@ == \"canary\")'",
         ("jsonb", "fastjson"), "serial", "jsonpath"),
        ("jp_match", "jsonpath `@@` on a nested number: `count(*) WHERE doc @@ '$.http.status >= 500'`",
         "SELECT count(*) FROM {t} WHERE doc @@ '$.http.status >= 500'",
         ("jsonb", "fastjson"), "serial", "jsonpath"),
        ("jp_first", "jsonpath `_path_query_first` of a nested string: `count(fastjson_path_query_first(doc, '$.client.geo.city'))`",
         "SELECT count({type}_path_query_first(doc, '$.client.geo.city')) FROM {t}",
         ("jsonb", "fastjson"), "serial", "jsonpath"),
    ),
}

# @? through a GIN index: the filter of jp_exists, under each pair of operator classes
JSONPATH_GIN_QUERY = {
    "corpus": "SELECT count(*) FROM {t} WHERE doc @? '$.entities.hashtags[*] ? (@.text == \"RTした人にやる\")'",
    "session": "SELECT count(*) FROM {t} WHERE doc @? '$.session.user.geo ? (@.city == \"Zürich\")'",
    "generated": "SELECT count(*) FROM {t} WHERE doc @? '$.tags[*] ? (@ == \"canary\")'",
}
JSONPATH_GIN_CLASSES = (("jp_gin_ops", "fastjson_ops", "jsonb_ops"),
                        ("jp_gin_path_ops", "fastjson_path_ops", "jsonb_path_ops"))


def jsonpath_gin(db, args, out, table, loaded, feat, problems):
    """Index-assisted @? against jsonb's GIN: per operator class pair, build both indexes
    (timed, sizes), check that the plan is a bitmap index scan, time the query (warmed,
    then query_reps runs with the types interleaved), and drop the indexes again."""
    if not feat.get("jsonpath") or "fastjson" not in loaded or "jsonb" not in loaded:
        return
    sql = JSONPATH_GIN_QUERY[args.log]
    db.settings(SERIAL)
    for key, fj_class, jb_class in JSONPATH_GIN_CLASSES:
        q = {"label": "jsonpath `@?` through a GIN index (`%s` / `%s`), the filter of jp_exists" % (fj_class, jb_class),
             "sql": sql.replace("{t}", "t"), "kind": "serial", "types": {}}
        out["queries"][key] = q
        ready = []
        for typ, cls in (("jsonb", jb_class), ("fastjson", fj_class)):
            tab = table("pglz", typ)
            idx = "%s_%s" % (tab, key)
            what = "%s on %s (%s log)" % (key, typ, args.log)
            rec = {}
            q["types"][typ] = rec
            try:
                log("section 3: %s: CREATE INDEX" % what)
                t, _ = db.timed("CREATE INDEX %s ON %s USING gin (doc %s)" % (idx, tab, cls), what=what)
                rec["build_s"] = t
                rec["index_bytes"] = db.one("SELECT pg_relation_size('%s')" % idx)
                db.run("ANALYZE %s" % tab)
                db.run("SET enable_seqscan = off")
                stmt = sql.replace("{t}", tab)
                plan = explain(db, stmt)
                rec["plan"] = " > ".join(x["Node Type"] for x in walk_plan(plan))
                if not any(x["Node Type"] == "Bitmap Index Scan" for x in walk_plan(plan)):
                    problems.append("%s: expected a bitmap index scan, got %s" % (what, rec["plan"]))
                db.timed(stmt, what=what)          # warm
                ready.append((typ, stmt, what, idx))
            except MeasureError as e:
                rec["error"] = str(e)
                problems.append("%s: %s" % (what, e))
        times = {typ: [] for typ, _, _, _ in ready}
        results = {}
        for rep in range(args.query_reps):
            for j in range(len(ready)):
                typ, stmt, what, _ = ready[(rep + j) % len(ready)]
                try:
                    t, results[typ] = db.timed(stmt, what=what)
                    times[typ].append(t)
                except MeasureError as e:
                    q["types"][typ]["error"] = str(e)
                    problems.append("%s: %s" % (what, e))
        for typ, _, _, idx in ready:
            if times[typ]:
                q["types"][typ].update(summarize(times[typ]))
                q["types"][typ]["result"] = normalize_result(key, results[typ])
        res = {t: r["result"] for t, r in q["types"].items() if "result" in r}
        q["agree"] = len(set(json.dumps(v) for v in res.values())) <= 1
        if not q["agree"]:
            problems.append("%s (%s log): results differ between types: %s" % (key, args.log, json.dumps(res)))
        db.run("RESET enable_seqscan")
        for typ, _, _, idx in ready:
            try:
                db.run("DROP INDEX %s" % idx)
            except MeasureError as e:
                problems.append("%s: DROP INDEX: %s" % (key, e))


# ------------------------------------------------------------------------ CBOR

ENC_SQL = ("SELECT sum(octet_length(fastjson_to_cbor(d))) FROM (SELECT %s::text::fastjson AS d OFFSET 0) s, "
           "generate_series(1, {n}) g")
DEC_SQL = "SELECT count(fastjson_from_cbor(CASE WHEN g > 0 THEN %s::bytea END)) FROM generate_series(1, {n}) g"
BASE_ENC_SQL = ("SELECT sum(octet_length(bench_jsonb_to_cbor(d))) FROM (SELECT %s::text::jsonb AS d OFFSET 0) s, "
                "generate_series(1, {n}) g")
BASE_DEC_SQL = "SELECT count(bench_cbor_to_jsonb(CASE WHEN g > 0 THEN %s::bytea END)) FROM generate_series(1, {n}) g"


def time_op(db, sql, params, reps, target, what, cap_s):
    n, first = calibrate(db, lambda k: sql.format(n=k), params, target, what)
    times = [first] if first is not None else []
    # slow statements (the PL/pgSQL baseline) get fewer repetitions, about cap_s in all
    want = reps if first is None else max(1, min(reps, int(cap_s / first)))
    while len(times) < want:
        t, _ = db.timed(sql.format(n=n), params, what)
        times.append(t)
    s = summarize(times)
    return {"n": n, "best_s": s["best"], "median_s": s["median"], "runs": times}


def cmd_cbor(args):
    problems = []
    db = DB(problems)
    feat = features(db)
    out = {"features": feat, "files": [], "problems": problems, "reps": args.reps}
    if not feat["cbor"]:
        out["na"] = "not implemented (fastjson_to_cbor(fastjson) -> bytea: %s; fastjson_from_cbor(bytea) -> fastjson: %s)" % (
            "present" if feat["to_cbor"] else "missing", "present" if feat["from_cbor"] else "missing")
        write_json(args.out, out)
        return
    with open(os.path.join(HERE, "cbor_baseline.sql")) as f:
        db.run(f.read())
    for name, path in corpus_files(args):
        doc, size = read_doc(path)
        log("section 4: %s" % name)
        rec = {"file": name, "bytes": size, "ops": {}}
        out["files"].append(rec)
        try:
            cbor = db.one("SELECT fastjson_to_cbor(%s::text::fastjson)", (doc,))
            rec["cbor_bytes"] = len(cbor)
            rec["minified_bytes"] = db.one("SELECT octet_length(%s::text::fastjson::text)", (doc,))
        except MeasureError as e:
            rec["error"] = str(e)
            problems.append("%s: fastjson_to_cbor: %s" % (name, e))
            continue
        checks = {}
        for label, sql, params in (
                ("fastjson round trip", "SELECT fastjson_from_cbor(fastjson_to_cbor(%s::text::fastjson))::jsonb = %s::text::jsonb", (doc, doc)),
                ("independent decoder", "SELECT bench_cbor_to_jsonb(%s::bytea) = %s::text::jsonb", (cbor, doc))):
            try:
                ok = db.one(sql, params)
                checks[label] = "ok" if ok else "MISMATCH"
                if not ok:
                    problems.append("%s: CBOR %s: the value differs from X::jsonb" % (name, label))
            except MeasureError as e:
                checks[label] = "error: %s" % e
                problems.append("%s: CBOR %s: %s" % (name, label, e))
        rec["checks"] = checks
        # encode and decode against the text path they are judged by (fastjson_out, fastjson_in),
        # the four timed in turn, so that a slow spell of the machine falls on all of them
        paired = (("encode", ENC_SQL, (doc,)), ("out", OUT_SQL.replace("{type}", "fastjson"), (doc,)),
                  ("decode", DEC_SQL, (cbor,)), ("in", IN_SQL.replace("{type}", "fastjson"), (doc,)))
        ns = {}
        for op, sql, params in paired:
            try:
                db.timed(sql.format(n=1), params, "%s %s" % (name, op))      # warm-up
                ns[op], _ = calibrate(db, lambda k, sql=sql: sql.format(n=k), params, args.target,
                                      "%s %s" % (name, op))
            except MeasureError as e:
                rec["ops"][op] = {"error": str(e)}
                problems.append("%s: CBOR %s: %s" % (name, op, e))
        times = {op: [] for op in ns}
        for _ in range(max(args.reps, 5)):
            for op, sql, params in paired:
                if op not in ns or op in rec["ops"]:
                    continue
                try:
                    t, _ = db.timed(sql.format(n=ns[op]), params, "%s %s" % (name, op))
                    times[op].append(t)
                except MeasureError as e:
                    rec["ops"][op] = {"error": str(e)}
                    problems.append("%s: CBOR %s: %s" % (name, op, e))
        for op in ns:
            if op in rec["ops"]:
                continue
            st = summarize(times[op])
            rec["ops"][op] = {"n": ns[op], "best_s": st["best"], "median_s": st["median"], "runs": times[op],
                              "best_mbps": size * ns[op] / st["best"] / 1e6,
                              "median_mbps": size * ns[op] / st["median"] / 1e6}
        for op, sql, params, cap in (("sql_encode", BASE_ENC_SQL, (doc,), args.baseline_cap),
                                     ("sql_decode", BASE_DEC_SQL, (cbor,), args.baseline_cap)):
            try:
                r = time_op(db, sql, params, args.reps, args.target, "%s %s" % (name, op), cap)
                r["best_mbps"] = size * r["n"] / r["best_s"] / 1e6
                r["median_mbps"] = size * r["n"] / r["median_s"] / 1e6
                rec["ops"][op] = r
            except MeasureError as e:
                rec["ops"][op] = {"error": str(e)}
                problems.append("%s: CBOR %s: %s" % (name, op, e))
    write_json(args.out, out)


# ------------------------------------------------------------------------ main


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, default=str)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("info")
    p.add_argument("--out", required=True)
    p = sub.add_parser("jsonb-sizes")
    p.add_argument("--corpus", required=True)
    p.add_argument("--out", required=True)
    for c in ("corpus", "cbor"):
        p = sub.add_parser(c)
        p.add_argument("--corpus", required=True)
        p.add_argument("--files", required=True, help="comma-separated corpus file names")
        p.add_argument("--reps", type=int, default=3)
        p.add_argument("--target", type=float, default=0.5, help="seconds per timed run")
        p.add_argument("--baseline-cap", type=float, default=4.0,
                       help="about this many seconds per slow PL/pgSQL baseline statement")
        if c == "corpus":
            p.add_argument("--new-session-reps", type=int, default=5,
                           help="runs of each parse in a new session (the reference anchors' method)")
        p.add_argument("--out", required=True)
    p = sub.add_parser("eventlog")
    p.add_argument("--file", required=True, help="NDJSON file the server can read")
    p.add_argument("--rows", type=int, required=True)
    p.add_argument("--reps", type=int, default=3, help="COPY repetitions")
    p.add_argument("--query-reps", type=int, default=9, help="timed runs of each query")
    p.add_argument("--log", choices=sorted(EVENT_LOGS), default="generated",
                   help="which log the file is, so which queries to run: corpus "
                        "(scripts/gen_corpus_events.py), session (scripts/gen_session_events.py) "
                        "or generated (scripts/gen_events.py)")
    p.add_argument("--source", default="", help="the command that wrote the file (for the report)")
    p.add_argument("--summary", help="the generator's JSON summary of the file, kept in the output")
    p.add_argument("--keep-scan-tables", action="store_true",
                   help="keep the jsonb and fastjson tables (pglz) for pagecache-scan")
    p.add_argument("--out", required=True)
    p = sub.add_parser("pagecache-scan")
    p.add_argument("--logs", default="corpus,session", help="comma list of the logs whose tables were kept")
    p.add_argument("--reps", type=int, default=21, help="timed runs of each scan, interleaved")
    p.add_argument("--out", required=True)
    args = ap.parse_args()
    {"info": cmd_info, "jsonb-sizes": cmd_jsonb_sizes, "corpus": cmd_corpus,
     "eventlog": cmd_eventlog, "pagecache-scan": cmd_pagecache_scan, "cbor": cmd_cbor}[args.cmd](args)


if __name__ == "__main__":
    main()
