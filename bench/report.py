#!/usr/bin/env python3
"""report.py — the fastjson benchmark's report and chart (run by scripts/bench.sh).

usage: report.py machine --work DIR                 gather and print the machine facts
       report.py report  --work DIR --out-dir DIR   write the markdown report and the chart

The work directory holds what the other steps wrote: info.json (server_bench.py info),
core.md / core.csv / core.status (core_bench), corpus.json, eventlog_corpus.json (the
corpus log), eventlog_session.json (the session log), eventlog.json (the generated event
log), cbor.json (server_bench.py), run.json (mode, rows, repetitions, times, the sections
run). Missing pieces are reported as such, never guessed. Every number in the report is
computed from them, except the reference anchors (doc/design.md, section 5 (Reference anchors)), which
are labelled as quoted. A run of some sections only
(run.json "only", BENCH_ONLY) is written as DATE-COMMIT-onlyN.md and leaves latest.* alone.
"""

import argparse
import csv
import datetime
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys

CORE_FILES_ORDER = ("twitter", "citm_catalog", "gsoc-2018", "canada", "github_events", "mesh", "marine_ik")

# Section 3's three logs, in the report's order: the two logs of real documents, which the
# targets are read from (eventlog_corpus.json, eventlog_session.json), then the generated
# log (eventlog.json).
EVENT_LOG_FILES = (("corpus", "eventlog_corpus.json"), ("session", "eventlog_session.json"),
                   ("generated", "eventlog.json"))
EVENT_LOG_TITLES = {
    "corpus": "3.1 The corpus log: real documents from the corpus",
    "session": "3.2 The session log: sessions of real documents, 2 to 20 kB",
    "generated": "3.3 Generated event log (scripts/gen_events.py)",
}
EVENT_LOG_NAMES = {"corpus": "corpus log", "session": "session log", "generated": "generated log"}
REAL_LOGS = ("corpus", "session")
KIND_NAMES = {"tweet": "tweets", "github_event": "GitHub events", "product": "product rows"}
# the query keys of the target "->, ->>, #>> queries vs jsonb" (either log)
LOOKUP_KEYS = ("filter", "nested", "nested_actor", "nested_login", "arrow", "bigint")
# the targets that hold on any event log of real documents (doc/design.md, section 6), judged
# on both real-document logs, by query family: (what, keys, limit)
FAMILY_TARGETS = (
    ("`->>` filter", ("filter",), 0.33),
    ("nested `#>>`", ("nested", "nested_actor", "nested_login"), 0.33),
    ("`->` then `->>`", ("arrow",), 0.33),
    ("last-key `->>` to bigint", ("bigint",), 0.33),
    ("`@>`", ("contains",), 0.33),
    ("jsonpath `@?`, `@@`, `_path_query_first`", ("jp_exists", "jp_match", "jp_first"), 0.5),
)


def sh(cmd, default="unknown"):
    try:
        out = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=30)
        line = out.stdout.strip().splitlines()
        return line[0] if out.returncode == 0 and line else default
    except Exception:
        return default


def load(work, name):
    path = os.path.join(work, name)
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except ValueError:
        return None


# --------------------------------------------------------------------------- machine


def cmd_machine(args):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    flags = sh("grep -m1 '^flags' /proc/cpuinfo", "")
    isa = [f for f in ("avx512vbmi2", "avx512bw", "avx2", "sse4_2") if re.search(r"\b%s\b" % f, flags)]
    if not flags and platform.machine() == "aarch64":
        isa = ["neon"]
    commit = sh("git -C '%s' rev-parse --short HEAD" % root)
    dirty = sh("git -C '%s' status --porcelain --untracked-files=no | head -1" % root, "") != ""
    cc = sh("$(pg_config --cc 2>/dev/null || echo gcc) --version")
    info = load(args.work, "info.json") or {}
    m = {
        "date": datetime.date.today().isoformat(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "isa": " ".join(isa) or "-",
        "kernel": "%s %s (%s)" % (platform.system(), platform.release(), platform.machine()),
        "compiler": cc,
        "cxx": sh("g++ --version"),
        "postgres": info.get("version", "unknown"),
        "simd_kernel": info.get("simd_kernel", "unknown"),
        "kernels": info.get("kernels", []),
        "commit": commit,
        "dirty": dirty,
        "loadavg": sh("cat /proc/loadavg"),
        "mem": sh("free -g | awk '/^Mem:/{print $2\" GB\"}'"),
    }
    with open(os.path.join(args.work, "machine.json"), "w") as f:
        json.dump(m, f, indent=1)
    print("\n".join(machine_lines(m, info)))


def machine_lines(m, info):
    kernels = ", ".join("%s%s" % (k[0], "" if k[1] else " (unsupported)") for k in m.get("kernels", []))
    feat = (info or {}).get("features") or {}
    names = ("contains", "eq", "btree", "hash", "to_cbor", "from_cbor", "storage_form")
    have = [k for k in names if feat.get(k)]
    miss = [k for k in names if k in feat and not feat[k]]
    return [
        "- CPU: %s, %s cores (%s); memory %s" % (m["cpu"], m["cores"], m["isa"], m.get("mem", "?")),
        "- kernel: %s" % m["kernel"],
        "- compiler: %s; core_bench: %s" % (m["compiler"], m["cxx"]),
        "- PostgreSQL: %s" % m["postgres"],
        "- fastjson SIMD kernel in the server: %s (built in: %s)" % (m["simd_kernel"], kernels or "?"),
        "- commit: %s%s" % (m["commit"], " (working tree has uncommitted changes)" if m["dirty"] else ""),
        "- optional SQL features present: %s; missing: %s" % (", ".join(have) or "none", ", ".join(miss) or "none"),
        "- load average at start: %s" % m["loadavg"],
    ]


# --------------------------------------------------------------------------- helpers


def fmt(x, digits=0):
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    if digits == 0:
        return "{:,.0f}".format(x)
    return "{:,.{d}f}".format(x, d=digits)


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def geomean(xs):
    xs = [x for x in xs if x]
    if not xs:
        return None
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def cell(best, median, digits=0):
    if best is None:
        return "—"
    return "%s (%s)" % (fmt(best, digits), fmt(median, digits))


def op_cell(op, key="mbps", digits=0):
    if op is None:
        return "—"
    if "error" in op:
        return "error"
    if "na" in op:
        return "n/a"
    return cell(op["best_" + key], op["median_" + key], digits)


def status(ok):
    if ok is None:
        return "n/a"
    return "met" if ok else "**not met**"


def read_core_csv(work):
    path = os.path.join(work, "core.csv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def stem(name):
    return name[:-5] if name.endswith(".json") else name


# --------------------------------------------------------------------------- report


class Report:
    def __init__(self, work):
        self.work = work
        self.lines = []
        self.problems = []
        self.targets = []          # (what, target, measured, status)
        self.run = load(work, "run.json") or {}
        self.info = load(work, "info.json") or {}
        self.machine = load(work, "machine.json") or {}
        self.core = read_core_csv(work)
        self.corpus = load(work, "corpus.json")
        self.event_logs = {name: load(work, f) for name, f in EVENT_LOG_FILES}
        # the bare scan from the page cache, one file a real-document log (server_bench.py pagecache-scan)
        self.pagecache_scan = None
        for name in REAL_LOGS:
            pc = load(work, "pagecache_scan_%s.json" % name)
            if pc:
                if self.pagecache_scan is None:
                    self.pagecache_scan = {"reps": pc.get("reps"), "shared_buffers": pc.get("shared_buffers"),
                                           "logs": {}, "problems": []}
                self.pagecache_scan["logs"].update(pc.get("logs") or {})
                self.pagecache_scan["problems"].extend(pc.get("problems") or [])
        self.cbor = load(work, "cbor.json")
        self.chart_files = []      # (file, in ratio, out ratio)
        self.chart_queries = {}    # query key -> {log: jsonb/fastjson}, in order of appearance
        self.only = self.run.get("only")   # section numbers run (BENCH_ONLY), or None: all

    def section_run(self, n):
        return not self.only or n in self.only

    def only_text(self):
        return ",".join(str(n) for n in self.only or [])

    def not_run(self, n, targets):
        """True (and the section says so, its targets n/a) if BENCH_ONLY left section n out."""
        if self.section_run(n):
            return False
        self.add("Not run in this run (BENCH_ONLY=%s)." % self.only_text(), "")
        for what, tgt in targets:
            self.targets.append((what, tgt, "not measured (section %d not run)" % n, "n/a"))
        return True

    def add(self, *lines):
        self.lines.extend(lines)

    def table(self, header, rows, align=None):
        self.add("| " + " | ".join(header) + " |")
        self.add("|" + "|".join(align or (["---"] + ["--:"] * (len(header) - 1))) + "|")
        for r in rows:
            self.add("| " + " | ".join(str(c) for c in r) + " |")
        self.add("")

    # ---------------------------------------------------------------- sections

    def header(self):
        m = self.machine
        self.add("# fastjson benchmark — %s, commit %s%s" % (m.get("date", "?"), m.get("commit", "?"),
                                                            "-dirty" if m.get("dirty") else ""), "")
        mode = "quick smoke run (BENCH_QUICK=1): fewer rows and repetitions, not for conclusions" \
            if self.run.get("quick") else "full run"
        if self.only:
            mode += "; only sections %s (BENCH_ONLY=%s), the others not run" % (
                ", ".join(str(n) for n in self.only), self.only_text())
        self.add("Produced by `make bench` (scripts/bench.sh). Mode: %s. Every figure below was measured in "
                 "this run; ratios compare numbers measured side by side." % mode, "")
        self.add("## Machine", "")
        self.add(*machine_lines(m, self.info))
        st = self.info.get("settings") or {}
        if st:
            self.add("- server settings: " + ", ".join("%s=%s" % kv for kv in st.items()))
        self.add("- load average at end: %s; total benchmark time %s s" % (
            self.run.get("loadavg_end", "?"), fmt(self.run.get("elapsed_s"), 0)))
        loads = []
        lp = os.path.join(self.work, "load.txt")
        if os.path.exists(lp):
            for line in open(lp):
                if "|" in line:
                    name, la = line.rstrip("\n").split("|", 1)
                    loads.append((name, la))
        if loads:
            self.add("- load average (1, 5, 15 min) as each step started: " +
                     "; ".join("%s: %s" % (n, la) for n, la in loads))
        def load1(text):
            try:
                return float(str(text).split()[0])
            except (ValueError, IndexError):
                return 0.0
        peak = max([load1(la) for _, la in loads] + [load1(self.run.get("loadavg_end")),
                                                     load1(m.get("loadavg"))])
        cores = m.get("cores") or 1
        if peak > 0.5 * cores:
            self.add("", "**Warning: other processes were busy during this run** (1-minute load average up to "
                     "%.2f on %d cores). Timings are noisy; best-of values are the least affected. Re-run on an "
                     "idle machine before drawing conclusions." % (peak, cores))
        self.add("")

    def section_core(self):
        self.add("## 1. Core (outside the server)", "")
        if self.not_run(1, (("core parse, corpus, best kernel vs simdjson DOM", "≥ 0.5× now; goal ≥ 1×"),)):
            return
        path = os.path.join(self.work, "core.md")
        status_ = (open(os.path.join(self.work, "core.status")).read().strip()
                   if os.path.exists(os.path.join(self.work, "core.status")) else "not run")
        if not os.path.exists(path):
            self.add("core_bench did not run (%s)." % status_, "")
            return
        text = open(path).read()
        if status_ not in ("0", "skipped"):
            self.problems.append("core_bench exited with status %s (see its output below)" % status_)
        if "is missing; skipping" in text:
            self.add("Skipped: " + text.strip(), "")
            return
        self.add("`build/release/core_bench %s --jsonb-sizes <server sizes> --csv ...`: every `*.json` of the "
                 "corpus, parse throughput of each fastjson kernel and simdjson DOM, tape size and peak "
                 "memory of one parse. Cells are best (median) GB/s. simdjson's DOM parser is reused, so "
                 "it parses into memory it already has; each fastjson kernel does too, through an "
                 "allocator that hands back the blocks of its last parses, and `fresh` is the default "
                 "kernel again with malloc and free every parse, which pays for the pages the C library "
                 "returns to the system between parses." % self.run.get("core_args", ""), "")
        body = []
        for line in text.splitlines():
            if line.startswith("# ") or line.startswith("- CPU") or line.startswith("- Linux") or \
                    line.startswith("- compiler"):
                continue        # the machine is described above
            body.append(line)
        self.add(*[l for l in "\n".join(body).strip().splitlines()], "")
        if "CORRECTNESS ERROR" in text or (status_ not in ("0", "skipped")):
            err = os.path.join(self.work, "core.err")
            if os.path.exists(err):
                tail = [l for l in open(err).read().splitlines() if "CORRECTNESS" in l or "error" in l.lower()]
                for l in tail[-5:]:
                    self.problems.append("core_bench: " + l.strip())

        # target: core parse vs simdjson
        # both parse into memory they got back from their last parses (simdjson's reused parser,
        # fastjson's recycling allocator); the fresh-memory figure is shown beside it
        rows = [(r["file"], float(r["ratio_best"])) for r in self.core if r.get("ratio_best")]
        fresh = [(r["file"], float(r["fresh_ratio_best"])) for r in self.core if r.get("fresh_ratio_best")]
        if rows:
            low = min(rows, key=lambda x: x[1])
            gm = geomean([x[1] for x in rows])
            text = "geometric mean %.2f×, lowest %.2f× (%s), %d files" % (gm, low[1], low[0], len(rows))
            if fresh:
                flow = min(fresh, key=lambda x: x[1])
                text += ("; the default kernel with fresh memory every parse (malloc and free), which "
                         "simdjson's reused parser does not pay: geometric mean %.2f×, lowest %.2f× (%s)"
                         % (geomean([x[1] for x in fresh]), flow[1], flow[0]))
            self.targets.append(("core parse, corpus, best kernel vs simdjson DOM", "≥ 0.5× now; goal ≥ 1×",
                                 text, status(low[1] >= 0.5) + ("; goal " + status(low[1] >= 1.0))))
        else:
            self.targets.append(("core parse, corpus, best kernel vs simdjson DOM", "≥ 0.5× now; goal ≥ 1×",
                                 "not measured", "n/a"))

    def section_corpus(self):
        self.add("## 2. In the server, per corpus file", "")
        if self.not_run(2, (("`fastjson_in` vs `jsonb_in` in the server, parse only, per corpus file", "≥ 10×"),
                            ("`fastjson_in` vs `json_in`, same method", "≥ 2×"),
                            ("`fastjson_out` vs `jsonb_out`", "≥ 4×"))):
            return
        c = self.corpus
        if c is None or c.get("skipped"):
            self.add(("Skipped: %s." % c["skipped"]) if c else
                     "Not run (server_bench.py corpus failed; see the log).", "")
            for what, tgt in (("`fastjson_in` vs `jsonb_in` in the server, parse only, per corpus file", "≥ 10×"),
                              ("`fastjson_in` vs `json_in`, same method", "≥ 2×"),
                              ("`fastjson_out` vs `jsonb_out`", "≥ 4×")):
                self.targets.append((what, tgt, "not measured", "n/a"))
            return
        self.problems.extend(c.get("problems", []))
        m = c["method"]
        self.add("Method (as for the reference anchors): the document is bound once as a text parameter (psycopg, custom plan, so "
                 "it is a constant), no table, no detoast. Client wall time of the whole statement, N chosen so "
                 "one run takes about %.2f s. MB/s = file bytes × N / s / 10⁶ for every column, so a ratio of two "
                 "columns is a ratio of times. `jit = off`. Each parse is timed two ways: as the reference measured "
                 "its anchors, every run in a new session (best of %d, the runs of the three types interleaved), "
                 "which is what the parse-only targets are read from; and in a warmed session that first "
                 "allocated and freed 16 MB, best of %d (median in parentheses), the throughput and output "
                 "tables below." % (c.get("target_s", 0), c.get("new_session_reps", 0), c.get("reps", 0)), "")
        self.add("- input: `%s` (json/jsonb the same with `::json`/`::jsonb`)" % m["fastjson_in"],
                 "- output: `%s` (the inner `::fastjson` is folded into a constant at plan time; `d::text` runs N "
                 "times; for jsonb the same with `::jsonb`)" % m["fastjson_out"],
                 "- physical baseline (detoast + copy): the text in a one-row table whose column has `STORAGE "
                 "EXTERNAL` (uncompressed TOAST), `%s`: every row fetches the TOAST chunks into a new value "
                 "and `|| ''` copies it once more." % m["detoast_copy"])
        pc = c.get("plan_checks") or {}
        bad = {k: v for k, v in pc.items() if not str(v).startswith("ok")}
        self.add("- plan checks (EXPLAIN VERBOSE of each statement on a small document, and function-call "
                 "counts with `track_functions = all`): %s%s" % (
                     "all ok" if not bad else "PROBLEMS: " + "; ".join("%s: %s" % kv for kv in bad.items()),
                     "; " + pc["call_counts"] if "call_counts" in pc else ""))
        self.add("")
        files = c["files"]
        anchors = c.get("anchors") or {}
        ns_rows, ns_agg, anchor_rows = [], {"in_jsonb": [], "in_json": []}, []
        for f in files:
            ns = f.get("new_session") or {}
            fi, js, jb = ns.get("fastjson_in", {}), ns.get("json_in", {}), ns.get("jsonb_in", {})
            rb = ratio(fi.get("best_mbps"), jb.get("best_mbps"))
            rj = ratio(fi.get("best_mbps"), js.get("best_mbps"))
            ns_agg["in_jsonb"].append((f["file"], rb))
            ns_agg["in_json"].append((f["file"], rj))
            ns_rows.append([f["file"], op_cell(fi or None), op_cell(js or None), op_cell(jb or None),
                            "%s× (%s×)" % (fmt(rb, 2), fmt(ratio(fi.get("median_mbps"), jb.get("median_mbps")), 2))
                            if rb else "—",
                            "%s× (%s×)" % (fmt(rj, 2), fmt(ratio(fi.get("median_mbps"), js.get("median_mbps")), 2))
                            if rj else "—",
                            fmt(fi.get("minor_faults_per_row")), fmt(jb.get("minor_faults_per_row"))])
            if f["file"] in anchors:
                row = [f["file"]]
                for op in ("json_in", "jsonb_in", "jsonb_out"):
                    x, d = ns.get(op, {}), anchors[f["file"]].get(op)
                    if "best_mbps" in x:
                        row += [fmt(d), cell(x["best_mbps"], x["median_mbps"]), "%.2f×" % (x["best_mbps"] / d)]
                    else:
                        row += [fmt(d), "error" if "error" in x else "—", "—"]
                anchor_rows.append(row)
        if ns_rows:
            self.add("### Parse only, the reference anchors' method: every run in a new session", "")
            self.add("Each run is one statement in a new backend, as in a new psql session; nothing runs before it "
                     "(no malloc warm-up), N as in the warmed tables below, best (median) MB/s. This is how "
                     "the reference anchors (doc/design.md) were measured: the anchor check below reproduces them this way. In a "
                     "new backend glibc's malloc still gives memory back to the kernel when a row's memory is "
                     "freed, so a parser that allocates many large blocks a row page-faults on them again every "
                     "row (minor page faults of the backend a row, median over the runs, in the last two "
                     "columns); a session that once freed a large block, as in the warmed tables below, no longer "
                     "does. The parse-only targets (≥ 10× jsonb_in, ≥ 2× json_in) are read from this table.", "")
            self.table(["file", "fastjson_in", "json_in", "jsonb_in", "fastjson_in / jsonb_in (≥ 10)",
                        "fastjson_in / json_in (≥ 2)", "faults a row: fastjson_in", "jsonb_in"], ns_rows)
        if anchor_rows:
            self.add("### Anchor check: the reference figures re-measured their way", "")
            self.add("From the new-session runs above; `jsonb_out` through `length(d::text)`, which the reference "
                     "jsonb_out figures match (it also counts UTF-8 characters); best (median) MB/s, then this "
                     "machine / the reference's 2-core Zen 4. The reference column is quoted from doc/design.md "
                     "(section 5, Reference anchors), not measured here.", "")
            self.table(["file", "json_in reference", "json_in here", "here/reference", "jsonb_in reference",
                        "jsonb_in here", "here/reference", "jsonb_out reference", "jsonb_out (length) here",
                        "here/reference"], anchor_rows)

        core_by = {stem(r["file"]): r for r in self.core}
        rows = []
        for f in files:
            o = f["ops"]
            rows.append([f["file"], fmt(f["bytes"] / 1000, 0)] +
                        [op_cell(o.get(k)) for k in ("fastjson_in", "json_in", "jsonb_in", "fastjson_out",
                                                      "jsonb_out", "detoast_copy")] +
                        [f.get("roundtrip") or "—"])
        self.add("### Throughput in a warmed session, MB/s best (median)", "")
        self.table(["file", "KB", "fastjson_in", "json_in", "jsonb_in", "fastjson_out", "jsonb_out",
                    "detoast+copy", "X::fastjson::text::jsonb = X::jsonb"], rows)
        for f in files:
            for k, v in f["ops"].items():
                if "error" in v:
                    self.add("- %s %s: error: %s" % (f["file"], k, v["error"]))
        self.add("")

        def r(f, a, b, key):
            x, y = f["ops"].get(a, {}), f["ops"].get(b, {})
            return ratio(x.get(key), y.get(key))

        rows = []
        agg = {"in_jsonb": [], "in_json": [], "out_jsonb": []}
        for f in files:
            v = {"in_jsonb": (r(f, "fastjson_in", "jsonb_in", "best_mbps"), r(f, "fastjson_in", "jsonb_in", "median_mbps")),
                 "in_json": (r(f, "fastjson_in", "json_in", "best_mbps"), r(f, "fastjson_in", "json_in", "median_mbps")),
                 "out_jsonb": (r(f, "fastjson_out", "jsonb_out", "best_mbps"), r(f, "fastjson_out", "jsonb_out", "median_mbps"))}
            for k in agg:
                agg[k].append((f["file"], v[k][0]))
            rows.append([f["file"]] + ["%s× (%s×)" % (fmt(v[k][0], 2), fmt(v[k][1], 2)) if v[k][0] else "—"
                                       for k in ("in_jsonb", "in_json", "out_jsonb")])
            self.chart_files.append((f["file"], v["in_jsonb"][0], v["out_jsonb"][0]))
        rows.append(["**geometric mean**"] + ["%s×" % fmt(geomean([x[1] for x in agg[k]]), 2) for k in agg])
        self.add("### Ratios in a warmed session, best (median)", "")
        self.add("The input ratios here are the stricter variant (jsonb_in without its page faults); the output "
                 "target is read from this table.", "")
        self.table(["file", "fastjson_in / jsonb_in (target ≥ 10)", "fastjson_in / json_in (target ≥ 2)",
                    "fastjson_out / jsonb_out (target ≥ 4)"], rows)

        def judge(vals, lim):
            vals = [x for x in vals if x[1] is not None]
            if not vals:
                return None, None
            low = min(vals, key=lambda x: x[1])
            n_ok = sum(1 for x in vals if x[1] >= lim)
            return ("lowest %.2f× (%s), geometric mean %.2f×; %d of %d files reach it" % (
                low[1], low[0], geomean([x[1] for x in vals]), n_ok, len(vals))), n_ok == len(vals)

        for k, what, tgt, lim in (("in_jsonb", "`fastjson_in` vs `jsonb_in` in the server, parse only, per corpus file", "≥ 10×", 10),
                                  ("in_json", "`fastjson_in` vs `json_in` (which only validates), same method", "≥ 2×", 2)):
            text, ok = judge(ns_agg[k], lim)
            warm_text, _ = judge(agg[k], lim)
            if text is None:
                self.targets.append((what, tgt, "not measured", "n/a"))
                continue
            self.targets.append((what, tgt, "new sessions (the reference anchors' method): %s. Warmed sessions: %s" % (
                text, warm_text or "not measured"), status(ok)))
        text, ok = judge(agg["out_jsonb"], 4)
        self.targets.append(("`fastjson_out` vs `jsonb_out`", "≥ 4×", text or "not measured",
                             status(ok) if text else "n/a"))

        # datum sizes
        rows = []
        for f in files:
            s = f.get("sizes") or {}
            ext, pg, lz = s.get("external", {}), s.get("pglz", {}), s.get("lz4", {})
            mini = core_by.get(f["file"], {}).get("minified_bytes")
            mini = int(mini) if mini else None
            rows.append([f["file"], fmt(ext.get("text")), fmt(mini), fmt(ext.get("jsonb")), fmt(ext.get("fastjson")),
                         fmt(ratio(ext.get("fastjson"), ext.get("jsonb")), 2), fmt(ratio(ext.get("fastjson"), mini), 2),
                         fmt(ratio(ext.get("jsonb"), mini), 2),
                         fmt(pg.get("text")), fmt(pg.get("jsonb")), fmt(pg.get("fastjson")),
                         fmt(ratio(pg.get("fastjson"), pg.get("jsonb")), 2),
                         fmt(lz.get("text")), fmt(lz.get("jsonb")), fmt(lz.get("fastjson")),
                         fmt(ratio(lz.get("fastjson"), lz.get("jsonb")), 2)])
        self.add("### Datum sizes, bytes (`pg_column_size`)", "")
        self.add("Uncompressed: a column with `STORAGE EXTERNAL`. pglz / lz4: the default `EXTENDED` storage with "
                 "`SET COMPRESSION pglz` / `lz4`. The text column holds the file as it is (with its whitespace); "
                 "minified: simdjson's minify of the file (from core_bench).", "")
        self.table(["file", "text", "minified", "jsonb", "fastjson", "fastjson/jsonb", "fastjson/minified",
                    "jsonb/minified", "pglz text", "pglz jsonb", "pglz fastjson", "pglz fastjson/jsonb",
                    "lz4 text", "lz4 jsonb", "lz4 fastjson", "lz4 fastjson/jsonb"], rows)

    def lz4_queries(self, e, out):
        """The lookups on the tables loaded with COMPRESSION lz4 (jsonb_lz4, fastjson_lz4)."""
        lz = [(k, q) for k, q in e.get("queries", {}).items() if "jsonb_lz4" in q["types"]]
        if not e.get("lz4") or not lz:
            return

        def c_(x):
            if "na" in x:
                return "n/a (%s)" % x["na"]
            if "error" in x or "best" not in x:
                return "error"
            return cell(x["best"], x["median"], 3)
        rows = []
        out["lz4_ratios"] = {}
        for key, q in lz:
            ts = q["types"]
            jl, fl, fp = ts.get("jsonb_lz4", {}), ts.get("fastjson_lz4", {}), ts.get("fastjson", {})
            r_ = ratio(fl.get("best"), jl.get("best"))
            rm = ratio(fl.get("median"), jl.get("median"))
            rp = ratio(fp.get("best"), jl.get("best"))
            out["lz4_ratios"][key] = r_
            rows.append([q["label"].split(":")[0], c_(jl), c_(fl), c_(fp) if fp else "—",
                         "%s× (%s×)" % (fmt(r_, 2), fmt(rm, 2)) if r_ else "n/a",
                         "%s×" % fmt(rp, 2) if rp else "n/a"])
        self.add("#### The lookups against jsonb with lz4, seconds best (median)", "")
        self.add("The same lookups on tables loaded with `COMPRESSION lz4`, PostgreSQL 19's default TOAST "
                 "compression and a common setting before it. lz4 decompresses several times faster than "
                 "pglz, so jsonb's lookups in compressed values cost much less with it, and fastjson's lead "
                 "is smaller. lz4 also compresses again some values fastjson stored in blocks (it keeps any "
                 "saving, pglz only a quarter's): a lookup in one of those reads all its chunks (lz4 cannot say "
                 "how many a prefix needs) and PostgreSQL decompresses them. The last column times fastjson's pglz table "
                 "(above) against jsonb's lz4 one. They are timed in a pass of their own after all the other queries "
                 "(timed among them, these tables' pages would push the default tables' out of shared buffers). "
                 "These figures are reported, not judged against the "
                 "targets, which compare the default (pglz) tables.", "")
        self.table(["query", "jsonb, lz4", "fastjson, lz4", "fastjson, pglz", "fastjson lz4 / jsonb lz4 time",
                    "fastjson pglz / jsonb lz4 time"], rows, ["---"] + ["--:"] * 5)

    def shared_buffers(self, e):
        """(bytes, setting) of shared_buffers when the event log ran, or (None, "")."""
        sb = e.get("shared_buffers") or {}
        if sb.get("bytes"):
            return sb["bytes"], sb.get("setting", "")
        text = (self.info.get("settings") or {}).get("shared_buffers", "")
        units = {"kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}
        num = "".join(ch for ch in text if ch.isdigit())
        unit = text[len(num):].strip()
        if not num or unit not in units:
            return None, text
        return int(num) * units[unit], text

    def ring(self, e, typ, comp="pglz"):
        """True if a sequential scan reads typ's table through a ring of buffers (its heap is
        larger than shared_buffers / 4, PostgreSQL's rule), False if from shared buffers,
        None if unknown."""
        sb, _ = self.shared_buffers(e)
        heap = ((e.get("sizes") or {}).get(comp, {}).get(typ) or {}).get("heap")
        if sb is None or heap is None:
            return None
        return heap > sb / 4

    def ring_note(self, e):
        """How the event-log scans read their tables: shared buffers, or the page cache through a ring."""
        sb, setting = self.shared_buffers(e)
        types = [t for t in ("text", "json", "jsonb", "fastjson") if (e.get("sizes") or {}).get("pglz", {}).get(t)]
        rings = {t: self.ring(e, t) for t in types}
        if sb is None or not types or None in rings.values():
            return ""
        if all(rings.values()):
            return (" Every table's heap is larger than a quarter of `shared_buffers` (%s), so a sequential scan "
                    "reads it through a small ring of buffers, block by block from the kernel's page cache: "
                    "copying the heap's bytes is a large part of every query's time, in proportion to its "
                    "size." % setting)
        if not any(rings.values()):
            return (" Every table's heap fits in a quarter of `shared_buffers` (%s), so the scans read it from "
                    "shared buffers once warm (values stored out of line are fetched from the TOAST table, "
                    "also from shared buffers when they fit)." % setting)
        return (" The heaps of %s are larger than a quarter of `shared_buffers` (%s) and are read through a "
                "small ring of buffers from the kernel's page cache; those of %s fit and are scanned from "
                "shared buffers once warm." % (
                    ", ".join(t for t in types if rings[t]), setting, ", ".join(t for t in types if not rings[t])))

    def section_events(self):
        self.add("## 3. Event logs", "")
        logs = [(name, self.event_logs.get(name)) for name, _ in EVENT_LOG_FILES]
        if not self.section_run(3):
            self.add("Not run in this run (BENCH_ONLY=%s)." % self.only_text(), "")
            res = {name: None for name, _ in logs}
        else:
            ran = [e for _, e in logs if e and not e.get("skipped")]
            m = ran[0] if ran else {}
            self.add("Three logs, loaded and queried the same way. **3.1 and 3.2 are logs of real documents from "
                     "the corpus, built in two different ways; the event-log targets of section 6 are read from "
                     "them.** 3.1, the corpus log (`scripts/gen_corpus_events.py`), is one corpus document a "
                     "row: tweets, GitHub events and product rows, most of them under 2 kB; 100,000 rows are "
                     "198 MB, the size of the reference log whose figures doc/design.md quotes, and its anchor "
                     "check sets those figures beside this run's. 3.2, the session log "
                     "(`scripts/gen_session_events.py`), bundles 1 to 8 of the same documents into a session "
                     "of 2 to 20 kB, with the keys the queries read at the start (`kind`), at the end (`seq`) "
                     "and three levels deep (`session.user.geo.city`), so most of its rows are stored "
                     "compressed and many out of line. 3.3 is the generated log of earlier reports "
                     "(`scripts/gen_events.py`: web requests, errors and user actions of about 1.2 kB that stay "
                     "inline), kept for comparison with them; the GIN index section at the end of the report "
                     "uses it too.", "")
            self.add("Method: each column type is loaded with server-side `COPY t(doc) FROM 'file' WITH (FORMAT "
                     "csv, QUOTE E'\\x01', DELIMITER E'\\x02')` (a CSV format whose quote and delimiter never "
                     "occur, so each line is one value) into a new one-column table per run (a CHECKPOINT "
                     "before each, untimed), best of %s (median); the repetitions interleave the column types. "
                     "After the last load, the storage shares of each table: rows whose value PostgreSQL "
                     "compressed (`pg_column_compression(doc) IS NOT NULL`), rows stored out of line (distinct "
                     "`chunk_id`s in the table's TOAST relation) and, for fastjson, rows in fastjson's own "
                     "block form (`fastjson_storage_form(doc) = 'blocks'`). Queries run on the pglz tables "
                     "after `VACUUM ANALYZE`, each once to warm the cache and then %s timed runs, the runs of "
                     "the column types interleaved (in a rotating order, so a slow spell of the machine falls "
                     "on all of them), serial (`max_parallel_workers_per_gather = 0`) unless marked parallel; "
                     "client wall time. Each log has queries written for its own fields; the same key (chart, "
                     "targets) means the same family of query. `scan` is the bare `SELECT count(*)`, which "
                     "reads no value: its time is that of reading the heap, from shared buffers when the heap "
                     "is at most a quarter of `shared_buffers`, otherwise through a ring of buffers from the "
                     "kernel's page cache." % (
                         fmt(m.get("reps")), fmt(m.get("query_reps", m.get("reps")))), "")
            res = {name: self.event_log(name, e) for name, e in logs}
            self.pagecache_section(res)
        self.event_targets(res)

    def event_log(self, name, e):
        """One log's subsection; returns its target figures ({} when not measured)."""
        self.add("### %s" % EVENT_LOG_TITLES[name], "")
        if e is None or e.get("skipped"):
            self.add(("Skipped: %s." % e["skipped"]) if e else
                     "Not run (server_bench.py eventlog --log %s failed; see the log)." % name, "")
            return {}
        self.problems.extend(e.get("problems", []))
        rows_n = e.get("rows_expected")
        size = e.get("file_bytes")
        source = e.get("source") or ("scripts/gen_events.py --rows %s --seed 42" % rows_n)
        summ = e.get("source_summary") or {}
        kinds = summ.get("kinds") or {}
        mix = ""
        if kinds:
            mix = ": " + ", ".join("%s %s (mean line %s B)" % (fmt(k.get("rows")), KIND_NAMES.get(n, n),
                                                              fmt(k.get("mean_line")))
                                   for n, k in kinds.items())
        elif summ.get("documents"):
            mix = ("; lines from %s to %s bytes (median %s, 90th percentile %s); %s" % (
                fmt(summ.get("min")), fmt(summ.get("max")), fmt(summ.get("median")), fmt(summ.get("p90")),
                ", ".join("%s %s" % (fmt(v), {"tweet": "tweets", "github": "GitHub events",
                                              "product": "product rows"}.get(k, k))
                          for k, v in summ["documents"].items())) + " in the sessions")
        self.add("`%s`: %s rows, %s MB of NDJSON (mean line %s bytes)%s.%s" % (
            source, fmt(rows_n), fmt(size / 1e6 if size else None, 1),
            fmt(size / rows_n if size and rows_n else None), mix, self.ring_note(e)), "")
        if name == "generated":
            self.add("Most rows of this log are under 2 kB and stay inline (no TOAST), so its absolute times are "
                     "not comparable with the reference anchors of doc/design.md (3.1 is), only the ratios "
                     "between column types.", "")
        out = {"ratios": {}}
        comps = list(e.get("copy", {}).keys())
        if not e.get("lz4"):
            self.add("lz4 is not available in this PostgreSQL build: pglz only.", "")

        # COPY
        hdr = ["column type"]
        for comp in comps:
            hdr += ["COPY s, %s" % comp, "× text"]
        rows = []
        for typ in ("text", "json", "jsonb", "fastjson"):
            row = [typ]
            for comp in comps:
                x = e["copy"][comp].get(typ, {})
                t = e["copy"][comp].get("text", {})
                if "error" in x:
                    row += ["error", "—"]
                else:
                    row += [cell(x.get("best"), x.get("median"), 3), fmt(ratio(x.get("best"), t.get("best")), 2)]
            rows.append(row)
        self.add("#### COPY", "")
        self.table(hdr, rows)
        for comp in comps:
            for typ, x in e["copy"][comp].items():
                if "error" in x:
                    self.add("- COPY into %s (%s): %s" % (typ, comp, x["error"]))
        cp = e["copy"].get("pglz", {})
        rr = ratio(cp.get("fastjson", {}).get("best"), cp.get("text", {}).get("best"))
        if rr:
            text = "%s× (pglz)" % fmt(rr, 2)
            if "lz4" in e["copy"]:
                cl = e["copy"]["lz4"]
                text += "; lz4 %s×" % fmt(ratio(cl.get("fastjson", {}).get("best"), cl.get("text", {}).get("best")), 2)
            out["copy"] = (text, rr <= 1.15)

        # sizes
        rows = []
        for comp in comps:
            s = e["sizes"].get(comp, {})
            jb = s.get("jsonb", {})
            for typ in ("text", "json", "jsonb", "fastjson"):
                x = s.get(typ)
                if not x:
                    rows.append([comp, typ] + ["—"] * 6)
                    continue
                rows.append([comp, typ, fmt(x["total"] / 1e6, 1), fmt(x["heap"] / 1e6, 1), fmt(x["sum_column"] / 1e6, 1),
                             fmt(ratio(x["total"], jb.get("total")), 2), fmt(ratio(x["sum_column"], jb.get("sum_column")), 2),
                             fmt(x["rows"])])
        self.add("#### Table sizes", "")
        self.add("MB = 10⁶ bytes. The heap holds the rows stored inline (compressed or not); the rest of the "
                 "total is the TOAST table (values stored out of line) and its index.", "")
        self.table(["compression", "column type", "pg_total_relation_size MB", "heap MB", "sum(pg_column_size) MB",
                    "total × jsonb", "columns × jsonb", "rows"], rows, ["---", "---"] + ["--:"] * 6)
        s = e["sizes"].get("pglz", {})
        if s.get("fastjson") and s.get("jsonb"):
            a = ratio(s["fastjson"]["total"], s["jsonb"]["total"])
            b = ratio(s["fastjson"]["sum_column"], s["jsonb"]["sum_column"])
            m = "total %.2f×, sum of columns %.2f× (pglz)" % (a, b)
            out["size_ratios"] = {"total": a, "sum_column": b, "lz4": ""}
            if e["sizes"].get("lz4", {}).get("fastjson") and e["sizes"]["lz4"].get("jsonb"):
                l = e["sizes"]["lz4"]
                lt = ratio(l["fastjson"]["total"], l["jsonb"]["total"])
                ls = ratio(l["fastjson"]["sum_column"], l["jsonb"]["sum_column"])
                m += "; lz4: %.2f×, %.2f×" % (lt, ls)
                out["size_ratios"]["lz4"] = "; lz4: %.2f×, %.2f×" % (ls, lt)
            out["size"] = (m, a <= 0.9 and b <= 0.9)

        # storage shares
        sb, setting = self.shared_buffers(e)
        rows = []

        def share(n, total):
            if n is None:
                return "—"
            if isinstance(n, str):
                return n
            pct = 100.0 * n / total if total else None
            return "%s (%s %%)" % (fmt(n), "<1" if pct and pct < 1 else fmt(pct, 0))
        for comp in comps:
            for typ in ("text", "json", "jsonb", "fastjson"):
                x = e["sizes"].get(comp, {}).get(typ)
                if not x:
                    continue
                rg = self.ring(e, typ, comp)
                rows.append([comp, typ, share(x.get("compressed"), x["rows"]), share(x.get("external"), x["rows"]),
                             share(x.get("blocks"), x["rows"]) if typ == "fastjson" else "—",
                             fmt(x["heap"] / 1e6, 1), fmt(x["total"] / 1e6, 1),
                             "—" if rg is None else ("yes: ring" if rg else "no: shared buffers")])
        if rows and any(r_[2] != "—" for r_ in rows):
            self.add("#### How the rows are stored", "")
            self.add("Rows (share of all rows) whose value PostgreSQL compressed (inline or out of line), rows "
                     "stored out of line (in the TOAST table), and, for fastjson, rows held in fastjson's own "
                     "block form (blocks compressed on their own, so that a lookup decompresses only the blocks "
                     "it needs; PostgreSQL still tries to compress such a value as a whole, and lz4, which keeps "
                     "any saving, often does, pglz, which wants a quarter saved, seldom: those rows count as "
                     "compressed too). Heap > a quarter of `shared_buffers` (%s: %s MB): a sequential scan "
                     "reads the table through a ring of buffers, from the kernel's page cache, not from shared "
                     "buffers." % (setting or "?", fmt(sb / 4e6 if sb else None, 1)), "")
            self.table(["compression", "column type", "compressed", "out of line", "fastjson blocks", "heap MB",
                        "total MB", "heap > shared_buffers / 4"], rows, ["---", "---"] + ["--:"] * 6)

        # queries
        rows = []
        qratios = []
        for key, q in e.get("queries", {}).items():
            ts = q["types"]

            def c_(typ):
                x = ts.get(typ)
                if x is None:
                    return "—"
                if "na" in x:
                    return "n/a (%s)" % x["na"]
                if "error" in x:
                    return "error"
                # a bare scan of a small table takes well under 10 ms
                return cell(x["best"], x["median"], 3 if x["best"] >= 0.01 else 4)
            fj, jb = ts.get("fastjson", {}), ts.get("jsonb", {})
            r_ = ratio(fj.get("best"), jb.get("best"))
            rm = ratio(fj.get("median"), jb.get("median"))
            label = q["label"] + (" ⚠ results differ" if q.get("agree") is False else "")
            if "workers_launched" in fj or "workers_launched" in jb:
                label += " (workers launched: %s)" % ", ".join(
                    "%s %s" % (t, ts[t].get("workers_launched")) for t in ("json", "jsonb", "fastjson")
                    if "workers_launched" in ts.get(t, {}))
            rows.append([label, c_("text"), c_("json"), c_("jsonb"), c_("fastjson"),
                         "%s× (%s×)" % (fmt(r_, 2), fmt(rm, 2)) if r_ else "n/a",
                         "%s×" % fmt(1 / r_, 2) if r_ else "n/a"])
            out["ratios"][key] = r_
            if r_ or key in self.chart_queries:
                self.chart_queries.setdefault(key, {})[name] = 1 / r_ if r_ else None
            if key in LOOKUP_KEYS:
                qratios.append((key, r_))
        self.add("#### Queries, seconds best (median)", "")
        self.table(["query", "text", "json", "jsonb", "fastjson", "fastjson / jsonb time", "jsonb / fastjson"], rows,
                   ["---"] + ["--:"] * 6)
        for key, q in e.get("queries", {}).items():
            for typ, x in q["types"].items():
                if "error" in x:
                    self.add("- %s on %s: error: %s" % (key, typ, x["error"]))
        self.add("Query keys (chart): " + "; ".join("`%s` = %s" % (k, q["label"].split(":")[0])
                                                   for k, q in e.get("queries", {}).items()) + ".", "")
        self.lz4_queries(e, out)
        ch = e.get("checks", {})
        agree = [k for k, q in e.get("queries", {}).items() if q.get("agree") is True]
        differ = [k for k, q in e.get("queries", {}).items() if q.get("agree") is False]
        self.add("Checks: query results equal across the column types for %s%s; parallel = serial; every "
                 "fastjson row output as text and read as jsonb equals the jsonb row (order-independent hash "
                 "sum): %s. `full text output` uses `octet_length`, not `length`: `length` counts UTF-8 "
                 "characters, which costs more than the output itself and the same for every type; for text "
                 "and json `doc::text` is a no-op and `octet_length` reads the length from the value's header "
                 "(the value is not even detoasted), so their column is the cost of the scan, and "
                 "`detoast_copy` (`doc || ''` on the text column) is the text column's own detoast and copy "
                 "that full output is compared with. `COPY t TO '/dev/null'` runs each type's output function "
                 "on every row, as a client receives it." % (
                     ", ".join(agree) or "—", ("; **results differ** for " + ", ".join(differ)) if differ else "",
                     ch.get("fastjson_text_vs_jsonb", "not run")), "")
        vals = [x for x in qratios if x[1] is not None]
        if vals:
            worst = max(vals, key=lambda x: x[1])
            out["queries"] = (", ".join("%s %.2f×" % x for x in vals) + " (worst: %s)" % worst[0], worst[1] <= 0.5)

        # full output against the text column's own
        qs = e.get("queries", {})

        def best(key, typ):
            return ((qs.get(key) or {}).get("types", {}).get(typ) or {}).get("best")
        out["text_out"] = {"detoast": ratio(best("text_out", "fastjson"), best("detoast_copy", "text")),
                           "text_out": ratio(best("text_out", "fastjson"), best("text_out", "text")),
                           "jsonb": ratio(best("text_out", "jsonb"), best("detoast_copy", "text"))}
        out["copy_out"] = {"text": ratio(best("copy_out", "fastjson"), best("copy_out", "text")),
                           "jsonb": ratio(best("copy_out", "jsonb"), best("copy_out", "text"))}
        out["scan"] = {"ratio": out["ratios"].get("scan"), "ring_fastjson": self.ring(e, "fastjson"),
                       "ring_jsonb": self.ring(e, "jsonb"),
                       "heap_fastjson": ((e.get("sizes") or {}).get("pglz", {}).get("fastjson") or {}).get("heap"),
                       "shared_buffers": setting}
        if e.get("anchors"):
            self.event_anchors(e)
        return out

    def pagecache_section(self, res):
        """3.4: the bare scan of the two real-document logs from the page cache (the criterion's
        case); puts each log's figures in res[log]["scan_pagecache"]."""
        self.add("### 3.4 The bare scan from the page cache", "")
        pc = self.pagecache_scan
        if not pc:
            self.add("Not measured in this run (server_bench.py pagecache-scan did not run or failed; see the "
                     "log).", "")
            return
        self.problems.extend(pc.get("problems", []))
        sb = (pc.get("shared_buffers") or {}).get("setting", "?")
        self.add("The bare `SELECT count(*)` of 3.1's and 3.2's jsonb and fastjson tables (pglz), in the case the "
                 "target names: a table that does not fit in shared buffers. After each log's queries, the "
                 "cluster was restarted with `shared_buffers = %s`, so that a sequential scan of any heap "
                 "larger than a quarter of it reads every page from the kernel's page cache through a ring of "
                 "buffers; one untimed scan of each table first, then %s timed runs of each, the two tables' "
                 "runs interleaved, serial, client wall time: best (median). Then the tables were dropped and "
                 "the cluster restarted with its own settings. `Buffers` is EXPLAIN (ANALYZE, BUFFERS) of one "
                 "scan: `read` pages came from the page cache." % (
                     sb, fmt(pc.get("reps"))), "")
        rows = []
        for n in REAL_LOGS:
            rec = (pc.get("logs") or {}).get(n)
            if not rec:
                continue
            t = rec.get("types") or {}
            j, f = t.get("jsonb") or {}, t.get("fastjson") or {}
            for typ, r in (("jsonb", j), ("fastjson", f)):
                rows.append([EVENT_LOG_NAMES[n], typ, fmt(r.get("pages")), fmt(r["heap"] / 1e6, 1) if r.get("heap") else "—",
                             r.get("buffers") or "—", "yes" if r.get("ring") else ("no" if "ring" in r else "—"),
                             (cell(r["best"] * 1e3, r["median"] * 1e3, 2) if "best" in r else r.get("error", "—"))])
            x = {}
            if "best" in j and "best" in f:
                x = {"ratio": f["best"] / j["best"], "median_ratio": f["median"] / j["median"],
                     "ring": bool(j.get("ring") and f.get("ring")), "pages": (f.get("pages"), j.get("pages")),
                     "shared_buffers": sb}
                rows.append([EVENT_LOG_NAMES[n], "fastjson / jsonb", "%.2f×" % (f["pages"] / j["pages"])
                             if f.get("pages") and j.get("pages") else "—", "", "", "",
                             "%.2f× (%.2f×)" % (x["ratio"], x["median_ratio"])])
            if n in res and res[n] is not None:
                res[n]["scan_pagecache"] = x
        self.table(["log", "column type", "heap pages", "heap MB", "Buffers", "through the ring", "ms"], rows,
                   ["---", "---", "--:", "--:", "---", "---", "--:"])

    def event_anchors(self, e):
        """The reference event-log figures (doc/design.md) beside this run's (the corpus log)."""
        a = e["anchors"]
        cp = (e.get("copy") or {}).get("pglz", {})
        sz = (e.get("sizes") or {}).get("pglz", {})
        qs = e.get("queries") or {}
        rows = []

        def row(what, typ, ref, here, value, ddigits):
            rows.append([what, typ, fmt(ref, ddigits), here,
                         "%.2f×" % (value / ref) if value is not None and ref else "—"])
        for typ, d in a.get("copy_s", {}).items():
            x = cp.get(typ, {})
            row("COPY s", typ, d, cell(x.get("best"), x.get("median"), 3) if "best" in x else "—", x.get("best"), 2)
        for typ, d in a.get("table_mb", {}).items():
            x = sz.get(typ, {})
            mb = x["total"] / 1e6 if x.get("total") else None
            row("table MB (pg_total_relation_size, pglz)", typ, d, fmt(mb, 1), mb, 0)
        labels = {"filter": "`->>` filter s", "nested": "`#>>` nested s", "bigint": "`->>` to bigint s",
                  "text_out": "full text out s"}
        for key in ("filter", "nested", "bigint", "text_out"):
            for typ in ("text", "json", "jsonb"):
                d = a.get("query_s", {}).get(typ, {}).get(key)
                if d is None:
                    continue
                x = qs.get(key, {}).get("types", {}).get(typ, {})
                row(labels[key], typ, d, cell(x.get("best"), x.get("median"), 3) if "best" in x else "—",
                    x.get("best"), 2)
        self.add("#### Anchor check: the reference event-log figures beside this run's", "")
        self.add("The reference column is quoted from doc/design.md, section 5 (Reference anchors) (a 2-core Zen 4, PostgreSQL "
                 "15.20; 100,000 real documents, 198 MB), not measured here; this run: best (median), pglz tables; "
                 "here / reference of the best. doc/design.md does not give the queries behind these figures or say "
                 "whether their MB are 10⁶ or 2²⁰ bytes (MB = 10⁶ here). The queries here: `->>` filter = `filter`, `#>>` nested = "
                 "`nested` (tweets' user.screen_name), `->>` to bigint = `bigint`, full text out = `text_out` "
                 "(`sum(octet_length(doc::text))`, in which text and json do not even detoast the value, so those "
                 "two rows need not match the reference's, whose statement is not given)." +
                 ("" if e.get("rows_expected") == 100000 else
                  " **This run's log has %s rows, the reference's 100,000: the ratios say nothing here.**" %
                  fmt(e.get("rows_expected"))), "")
        self.table(["figure", "column type", "reference", "here", "here / reference"], rows,
                   ["---", "---", "--:", "--:", "--:"])

    def event_targets(self, res):
        """Section 6 rows of the event logs: doc/design.md's targets read from the corpus log (the
        other logs' figures beside it), then those judged on both real-document logs."""
        for key, what, tgt in (
                ("copy", "COPY of the event log: fastjson vs text column", "≤ 1.15× the time"),
                ("size", "stored size (pg_total_relation_size, and sum of pg_column_size) vs jsonb", "≤ 0.9×"),
                ("queries", "`->`, `->>`, `#>>` queries on the event log vs jsonb", "≤ 0.5× the time")):
            d = (res.get("corpus") or {}).get(key)
            others = []
            for n in ("session", "generated"):
                g = (res.get(n) or {}).get(key)
                others.append("%s: %s" % (EVENT_LOG_NAMES[n], ("%s (%s)" % (g[0], "met" if g[1] else "not met"))
                                          if g else "not measured"))
            measured = "corpus log: %s; %s" % (d[0] if d else "not measured", "; ".join(others))
            self.targets.append((what, tgt, measured, status(d[1]) if d else "n/a"))

        both = " (both real-document logs)"

        def judge(parts):
            """parts: [(log, text, ok or None)] -> (measured, status) over both real-document logs."""
            measured = "; ".join("%s: %s" % (EVENT_LOG_NAMES[n], t) for n, t, _ in parts)
            oks = [ok for _, _, ok in parts]
            if False in oks:
                return measured, status(False)
            if None in oks:
                return measured, "n/a"
            return measured, status(True)

        for what, keys, lim in FAMILY_TARGETS:
            parts = []
            for n in REAL_LOGS:
                r = (res.get(n) or {}).get("ratios")
                if not r:
                    parts.append((n, "not measured", None))
                    continue
                vals = [(k, r[k]) for k in keys if k in r]
                if not vals or any(v is None for _, v in vals):
                    parts.append((n, ", ".join("%s %s" % (k, "%.2f×" % v if v else "n/a") for k, v in vals)
                                  or "no such query", None))
                    continue
                note = " (`id`: the last key of GitHub events only)" if n == "corpus" and "bigint" in keys else ""
                parts.append((n, ", ".join("%s %.2f×" % kv for kv in vals) + note,
                              all(v <= lim for _, v in vals)))
            measured, st = judge(parts)
            self.targets.append(("%s vs jsonb, serial%s" % (what, both), "≤ %.2f× the time" % lim, measured, st))

        parts = []
        for n in REAL_LOGS:
            pc = (res.get(n) or {}).get("scan_pagecache")
            if pc and pc.get("ring"):
                parts.append((n, "%.2f× (median %.2f×; from the page cache, shared_buffers %s, 3.4: %s heap pages "
                                 "against %s)" % (pc["ratio"], pc["median_ratio"], pc["shared_buffers"],
                                                  fmt(pc["pages"][0]), fmt(pc["pages"][1])),
                              pc["ratio"] <= 1.0))
                continue
            sc = (res.get(n) or {}).get("scan")
            if not sc or sc.get("ratio") is None:
                parts.append((n, "not measured", None))
                continue
            heap = sc.get("heap_fastjson")
            where = ("fastjson's heap %s MB > shared_buffers (%s) / 4: read through the ring" if sc["ring_fastjson"]
                     else "fastjson's heap %s MB ≤ shared_buffers (%s) / 4: read from shared buffers, not the "
                          "criterion's case") % (fmt(heap / 1e6 if heap else None, 1), sc.get("shared_buffers"))
            parts.append((n, "%.2f× (%s)" % (sc["ratio"], where),
                          sc["ratio"] <= 1.0 if sc["ring_fastjson"] else None))
        measured, st = judge(parts)
        if st == "n/a" and any(ok is None and t != "not measured" for _, t, ok in parts):
            st = "n/a (the fastjson table fits: not measured in the criterion's case)"
        self.targets.append(("bare `count(*)` scan of the fastjson table vs jsonb's, when the table does not fit "
                             "in shared buffers" + both, "≤ 1.0× the time", measured, st))

        parts = []
        for n in REAL_LOGS:
            sr = (res.get(n) or {}).get("size_ratios")
            if not sr:
                parts.append((n, "not measured", None))
                continue
            parts.append((n, "sum of pg_column_size %.2f×, pg_total_relation_size %.2f× (pglz)%s" % (
                sr["sum_column"], sr["total"], sr["lz4"]), sr["sum_column"] <= 0.85))
        measured, st = judge(parts)
        self.targets.append(("stored size vs jsonb (sum of pg_column_size; total relation size shown)" + both,
                             "≤ 0.85×", measured, st))

        parts = []
        for n in REAL_LOGS:
            to = (res.get(n) or {}).get("text_out")
            if not to or to.get("detoast") is None:
                parts.append((n, "not measured", None))
                continue
            parts.append((n, "%.2f× (jsonb %s×; fastjson vs the text column's `text_out`, which reads only the "
                             "length: %s×)" % (to["detoast"], fmt(to.get("jsonb"), 2), fmt(to.get("text_out"), 2)),
                          to["detoast"] <= 1.3))
        measured, st = judge(parts)
        self.targets.append(("full text output (`text_out` of fastjson) vs the text column's own detoast and copy "
                             "(`detoast_copy`)" + both, "≤ 1.3× the time", measured, st))

        parts = []
        for n in REAL_LOGS:
            co = (res.get(n) or {}).get("copy_out")
            if not co or co.get("text") is None:
                parts.append((n, "not measured", None))
                continue
            parts.append((n, "%.2f× (jsonb %s×)" % (co["text"], fmt(co.get("jsonb"), 2)), co["text"] <= 1.3))
        measured, st = judge(parts)
        self.targets.append(("full output as a client gets it (`COPY t TO '/dev/null'`) of fastjson vs the text "
                             "column's" + both, "≤ 1.3× the time", measured, st))

    def section_cbor(self):
        self.add("## 4. CBOR", "")
        c = self.cbor
        t1 = "CBOR encode/decode vs fastjson text in/out"
        t2 = "CBOR encode/decode vs a `jsonb`-based conversion in SQL"
        t3 = "CBOR size vs minified JSON text, per corpus file"
        if self.not_run(4, ((t1, "same order of speed"), (t2, "≥ 10×"), (t3, "reported"))):
            return
        if c is None or c.get("skipped"):
            self.add(("Skipped: %s." % c["skipped"]) if c else
                     "Not run (server_bench.py cbor failed; see the log).", "")
            for what, tgt in ((t1, "same order of speed"), (t2, "≥ 10×"), (t3, "reported")):
                self.targets.append((what, tgt, "not measured", "n/a"))
            return
        self.problems.extend(c.get("problems", []))
        if c.get("na"):
            self.add("n/a — %s." % c["na"], "")
            for what, tgt in ((t1, "same order of speed"), (t2, "≥ 10×"), (t3, "reported")):
                self.targets.append((what, tgt, "n/a (not implemented)", "n/a"))
            return
        self.add("Encode: `sum(octet_length(fastjson_to_cbor(d)))` over a constant fastjson value, N times; decode: "
                 "`count(fastjson_from_cbor(CASE WHEN g > 0 THEN $cbor::bytea END))` over generate_series (the "
                 "section 2 method). MB/s = JSON file bytes × N / s. fastjson_out and fastjson_in are section 2's "
                 "statements timed again here: encode, out, decode and in run in turn, best of at least 5 rounds, so "
                 "each ratio compares runs made side by side (section 2's figures, minutes earlier, when these are "
                 "missing). The SQL baseline is bench/cbor_baseline.sql (PL/pgSQL over jsonb: "
                 "`bench_jsonb_to_cbor(jsonb)`, `bench_cbor_to_jsonb(bytea)` on fastjson's CBOR), measured the same "
                 "way (fewer repetitions when one run is long). \"Same order of speed\" counts as met when CBOR is at "
                 "least 1/3 of the text speed.", "")
        cf = {f["file"]: f for f in (self.corpus or {}).get("files", [])}
        core_by = {stem(r["file"]): r for r in self.core}
        rows = []
        agg = {"enc_out": [], "dec_in": [], "enc_sql": [], "dec_sql": [], "size": []}
        for f in c.get("files", []):
            o = f.get("ops", {})
            sec2 = cf.get(f["file"], {}).get("ops", {})
            mbps = lambda d: d.get("best_mbps") if d else None
            enc, dec = mbps(o.get("encode")), mbps(o.get("decode"))
            fo = mbps(o.get("out")) or mbps(sec2.get("fastjson_out"))
            fi = mbps(o.get("in")) or mbps(sec2.get("fastjson_in"))
            se, sd = mbps(o.get("sql_encode")), mbps(o.get("sql_decode"))
            mini = f.get("minified_bytes")
            cm = core_by.get(f["file"], {}).get("minified_bytes")
            mini = int(cm) if cm else mini
            vals = {"enc_out": ratio(enc, fo), "dec_in": ratio(dec, fi), "enc_sql": ratio(enc, se),
                    "dec_sql": ratio(dec, sd), "size": ratio(f.get("cbor_bytes"), mini)}
            for k in agg:
                agg[k].append((f["file"], vals[k]))
            chk = f.get("checks", {})
            rows.append([f["file"], fmt(f.get("cbor_bytes")), fmt(vals["size"], 2),
                         op_cell(o.get("encode")), fmt(fo), fmt(vals["enc_out"], 2),
                         op_cell(o.get("decode")), fmt(fi), fmt(vals["dec_in"], 2),
                         op_cell(o.get("sql_encode"), digits=2), fmt(vals["enc_sql"], 0),
                         op_cell(o.get("sql_decode"), digits=2), fmt(vals["dec_sql"], 0),
                         ", ".join("%s %s" % kv for kv in chk.items()) or f.get("error", "—")])
        self.table(["file", "CBOR B", "CBOR / minified", "encode MB/s", "fastjson_out MB/s", "encode / out",
                    "decode MB/s", "fastjson_in MB/s", "decode / in", "SQL encode MB/s", "encode × SQL",
                    "SQL decode MB/s", "decode × SQL", "checks"], rows)

        def rng(k):
            v = [x for x in agg[k] if x[1] is not None]
            if not v:
                return None, "not measured"
            lo = min(v, key=lambda x: x[1])
            return lo[1], "lowest %.2f× (%s), geometric mean %.2f×" % (lo[1], lo[0], geomean([x[1] for x in v]))
        a, ta = rng("enc_out")
        b, tb = rng("dec_in")
        self.targets.append((t1, "≥ 0.5× the speed on every corpus file", "encode/out: %s; decode/in: %s" % (ta, tb),
                             status(a >= 0.5 and b >= 0.5) if a is not None and b is not None else "n/a"))
        a, ta = rng("enc_sql")
        b, tb = rng("dec_sql")
        self.targets.append((t2, "≥ 10×", "encode: %s; decode: %s" % (ta, tb),
                             status(a >= 10 and b >= 10) if a is not None and b is not None else "n/a"))
        v = [x for x in agg["size"] if x[1] is not None]
        self.targets.append((t3, "reported (usually 0.8–0.9×)",
                             ", ".join("%s %.2f×" % x for x in v) if v else "not measured", "reported" if v else "n/a"))

    def section_memory(self):
        self.add("## 5. Peak memory of one parse (core_bench)", "")
        if self.not_run(5, (("peak memory of one parse", "≤ 2× (input + datum)"),)):
            return
        if not self.core:
            self.add("Not measured (core_bench did not run).", "")
            self.targets.append(("peak memory of one parse", "≤ 2× (input + datum)", "not measured", "n/a"))
            return
        self.add("core_bench parses each file once with a counting allocator (default kernel): peak bytes "
                 "allocated by fj_parse at any moment. The input is the caller's; the datum is the tape. "
                 "Ratio = (input + peak allocation) / (input + tape).", "")
        rows = []
        worst = None
        for r in self.core:
            i, t, p = int(r["input_bytes"]), int(r["tape_bytes"]), int(r["peak_alloc_bytes"])
            q = (i + p) / (i + t)
            if worst is None or q > worst[1]:
                worst = (r["file"], q)
            rows.append([r["file"], fmt(i), fmt(t), fmt(p), fmt(int(r.get("tape_capacity_bytes") or 0)), "%.2f" % q])
        self.table(["file", "input B", "tape B", "peak alloc B", "tape buffer capacity B", "(input + peak) / (input + tape)"], rows)
        self.targets.append(("peak memory of one parse", "≤ 2× (input + datum)",
                             "highest %.2f× (%s)" % (worst[1], worst[0]), status(worst[1] <= 2)))

    def section_targets(self):
        self.add("## 6. Targets", "")
        self.add("The targets of doc/design.md, section 6, each judged from this run's figures. Those marked "
                 "\"both real-document logs\" hold on any event log of real documents: each is judged on the "
                 "corpus log and on the session log, and met only if met on both.", "")
        self.table(["what", "target", "measured in this run", "status"],
                   [list(t) for t in self.targets], ["---", "---", "---", "---"])

    def section_problems(self):
        self.add("## Problems noticed by the harness", "")
        crash_log = os.path.join(self.work, "server_crashes.txt")
        if os.path.exists(crash_log):
            lines = [l.rstrip() for l in open(crash_log) if l.strip()]
            n = sum(1 for l in lines if "terminated by" in l or "PANIC" in l or "TRAP" in l)
            if lines:
                self.problems.append("the server log shows %d backend crash(es); its lines:\n\n```\n%s\n```\n" % (
                    n, "\n".join(re.sub(r"^\S+ \S+ UTC \[\d+\] ", "", l) for l in lines[:40])))
        if self.run.get("failed_steps"):
            for s in self.run["failed_steps"]:
                self.problems.append("step failed: " + s)
        seen = []
        for p in self.problems:
            if p not in seen:
                seen.append(p)
        if seen:
            self.add(*["- " + p for p in seen])
        else:
            self.add("None: no errors, crashes or mismatched results.")
        self.add("")

    # ---------------------------------------------------------------- chart

    def chart(self, svg):
        if not (self.chart_files or self.chart_queries):
            return False
        gp = shutil.which("gnuplot")
        if not gp:
            self.problems.append("gnuplot not found: no chart")
            return False
        d1 = os.path.join(self.work, "chart_files.dat")
        d2 = os.path.join(self.work, "chart_queries.dat")
        num = lambda x: "NaN" if x is None else "%.4f" % x
        with open(d1, "w") as f:
            for name, a, b in self.chart_files:
                f.write('"%s" %s %s\n' % (name, num(a), num(b)))
        qlogs = [n for n, _ in EVENT_LOG_FILES if any(n in v for v in self.chart_queries.values())]
        with open(d2, "w") as f:
            order = ("scan", "filter", "nested", "nested_actor", "nested_login", "arrow", "bigint", "text_out",
                     "copy_out", "contains")
            keys = sorted(self.chart_queries, key=lambda k: (order.index(k) if k in order else len(order),
                                                             list(self.chart_queries).index(k)))
            for key in keys:
                by_log = self.chart_queries[key]
                f.write('"%s" %s\n' % (key, " ".join(num(by_log.get(n)) for n in qlogs)))
        m = self.machine
        title = "fastjson vs jsonb — %s, %s%s, %s" % (m.get("date", ""), m.get("commit", ""),
                                                     "-dirty" if m.get("dirty") else "", m.get("cpu", ""))
        panels = []
        if self.chart_files:
            panels.append(r'''
set title "In the server, per corpus file: speed ratio to jsonb, × (higher is better; dotted: targets in >= 10, out >= 4)"
unset ylabel
set yrange [0:%(ymax1)s]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#444444" dt 2
set arrow 2 from graph 0, first 10 to graph 1, first 10 nohead lc rgb "#1f77b4" dt 3 lw 1.5
set arrow 3 from graph 0, first 4 to graph 1, first 4 nohead lc rgb "#ff7f0e" dt 3 lw 1.5
plot "%(d1)s" using 2:xtic(1) title "fastjson\\_in / jsonb\\_in" lc rgb "#1f77b4", \
     "" using 3 title "fastjson\\_out / jsonb\\_out" lc rgb "#ff7f0e", \
     "" using ($0-0.2):2:(sprintf("%%.1f",$2)) with labels offset 0,0.6 font ",9" notitle, \
     "" using ($0+0.2):3:(sprintf("%%.1f",$3)) with labels offset 0,0.6 font ",9" notitle
unset arrow 2
unset arrow 3
''')
        if qlogs:
            colours = {"corpus": "#2ca02c", "session": "#d62728", "generated": "#9467bd"}
            names = EVENT_LOG_NAMES
            plots, labels = [], []
            width = 0.8 / len(qlogs)
            for i, n in enumerate(qlogs):
                plots.append('%s using %d%s title "%s: jsonb time / fastjson time" lc rgb "%s"' % (
                    '"%(d2)s"' if i == 0 else '""', i + 2, ":xtic(1)" if i == 0 else "", names[n], colours[n]))
                off = (i - (len(qlogs) - 1) / 2) * width
                labels.append('"" using ($0%+.2f):%d:(sprintf("%%%%.2f",$%d)) with labels offset 0,0.6 font ",9" '
                              'notitle' % (off, i + 2, i + 2))
            panels.append(r'''
set title "Event log queries: speed-up, jsonb time / fastjson time (higher is better; dotted: targets 2 for lookups, 3.03 for filter, nested, bigint, contains on the real-document logs; no bar: n/a)"
unset ylabel
set yrange [0:%(ymax2)s]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#444444" dt 2
set arrow 4 from graph 0, first 2 to graph 1, first 2 nohead lc rgb "#2ca02c" dt 3 lw 1.5
set arrow 5 from graph 0, first 3.03 to graph 1, first 3.03 nohead lc rgb "#d62728" dt 3 lw 1.5
plot ''' + ", \\\n     ".join(plots + labels) + "\n")
        if not panels:
            return False
        script = r'''
set terminal svg size %(width)d,%(height)d dynamic enhanced font "sans,11" background rgb "white"
set output "%(svg)s"
set datafile missing "NaN"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics lc rgb "#dddddd"
set key top right
set xtics norotate noenhanced font ",9"
set multiplot layout %(npanels)d,1 title "%(title)s" noenhanced
''' + "".join(panels) + '''
unset multiplot
'''
        script = script % {
            "svg": svg, "d1": d1, "d2": d2, "title": title.replace('"', "'"), "npanels": len(panels),
            "height": 450 * len(panels),
            "width": max(1100, 95 * max(len(self.chart_files), len(self.chart_queries) * max(1, len(qlogs)) * 0.6)),
            "ymax1": "%.2f" % max([11.0] + [1.15 * x for _, a, b in self.chart_files for x in (a, b) if x]),
            "ymax2": "%.2f" % max([3.5] + [1.15 * x for v in self.chart_queries.values() for x in v.values() if x])}
        sp = os.path.join(self.work, "chart.gp")
        with open(sp, "w") as f:
            f.write(script)
        r = subprocess.run([gp, sp], capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(svg):
            self.problems.append("gnuplot failed: " + (r.stderr.strip().splitlines() or ["?"])[-1])
            return False
        return True


def cmd_report(args):
    rep = Report(args.work)
    m = rep.machine
    base = "%s-%s" % (m.get("date", datetime.date.today().isoformat()), m.get("commit", "unknown"))
    if rep.run.get("quick"):
        base += "-quick"        # a smoke run never overwrites the full run of the same day and commit
    if rep.only:
        base += "-only" + "-".join(str(n) for n in rep.only)    # nor does a run of some sections
    os.makedirs(args.out_dir, exist_ok=True)
    md = os.path.join(args.out_dir, base + ".md")
    svg = os.path.join(args.out_dir, base + "-ratios.svg")
    rep.header()
    rep.section_core()
    rep.section_corpus()
    rep.section_events()
    rep.section_cbor()
    rep.section_memory()
    rep.section_targets()
    have_chart = rep.chart(svg)
    rep.section_problems()
    if have_chart:
        rep.add("## Chart", "", "![ratios to jsonb](%s)" % os.path.basename(svg), "")
    text = "\n".join(rep.lines).rstrip() + "\n"
    with open(md, "w") as f:
        f.write(text)
    if rep.only:
        print(md)               # a run of some sections is not the latest report: latest.* unchanged
        return
    shutil.copyfile(md, os.path.join(args.out_dir, "latest.md"))
    if have_chart:
        shutil.copyfile(svg, os.path.join(args.out_dir, "latest.svg"))
        # latest.md sits next to latest.svg
        with open(os.path.join(args.out_dir, "latest.md"), "w") as f:
            f.write(text.replace("](%s)" % os.path.basename(svg), "](latest.svg)"))
    print(md)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("machine")
    p.add_argument("--work", required=True)
    p = sub.add_parser("report")
    p.add_argument("--work", required=True)
    p.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    {"machine": cmd_machine, "report": cmd_report}[args.cmd](args)


if __name__ == "__main__":
    main()
