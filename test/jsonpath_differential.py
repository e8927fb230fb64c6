#!/usr/bin/python3
"""jsonpath_differential.py — SQL/JSON path on fastjson against jsonb.

usage: /usr/bin/python3 test/jsonpath_differential.py [CORPUS_DIR] [--seed N] [--paths N] [--quick]

Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE); the
fastjson extension must be installed there (it is created if missing).

1. Generates documents (test/jsonpath_gen.py: duplicate keys, numbers in
   several spellings, deep nesting, empty containers, convertible strings)
   and takes the corpus documents from CORPUS_DIR (the whole files, and the
   elements of their top-level arrays and objects; skipped with a message when
   the directory is absent).
2. Generates path expressions covering every jsonpath item type the server
   knows, each in lax and in strict mode, keeps those the server's jsonpath
   parser accepts, and runs each on documents with every function, with and
   without silent, and through the operators:
     fastjson_path_query(...)::jsonb against jsonb_path_query(...), in order;
     fastjson_path_query_array / _query_first (as jsonb), _exists, _match,
     @? and @@ against jsonb's; the _tz variants for expressions with
     datetimes. Errors are compared by SQLSTATE and by message.
3. Stored values and index scans: the documents and larger ones (compressed
   in their row, or stored out of line: the executor reads only a prefix of
   such values when the path allows) in a pglz table and an lz4 table; @? and
   @@ with each expression (without variables) by a sequential scan and by a
   bitmap index scan under a GIN index of each operator class (fastjson_ops,
   fastjson_path_ops), against jsonb's sequential scan; and each row's
   fastjson_path_query_array and _first (silent) against jsonb's.

Prints the counts (expressions, documents, comparisons, mismatches by kind,
item types covered) and the first mismatches; exits 1 on any mismatch, or if
an item type the server knows was not covered.
"""
import argparse
import json
import os
import random
import sys
import time

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jsonpath_gen import DocGen, PathGen, VARS  # noqa: E402

# jsonpath item types the server's parser can produce, by major version (jpiSubscript
# is not listed: it exists only in the parse tree, the compiled form keeps its
# bounds in jpiIndexArray, which "subscript" below stands for).
ITEMS_15 = ["null", "string", "numeric", "bool", "and", "or", "not", "isunknown", "equal",
            "notequal", "less", "greater", "lessorequal", "greaterorequal", "add", "sub", "mul",
            "div", "mod", "plus", "minus", "anyarray", "anykey", "indexarray", "any", "key",
            "current", "root", "variable", "filter", "exists", "type", "size", "abs", "floor",
            "ceiling", "double", "datetime", "keyvalue", "subscript", "last", "startswith",
            "likeregex"]
ITEMS_17 = ["bigint", "boolean", "date", "decimal", "integer", "number", "stringfunc", "time",
            "timetz", "timestamp", "timestamptz"]
ITEMS_19 = ["strreplace", "strlower", "strupper", "strltrim", "strrtrim", "strbtrim",
            "strinitcap", "strsplitpart"]

SETUP = r"""
SET client_min_messages = warning;
SET statement_timeout = '900s';
CREATE EXTENSION IF NOT EXISTS fastjson;
SET timezone = 'America/New_York';
DROP TABLE IF EXISTS jp_docs, jp_paths, jp_mismatch, jp_outcome;
CREATE TABLE jp_docs (id int PRIMARY KEY, src text, t text, f fastjson, j jsonb);
CREATE TABLE jp_paths (id int PRIMARY KEY, p text, tz boolean, vars boolean, doc int);
CREATE TABLE jp_mismatch (kind text, fn text, doc int, path int, silent boolean, tz boolean,
                          fast text, jsonb text);
-- what the comparisons saw: errors, empty results (no item, NULL, false), values
CREATE TABLE jp_outcome (errors int, empty int, vals int);

-- One function of one kind on both types: the results as text (a sequence as a jsonb
-- array, in order), or 'ERROR sqlstate message'.
CREATE OR REPLACE FUNCTION jp_run(kind text, f fastjson, j jsonb, p jsonpath, vf fastjson, vj jsonb,
                                  silent boolean, tz boolean, OUT fr text, OUT jr text)
LANGUAGE plpgsql AS $$
BEGIN
	BEGIN
		IF kind = 'query' AND NOT tz THEN
			SELECT coalesce(jsonb_agg(x::jsonb ORDER BY n), '[]')::text INTO fr
			FROM fastjson_path_query(f, p, vf, silent) WITH ORDINALITY AS s(x, n);
		ELSIF kind = 'query' THEN
			SELECT coalesce(jsonb_agg(x::jsonb ORDER BY n), '[]')::text INTO fr
			FROM fastjson_path_query_tz(f, p, vf, silent) WITH ORDINALITY AS s(x, n);
		ELSIF kind = 'array' AND NOT tz THEN fr := fastjson_path_query_array(f, p, vf, silent)::jsonb::text;
		ELSIF kind = 'array' THEN fr := fastjson_path_query_array_tz(f, p, vf, silent)::jsonb::text;
		ELSIF kind = 'first' AND NOT tz THEN fr := coalesce(fastjson_path_query_first(f, p, vf, silent)::jsonb::text, 'NULL');
		ELSIF kind = 'first' THEN fr := coalesce(fastjson_path_query_first_tz(f, p, vf, silent)::jsonb::text, 'NULL');
		ELSIF kind = 'exists' AND NOT tz THEN fr := coalesce(fastjson_path_exists(f, p, vf, silent)::text, 'NULL');
		ELSIF kind = 'exists' THEN fr := coalesce(fastjson_path_exists_tz(f, p, vf, silent)::text, 'NULL');
		ELSIF kind = 'match' AND NOT tz THEN fr := coalesce(fastjson_path_match(f, p, vf, silent)::text, 'NULL');
		ELSIF kind = 'match' THEN fr := coalesce(fastjson_path_match_tz(f, p, vf, silent)::text, 'NULL');
		ELSIF kind = '@?' THEN fr := coalesce((f @? p)::text, 'NULL');
		ELSIF kind = '@@' THEN fr := coalesce((f @@ p)::text, 'NULL');
		END IF;
	EXCEPTION WHEN OTHERS THEN
		fr := 'ERROR ' || SQLSTATE || ' ' || SQLERRM;
	END;
	BEGIN
		IF kind = 'query' AND NOT tz THEN
			SELECT coalesce(jsonb_agg(x ORDER BY n), '[]')::text INTO jr
			FROM jsonb_path_query(j, p, vj, silent) WITH ORDINALITY AS s(x, n);
		ELSIF kind = 'query' THEN
			SELECT coalesce(jsonb_agg(x ORDER BY n), '[]')::text INTO jr
			FROM jsonb_path_query_tz(j, p, vj, silent) WITH ORDINALITY AS s(x, n);
		ELSIF kind = 'array' AND NOT tz THEN jr := jsonb_path_query_array(j, p, vj, silent)::text;
		ELSIF kind = 'array' THEN jr := jsonb_path_query_array_tz(j, p, vj, silent)::text;
		ELSIF kind = 'first' AND NOT tz THEN jr := coalesce(jsonb_path_query_first(j, p, vj, silent)::text, 'NULL');
		ELSIF kind = 'first' THEN jr := coalesce(jsonb_path_query_first_tz(j, p, vj, silent)::text, 'NULL');
		ELSIF kind = 'exists' AND NOT tz THEN jr := coalesce(jsonb_path_exists(j, p, vj, silent)::text, 'NULL');
		ELSIF kind = 'exists' THEN jr := coalesce(jsonb_path_exists_tz(j, p, vj, silent)::text, 'NULL');
		ELSIF kind = 'match' AND NOT tz THEN jr := coalesce(jsonb_path_match(j, p, vj, silent)::text, 'NULL');
		ELSIF kind = 'match' THEN jr := coalesce(jsonb_path_match_tz(j, p, vj, silent)::text, 'NULL');
		ELSIF kind = '@?' THEN jr := coalesce((j @? p)::text, 'NULL');
		ELSIF kind = '@@' THEN jr := coalesce((j @@ p)::text, 'NULL');
		END IF;
	EXCEPTION WHEN OTHERS THEN
		jr := 'ERROR ' || SQLSTATE || ' ' || SQLERRM;
	END;
END $$;

-- Every kind on one (document, path): the number of comparisons; mismatches are recorded.
CREATE OR REPLACE FUNCTION jp_compare(d int, pid int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	doc record;
	pth record;
	vf fastjson;
	vj jsonb;
	p jsonpath;
	k text;
	s boolean;
	z boolean;
	r record;
	n int := 0;
	ne int := 0;
	nn int := 0;
	nv int := 0;
BEGIN
	SELECT * INTO doc FROM jp_docs WHERE id = d;
	SELECT * INTO pth FROM jp_paths WHERE id = pid;
	p := pth.p::jsonpath;
	IF pth.vars THEN
		vf := current_setting('jp.vars')::fastjson;
		vj := current_setting('jp.vars')::jsonb;
	ELSE
		vf := '{}';
		vj := '{}';
	END IF;
	FOREACH z IN ARRAY CASE WHEN pth.tz THEN ARRAY[false, true] ELSE ARRAY[false] END LOOP
		FOREACH s IN ARRAY ARRAY[false, true] LOOP
			FOREACH k IN ARRAY ARRAY['query', 'array', 'first', 'exists', 'match'] LOOP
				r := jp_run(k, doc.f, doc.j, p, vf, vj, s, z);
				n := n + 1;
				IF r.jr LIKE 'ERROR %' THEN ne := ne + 1;
				ELSIF r.jr IN ('[]', 'NULL', 'false') THEN nn := nn + 1;
				ELSE nv := nv + 1;
				END IF;
				IF r.fr IS DISTINCT FROM r.jr THEN
					INSERT INTO jp_mismatch VALUES (
						CASE WHEN r.fr LIKE 'ERROR %' AND r.jr LIKE 'ERROR %'
							AND substr(r.fr, 7, 5) = substr(r.jr, 7, 5) THEN 'message'
							WHEN r.fr LIKE 'ERROR %' OR r.jr LIKE 'ERROR %' THEN 'error'
							ELSE 'result' END,
						k, d, pid, s, z, left(r.fr, 300), left(r.jr, 300));
				END IF;
			END LOOP;
		END LOOP;
	END LOOP;
	IF NOT pth.tz THEN
		FOREACH k IN ARRAY ARRAY['@?', '@@'] LOOP
			r := jp_run(k, doc.f, doc.j, p, NULL, NULL, true, false);
			n := n + 1;
			IF r.jr LIKE 'ERROR %' THEN ne := ne + 1;
			ELSIF r.jr IN ('NULL', 'false') THEN nn := nn + 1;
			ELSE nv := nv + 1;
			END IF;
			IF r.fr IS DISTINCT FROM r.jr THEN
				INSERT INTO jp_mismatch VALUES (
					CASE WHEN r.fr LIKE 'ERROR %' OR r.jr LIKE 'ERROR %' THEN 'error' ELSE 'result' END,
					k, d, pid, true, false, left(r.fr, 300), left(r.jr, 300));
			END IF;
		END LOOP;
	END IF;
	INSERT INTO jp_outcome VALUES (ne, nn, nv);
	RETURN n;
END $$;

CREATE OR REPLACE FUNCTION jp_valid(t text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	PERFORM t::jsonpath;
	RETURN true;
EXCEPTION WHEN OTHERS THEN
	RETURN false;
END $$;
"""


def corpus_documents(path, rnd, per_file):
    """(name, text) of the corpus files and of elements of their top-level containers."""
    out = []
    if not path or not os.path.isdir(path):
        return out
    names = []
    for root, _, files in os.walk(path):
        for f in sorted(files):
            if f.endswith(".json") or f.endswith(".ndjson"):
                names.append(os.path.join(root, f))
    for name in sorted(names):
        base = os.path.relpath(name, path)
        with open(name, "rb") as fh:
            raw = fh.read().decode("utf-8")
        if name.endswith(".ndjson"):
            lines = [l for l in raw.splitlines() if l.strip()]
            for i, l in enumerate(rnd.sample(lines, min(per_file, len(lines)))):
                out.append(("%s:line" % base, l))
            continue
        try:
            doc = json.loads(raw)
        except ValueError:
            continue
        out.append((base, raw))
        elems = []
        if isinstance(doc, list):
            elems = doc
        elif isinstance(doc, dict):
            for v in doc.values():
                elems.extend(v if isinstance(v, list) else [v])
        elems = [e for e in elems if isinstance(e, (dict, list))]
        for e in rnd.sample(elems, min(per_file, len(elems))):
            out.append(("%s:element" % base, json.dumps(e, ensure_ascii=False)))
    return out


def keys_of(text, limit=40):
    """Keys of a document, for expressions that find something in it."""
    seen = []

    def walk(v, depth):
        if depth > 6 or len(seen) > 400:
            return
        if isinstance(v, dict):
            for k, x in v.items():
                seen.append(k)
                walk(x, depth + 1)
        elif isinstance(v, list):
            for x in v[:20]:
                walk(x, depth + 1)

    try:
        walk(json.loads(text), 0)
    except ValueError:
        return []
    keys = sorted(set(seen), key=lambda k: (-seen.count(k), k))
    return keys[:limit]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default=None)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--paths", type=int, default=1700, help="base expressions (each in lax and strict)")
    ap.add_argument("--docs", type=int, default=240, help="generated documents")
    ap.add_argument("--per-path", type=int, default=6, help="generated documents each expression runs on")
    ap.add_argument("--corpus-paths", type=int, default=24, help="expressions per corpus document")
    ap.add_argument("--index-paths", type=int, default=500, help="expressions in the stored-value and index test")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--skip-index", action="store_true", help="no index test")
    ap.add_argument("--verbose", action="store_true", help="progress on stderr")
    ap.add_argument("--setup-only", action="store_true", help="make the tables jp_docs and jp_paths, and stop")
    args = ap.parse_args()
    if args.quick:
        args.paths, args.docs, args.per_path, args.corpus_paths, args.index_paths = 200, 60, 3, 4, 100
    rnd = random.Random(args.seed)
    t0 = time.time()
    conn = psycopg.connect(autocommit=True)
    major = conn.info.server_version // 10000
    conn.execute(SETUP)
    conn.execute("SELECT set_config('jp.vars', %s, false)", (VARS,))

    # ---------------------------------------------------------------- documents
    docs = [("generated", t) for t in DocGen(rnd).documents(args.docs)]
    corpus = corpus_documents(args.corpus, rnd, 6)
    if not corpus:
        print("SKIP: corpus directory %r is absent: only generated documents" % (args.corpus,))
    with conn.cursor() as cur:
        for i, (src, t) in enumerate(docs + corpus):
            cur.execute("INSERT INTO jp_docs VALUES (%s, %s, %s, %s::fastjson, %s::jsonb)", (i + 1, src, t, t, t))
    n_gen = len(docs)
    n_docs = n_gen + len(corpus)

    # -------------------------------------------------------------- expressions
    exprs = []           # (text, used item types, corpus doc id or None)
    pg = PathGen(rnd, major)
    for _ in range(args.paths):
        e, used = pg.expression()
        exprs.append((e, used, None))
    for d in range(n_gen + 1, n_docs + 1):
        keys = keys_of(corpus[d - n_gen - 1][1])
        cg = PathGen(rnd, major, keys or None, root_in_filters=False)
        for _ in range(args.corpus_paths // 2):
            e, used = cg.expression()
            exprs.append((e, used, d))
    covered = set()
    paths = []           # (id, text, tz, vars, corpus doc)
    with conn.cursor() as cur:
        for e, used, d in exprs:
            for mode in ("lax ", "strict "):
                text = mode + e
                cur.execute("SELECT jp_valid(%s)", (text,))
                if not cur.fetchone()[0]:
                    continue
                tz = any(x in used for x in ("datetime", "date", "time", "timetz", "timestamp", "timestamptz"))
                uses_vars = "variable" in used or "$" in e.replace("$.", "").replace("$[", "").replace("$ ", "")
                pid = len(paths) + 1
                paths.append((pid, text, tz, uses_vars or rnd.random() < 0.3, d))
                covered |= used
                cur.execute("INSERT INTO jp_paths VALUES (%s, %s, %s, %s, %s)",
                            (pid, text, tz, paths[-1][3], d))
    known = ITEMS_15 + (ITEMS_17 if major >= 17 else []) + (ITEMS_19 if major >= 19 else [])
    missing = [k for k in known if k not in covered]
    print("PostgreSQL %d: %d expressions (%d lax, %d strict; %d with datetimes also run with the _tz functions), "
          "%d documents (%d generated, %d from the corpus)" % (
              major, len(paths), sum(p[1].startswith("lax") for p in paths),
              sum(p[1].startswith("strict") for p in paths), sum(p[2] for p in paths),
              n_docs, n_gen, n_docs - n_gen))
    print("item types covered: %d of the %d the server knows%s" % (
        len(known) - len(missing), len(known), ("; MISSING: " + ", ".join(missing)) if missing else ""))

    if args.setup_only:
        return 0

    # -------------------------------------------------------------- comparisons
    pairs = []
    for pid, text, tz, v, d in paths:
        if d is None:
            for doc in rnd.sample(range(1, n_gen + 1), args.per_path):
                pairs.append((doc, pid))
        else:
            pairs.append((d, pid))
    comparisons = 0
    batch = 400
    with conn.cursor() as cur:
        for i in range(0, len(pairs), batch):
            chunk = pairs[i:i + batch]
            cur.execute("SELECT sum(jp_compare(d, p)) FROM unnest(%s::int[], %s::int[]) AS u(d, p)",
                        ([c[0] for c in chunk], [c[1] for c in chunk]))
            comparisons += cur.fetchone()[0] or 0
            if args.verbose:
                print("  %d of %d pairs, %.0f s" % (i + len(chunk), len(pairs), time.time() - t0), file=sys.stderr)
    mism = conn.execute("SELECT kind, count(*) FROM jp_mismatch GROUP BY 1 ORDER BY 1").fetchall()
    counts = dict(mism)
    print("%d (document, expression) pairs, %d comparisons: %d result mismatches, %d error mismatches "
          "(an error on one side only, or another SQLSTATE), %d message mismatches (same SQLSTATE)" % (
              len(pairs), comparisons, counts.get("result", 0), counts.get("error", 0), counts.get("message", 0)))
    oc = conn.execute("SELECT sum(errors), sum(empty), sum(vals) FROM jp_outcome").fetchone()
    print("  jsonb's answers in these comparisons: %d errors, %d empty (no item, NULL or false), %d with items or true"
          % tuple(int(x or 0) for x in oc))
    for row in conn.execute("""SELECT m.kind, m.fn, m.silent, m.tz, p.p, left(d.t, 200), m.fast, m.jsonb
                               FROM jp_mismatch m JOIN jp_paths p ON p.id = m.path JOIN jp_docs d ON d.id = m.doc
                               ORDER BY m.kind, m.path LIMIT 25""").fetchall():
        print("  MISMATCH %s %s silent=%s tz=%s\n    path: %s\n    doc:  %s\n    fastjson: %s\n    jsonb:    %s" % row)

    # ------------------------------------------------------- index against seq scan
    idx_fail = 0 if args.skip_index else index_test(conn, rnd, paths, args.index_paths)
    ok = not mism and not missing and idx_fail == 0
    print("jsonpath differential: %s (%.0f s)" % ("all agree" if ok else "FAILED", time.time() - t0))
    conn.execute("DROP TABLE jp_docs, jp_paths, jp_mismatch, jp_outcome")
    return 0 if ok else 1


def index_test(conn, rnd, paths, n):
    """
    On stored values (compressed in the row with pglz, with lz4, or out of line: what
    the executor reads only a prefix of) and through GIN indexes of both operator classes:
    @? and @@ by a sequential scan and by bitmap index scans against jsonb's sequential
    scan, and each row's fastjson_path_query_array and _first (silent) against jsonb's.
    """
    dg = DocGen(rnd)
    large = [dg.large(rnd.choice([3000, 6000, 12000, 30000])) for _ in range(50)] + \
            [dg.large(100000) for _ in range(4)]
    base = conn.execute("SELECT coalesce(max(id), 0) FROM jp_docs").fetchone()[0]
    with conn.cursor() as cur:
        for i, t in enumerate(large):
            cur.execute("INSERT INTO jp_docs VALUES (%s, 'large', %s, %s::fastjson, %s::jsonb)",
                        (base + i + 1, t, t, t))
    conn.execute("""
        DROP TABLE IF EXISTS jp_ix_ops, jp_ix_path, jp_ix_jsonb;
        CREATE TABLE jp_ix_ops (id int, doc fastjson);
        CREATE TABLE jp_ix_path (id int, doc fastjson);
        CREATE TABLE jp_ix_jsonb (id int, doc jsonb);
    """)
    conn.execute("ALTER TABLE jp_ix_ops ALTER COLUMN doc SET COMPRESSION pglz")
    lz4 = True
    try:
        conn.execute("ALTER TABLE jp_ix_path ALTER COLUMN doc SET COMPRESSION lz4")
    except psycopg.Error:
        lz4 = False
    conn.execute("""
        INSERT INTO jp_ix_ops SELECT id, t::fastjson FROM jp_docs WHERE octet_length(t) < 400000;
        INSERT INTO jp_ix_path SELECT id, t::fastjson FROM jp_docs WHERE octet_length(t) < 400000;
        INSERT INTO jp_ix_jsonb SELECT id, t::jsonb FROM jp_docs WHERE octet_length(t) < 400000;
        CREATE INDEX ON jp_ix_ops USING gin (doc);
        CREATE INDEX ON jp_ix_path USING gin (doc fastjson_path_ops);
        ANALYZE jp_ix_ops; ANALYZE jp_ix_path; ANALYZE jp_ix_jsonb;
    """)
    stored = conn.execute("""SELECT (SELECT count(*) FROM jp_ix_ops WHERE pg_column_compression(doc) = 'pglz'),
                                    (SELECT count(*) FROM jp_ix_path WHERE pg_column_compression(doc) = 'lz4'),
                                    (SELECT count(*) FROM jp_ix_ops WHERE pg_column_size(doc) > 8000)""").fetchone()
    # no variables (the operators have none), and one $ only: a $ in a filter reads the
    # whole document for each item filtered, quadratic on the large documents for both types
    cand = [p for p in paths if not p[3] and p[4] is None and p[1].count("$") == 1]
    cand = rnd.sample(cand, min(n, len(cand)))
    queries = 0
    mismatches = []
    errors_both = 0
    used_index = 0
    explained = 0
    rows_compared = 0
    for pid, text, tz, v, d in cand:
        for op in ("@?", "@@"):
            res = {}
            for name, table, setting in (
                    ("seq", "jp_ix_ops", "SET enable_bitmapscan = off; SET enable_indexscan = off; SET enable_seqscan = on"),
                    ("ops", "jp_ix_ops", "SET enable_bitmapscan = on; SET enable_indexscan = on; SET enable_seqscan = off"),
                    ("path_ops", "jp_ix_path", "SET enable_bitmapscan = on; SET enable_indexscan = on; SET enable_seqscan = off"),
                    ("seq lz4", "jp_ix_path", "SET enable_bitmapscan = off; SET enable_indexscan = off; SET enable_seqscan = on"),
                    ("jsonb", "jp_ix_jsonb", "SET enable_bitmapscan = off; SET enable_indexscan = off; SET enable_seqscan = on")):
                conn.execute(setting)
                sql = "SELECT coalesce(array_agg(id ORDER BY id), '{}') FROM %s WHERE doc %s %%s::jsonpath" % (table, op)
                try:
                    res[name] = conn.execute(sql, (text,)).fetchone()[0]
                except psycopg.Error as e:
                    res[name] = "ERROR %s" % e.sqlstate
                if name in ("ops", "path_ops") and queries % 25 == 0 and not isinstance(res[name], str):
                    plan = conn.execute("EXPLAIN (COSTS OFF) " + sql, (text,)).fetchall()
                    explained += 1
                    used_index += any("Bitmap Index Scan" in r[0] for r in plan)
            queries += 1
            vals = set(json.dumps(r) if not isinstance(r, str) else r for r in res.values())
            if all(isinstance(r, str) for r in res.values()) and len(vals) == 1:
                errors_both += 1
            elif len(vals) > 1:
                mismatches.append((op, text, res))
        # each row's results, read from the stored values
        conn.execute("SET enable_bitmapscan = off; SET enable_indexscan = off; SET enable_seqscan = on")
        for fn in ("query_array", "query_first"):
            res = {}
            for name, table, typ in (("pglz", "jp_ix_ops", "fastjson"), ("lz4", "jp_ix_path", "fastjson"),
                                     ("jsonb", "jp_ix_jsonb", "jsonb")):
                cast = "::jsonb" if typ == "fastjson" else ""
                sql = ("SELECT coalesce(jsonb_agg(coalesce((%s_path_%s(doc, %%s::jsonpath, '{}', true))%s, 'null') ORDER BY id), '[]')::text "
                       "FROM %s" % (typ, fn, cast, table))
                try:
                    res[name] = conn.execute(sql, (text,)).fetchone()[0]
                except psycopg.Error as e:
                    res[name] = "ERROR %s" % e.sqlstate
            queries += 1
            rows_compared += len(large)
            if len(set(res.values())) > 1:
                mismatches.append((fn, text, res))
    conn.execute("RESET enable_bitmapscan; RESET enable_indexscan; RESET enable_seqscan")
    rows = conn.execute("SELECT count(*) FROM jp_ix_ops").fetchone()[0]
    print("stored values and indexes: %d queries (%d expressions: @? and @@ by a sequential scan, a fastjson_ops and "
          "a fastjson_path_ops bitmap index scan, against jsonb's sequential scan; each row's query_array and "
          "query_first on a pglz%s table against jsonb's) over %d documents (compressed: %d with pglz, %d with "
          "lz4; %d stored out of line): %d mismatches (%d queries raise the same error on every scan); "
          "%d of %d sampled plans used the index" % (
              queries, len(cand), "" if not lz4 else " and an lz4", rows, stored[0], stored[1], stored[2],
              len(mismatches), errors_both, used_index, explained))
    for op, text, res in mismatches[:15]:
        print("  STORED/INDEX MISMATCH %s %s: %s" % (op, text, {k: (v if isinstance(v, str) else len(v)) for k, v in res.items()}))
    conn.execute("DROP TABLE jp_ix_ops, jp_ix_path, jp_ix_jsonb")
    return len(mismatches) + (explained - used_index)


if __name__ == "__main__":
    sys.exit(main())
