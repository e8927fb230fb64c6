#!/usr/bin/env python3
"""Deterministic generator of the session log: large documents (2 to 20 kB) built from
the corpus's real documents, for the benchmark's second event log of real documents.

usage: gen_session_events.py [--rows N] [--seed S] [--out FILE] [--corpus DIR] [--summary FILE]

The corpus log (scripts/gen_corpus_events.py) is one corpus document a row, most of them
under 2 kB. This one is built differently: each row is a session, an object that bundles
one to eight real documents, so rows are large (2 to 20 kB; as text, jsonb or fastjson
most of them are stored compressed, many out of line, fastjson's in its block form), and
the keys a query wants stand at the start, at the end and three levels deep:

  {"kind": K,                         a hot key first: one of 6 kinds, each 1/6 of rows
   "session": {"id": I,               16 hex digits
               "user": {"login": L, "name": M,
                        "geo": {"city": C, "country": D}},     three levels deep
               "agent": A,            one of 4 user agents ("curl/8.5.0" ...)
               "started": T},         seconds, increasing with the row number
   "events": [E1, ..., En],           n = 1 to 8 real documents as the corpus has them:
                                      tweets (twitter.json's statuses, 40 % of draws),
                                      GitHub events (github_events.json, 35 %), product
                                      rows (amazon_cellphones.ndjson's header keys zipped
                                      with a row's values, 25 %)
   "totals": {"events": n, "bytes": B, "by_kind": {"tweet": .., "github": .., "product": ..}},
   "seq": S}                          a hot key last: the row number from 1, an integer

The login and name are those of the session's first tweet's user or GitHub event's actor
(a login "guestNNN" when the session has neither); the city is one of 10 (São Paulo,
東京, Москва, Zürich, ..., each 1/10 of rows). Each row first draws a target size,
log-uniform between 2,000 and 20,000 bytes, and then draws documents (at most 16 draws,
at most 8 documents) until the events reach it, leaving out a document that would take
them past 19,500 bytes; so every line is between 2 and 20 kB, mean about 9.9 kB (a
draw seldom lands just on the target): 20,000 rows with seed 7 are 198.8 MB, 2,000 are
19.7 MB.

Everything is drawn from r = random.Random(S) (default S = 7) in a fixed order, so the
output depends only on N, S and the corpus files: the same arguments give byte-identical
files. Each line is compact JSON (separators "," and ":") with non-ASCII characters as
UTF-8, not \\uXXXX. A summary (rows, bytes, mean line, size distribution, documents of
each kind) goes to stderr, and as JSON to --summary FILE. Python 3 standard library only.
"""

import argparse
import json
import math
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data", "corpus"))
KINDS = ("browse", "search", "checkout", "support", "review", "share")
CITIES = (("São Paulo", "BR"), ("東京", "JP"), ("Москва", "RU"), ("Zürich", "CH"), ("Lagos", "NG"),
          ("Montréal", "CA"), ("Kraków", "PL"), ("Mumbai", "IN"), ("Austin", "US"), ("Oslo", "NO"))
AGENTS = ("Mozilla/5.0 (X11; Linux x86_64)", "curl/8.5.0", "okhttp/4.12.0", "PostmanRuntime/7.36")
TARGET_MIN, TARGET_MAX = 2000, 20000      # the target size of a row's events, log-uniform
EVENTS_CAP = 19500                        # the events never go past this many bytes
MAX_DOCS, MAX_DRAWS = 8, 16


def compact(x):
    return json.dumps(x, ensure_ascii=False, separators=(",", ":"))


def load_corpus(corpus):
    """[(kind, document, its compact size in bytes)] for tweets, GitHub events, product rows."""
    needed = ("twitter.json", "github_events.json", "amazon_cellphones.ndjson")
    missing = [n for n in needed if not os.path.isfile(os.path.join(corpus, n))]
    if missing:
        raise SystemExit("gen_session_events.py: the corpus folder %s is missing or incomplete (%s not "
                         "found): this log is built from the corpus's real documents and cannot be "
                         "made without them" % (corpus, ", ".join(missing)))
    with open(os.path.join(corpus, "twitter.json"), encoding="utf-8") as f:
        tweets = json.load(f)["statuses"]
    with open(os.path.join(corpus, "github_events.json"), encoding="utf-8") as f:
        events = json.load(f)
    products = []
    with open(os.path.join(corpus, "amazon_cellphones.ndjson"), encoding="utf-8") as f:
        keys = json.loads(f.readline())
        for line in f:
            if line.strip():
                products.append(dict(zip(keys, json.loads(line))))
    if not tweets or not events or not products:
        raise SystemExit("gen_session_events.py: unexpected corpus content in %s" % corpus)
    sized = lambda kind, docs: [(kind, d, len(compact(d).encode("utf-8"))) for d in docs]
    return sized("tweet", tweets), sized("github", events), sized("product", products)


def session(i, r, corpus_docs):
    """Row i's document (a new dict), drawing from r in a fixed order."""
    tweets, events, products = corpus_docs
    kind = KINDS[r.randrange(len(KINDS))]
    target = TARGET_MIN * (TARGET_MAX / TARGET_MIN) ** r.random()
    docs, size, user = [], 0, None
    by_kind = {"tweet": 0, "github": 0, "product": 0}
    for _ in range(MAX_DRAWS):
        if len(docs) >= MAX_DOCS or size >= target:
            break
        pick = r.random()
        pool = tweets if pick < 0.4 else events if pick < 0.75 else products
        dkind, d, dsize = pool[r.randrange(len(pool))]
        if docs and size + dsize + 1 > EVENTS_CAP:
            continue                      # too large for this row: draw again
        docs.append(d)
        size += dsize + 1
        by_kind[dkind] += 1
        if user is None and dkind == "tweet":
            user = {"login": d["user"]["screen_name"], "name": d["user"]["name"]}
        elif user is None and dkind == "github":
            user = {"login": d["actor"]["login"], "name": ""}
    city, country = CITIES[r.randrange(len(CITIES))]
    agent = AGENTS[r.randrange(len(AGENTS))]
    guest = r.randrange(1000)
    sid = r.getrandbits(64)
    jitter = r.randrange(7)
    user = user or {"login": "guest%d" % guest, "name": ""}
    user["geo"] = {"city": city, "country": country}
    body = compact(docs)
    return {
        "kind": kind,
        "session": {"id": "%016x" % sid, "user": user, "agent": agent,
                    "started": 1700000000 + i * 7 + jitter},
        "events": docs,
        "totals": {"events": len(docs), "bytes": len(body.encode("utf-8")), "by_kind": by_kind},
        "seq": i + 1,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", help="output file (default: stdout)")
    ap.add_argument("--corpus", default=DEFAULT_CORPUS,
                    help="the corpus folder (default: ../shared/data/corpus from the repository)")
    ap.add_argument("--summary", help="also write the summary as JSON to this file")
    args = ap.parse_args()
    if args.rows < 0:
        ap.error("--rows must be >= 0")
    corpus_docs = load_corpus(args.corpus)
    t0 = time.time()
    r = random.Random(args.seed)
    out = open(args.out, "wb") if args.out else sys.stdout.buffer
    sizes, docs = [], {"tweet": 0, "github": 0, "product": 0}
    try:
        buf = []
        for i in range(args.rows):
            doc = session(i, r, corpus_docs)
            for k, v in doc["totals"]["by_kind"].items():
                docs[k] += v
            line = compact(doc).encode("utf-8") + b"\n"
            sizes.append(len(line))
            buf.append(line)
            if len(buf) >= 500:
                out.write(b"".join(buf))
                buf = []
        out.write(b"".join(buf))
    finally:
        if args.out:
            out.close()
        else:
            out.flush()
    total = sum(sizes)
    s = sorted(sizes)
    q = lambda f: s[min(len(s) - 1, int(len(s) * f))] if s else 0
    summary = {
        "generator": "scripts/gen_session_events.py --rows %d --seed %d" % (args.rows, args.seed),
        "rows": args.rows, "seed": args.seed, "bytes": total,
        "mean_line": total / args.rows if args.rows else None,
        "min": q(0), "p10": q(0.1), "median": q(0.5), "p90": q(0.9), "max": s[-1] if s else 0,
        "under_2kB": sum(1 for x in s if x < 2000), "over_20kB": sum(1 for x in s if x > 20000),
        "documents": docs,
        "seconds": round(time.time() - t0, 2),
    }
    print("gen_session_events.py: %d rows, %d bytes, mean line %.0f B, min %d, p10 %d, median %d, "
          "p90 %d, max %d; %d under 2 kB, %d over 20 kB; documents: %s; %.1f s" % (
              args.rows, total, summary["mean_line"] or 0, summary["min"], summary["p10"],
              summary["median"], summary["p90"], summary["max"], summary["under_2kB"],
              summary["over_20kB"], ", ".join("%s %d" % kv for kv in docs.items()),
              time.time() - t0), file=sys.stderr)
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(summary, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
