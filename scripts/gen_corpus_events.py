#!/usr/bin/env python3
"""Deterministic generator of the corpus log: one real corpus document a row.

usage: gen_corpus_events.py [--rows N] [--seed S] [--out FILE] [--corpus DIR] [--summary FILE]

The benchmark's first event log of real documents (section 3.1 of its report): tweets,
GitHub events and product rows, each row one document as the corpus has it. This script
builds it from the corpus (../shared/data/corpus, relative to the repository; --corpus
overrides) and writes N lines (default 100,000), each one document as compact JSON
(separators "," and ":", non-ASCII characters as UTF-8, not \\uXXXX), to FILE or stdout.

For row i = 0 .. N-1, r = random.Random(S).random() (one draw a row, default S = 1) picks
the kind:

  r < 0.237         a tweet: twitter.json's statuses[i % 100], with "id" += i, "id_str" =
                    str(new id), "created_at" + i seconds (same format,
                    "Sun Aug 31 00:29:15 +0000 2014")                 about 23.7 % of rows
  r < 0.637         a GitHub event: github_events.json[i % 30], with "id" (a string of
                    digits, the event's last key) = str(int(id) + i), "created_at" + i
                    seconds ("2013-01-10T07:58:30Z")                  about 40.0 %
  otherwise         a product row of amazon_cellphones.ndjson (its first line is an array
                    of the keys, each later line an array of values), turned into the object
                    dict(zip(keys, values)), row i % 792, with "totalReviews" += i // 792
                    (the listing's review count a little later)       about 36.3 %

Nothing else changes: every document keeps its own keys in their order, its values and its
number spellings (every number of these three files prints back as written), and no field
is added. The edits make every row distinct. Tweets average 4.7 kB: as text every one
compresses with pglz and nine in ten then stay inline, as jsonb most are stored out of line
(TOAST), as fastjson too, in its block form (both types' storage is extended).
GitHub events average 1.8 kB (a fifth of them compress), product rows 0.4 kB (stored as
they are). The rows have no key in common, so the log's queries each read the kind that
has the key and get NULL from the others.

Mean line length is about 1.98 kB. The mix was chosen so that 100,000 rows with seed 1
are 198 MB, the size of the reference log whose figures doc/design.md quotes (a tweet
share of 0.24 would give 199.6 MB). The output depends only on N and S (and the corpus
files): the same arguments give byte-identical files. A summary (rows, bytes and mean
line of each kind) goes to stderr, and as JSON to --summary FILE. Python 3 standard
library only.
"""

import argparse
import datetime
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data", "corpus"))

# The kinds in the order of the thresholds above: (name, upper bound of r)
MIX = (("tweet", 0.237), ("github_event", 0.637), ("product", 1.0))

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def shift_twitter_time(s, seconds):
    """'Sun Aug 31 00:29:15 +0000 2014' plus seconds, in the same format (English names,
    whatever the locale)."""
    _, mon, day, hms, zone, year = s.split(" ")
    if zone != "+0000":
        raise ValueError("unexpected time zone in tweet created_at %r" % s)
    h, m, sec = (int(x) for x in hms.split(":"))
    t = datetime.datetime(int(year), MONTHS.index(mon) + 1, int(day), h, m, sec)
    t += datetime.timedelta(seconds=seconds)
    return "%s %s %02d %02d:%02d:%02d +0000 %04d" % (
        DAYS[t.weekday()], MONTHS[t.month - 1], t.day, t.hour, t.minute, t.second, t.year)


def shift_iso_time(s, seconds):
    """'2013-01-10T07:58:30Z' plus seconds, in the same format."""
    t = datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ") + datetime.timedelta(seconds=seconds)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def load_corpus(corpus):
    """(tweets, GitHub events, product keys, product rows) from the corpus folder."""
    def path(name):
        return os.path.join(corpus, name)
    with open(path("twitter.json"), encoding="utf-8") as f:
        tweets = json.load(f)["statuses"]
    with open(path("github_events.json"), encoding="utf-8") as f:
        events = json.load(f)
    with open(path("amazon_cellphones.ndjson"), encoding="utf-8") as f:
        lines = [l for l in f.read().split("\n") if l.strip()]
    keys = json.loads(lines[0])
    rows = [json.loads(l) for l in lines[1:]]
    if len(tweets) != 100 or len(events) != 30 or len(rows) != 792 or any(len(r) != len(keys) for r in rows):
        raise SystemExit("gen_corpus_events.py: unexpected corpus content in %s (want 100 statuses in "
                         "twitter.json, 30 events in github_events.json, 792 rows of %d values in "
                         "amazon_cellphones.ndjson; got %d, %d, %d)" % (corpus, len(keys), len(tweets),
                                                                        len(events), len(rows)))
    return tweets, events, keys, rows


def document(i, kind, corpus_docs):
    """The document of row i of the given kind (a new dict; the corpus documents are not modified)."""
    tweets, events, keys, rows = corpus_docs
    if kind == "tweet":
        d = dict(tweets[i % len(tweets)])          # a shallow copy keeps the key order
        d["id"] = d["id"] + i
        d["id_str"] = str(d["id"])
        d["created_at"] = shift_twitter_time(d["created_at"], i)
    elif kind == "github_event":
        d = dict(events[i % len(events)])
        d["id"] = str(int(d["id"]) + i)
        d["created_at"] = shift_iso_time(d["created_at"], i)
    else:
        d = dict(zip(keys, rows[i % len(rows)]))
        d["totalReviews"] = d["totalReviews"] + i // len(rows)
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="output file (default: stdout)")
    ap.add_argument("--corpus", default=DEFAULT_CORPUS,
                    help="the corpus folder (default: ../shared/data/corpus from the repository)")
    ap.add_argument("--summary", help="also write the summary as JSON to this file")
    args = ap.parse_args()
    if args.rows < 0:
        ap.error("--rows must be >= 0")
    needed = ("twitter.json", "github_events.json", "amazon_cellphones.ndjson")
    missing = [n for n in needed if not os.path.isfile(os.path.join(args.corpus, n))]
    if missing:
        raise SystemExit("gen_corpus_events.py: the corpus folder %s is missing or incomplete (%s not "
                         "found): this log is built from the corpus's real documents and cannot be "
                         "made without them" % (args.corpus, ", ".join(missing)))
    corpus_docs = load_corpus(args.corpus)

    t0 = time.time()
    rng = random.Random(args.seed)
    stats = {name: {"rows": 0, "bytes": 0} for name, _ in MIX}
    out = open(args.out, "wb") if args.out else sys.stdout.buffer
    try:
        buf = []
        for i in range(args.rows):
            r = rng.random()
            kind = next(name for name, upper in MIX if r < upper)
            line = json.dumps(document(i, kind, corpus_docs), separators=(",", ":"),
                              ensure_ascii=False).encode("utf-8") + b"\n"
            stats[kind]["rows"] += 1
            stats[kind]["bytes"] += len(line)
            buf.append(line)
            if len(buf) >= 1000:
                out.write(b"".join(buf))
                buf = []
        out.write(b"".join(buf))
    finally:
        if args.out:
            out.close()
        else:
            out.flush()

    total = sum(s["bytes"] for s in stats.values())
    summary = {
        "generator": "scripts/gen_corpus_events.py --rows %d --seed %d" % (args.rows, args.seed),
        "rows": args.rows, "seed": args.seed, "bytes": total,
        "mean_line": total / args.rows if args.rows else None,
        "mix": [[name, upper] for name, upper in MIX],
        "kinds": {name: dict(s, mean_line=(s["bytes"] / s["rows"] if s["rows"] else None))
                  for name, s in stats.items()},
        "seconds": round(time.time() - t0, 2),
    }
    print("gen_corpus_events.py: %d rows, %d bytes, mean line %.0f bytes (%s), %.1f s" % (
        args.rows, total, summary["mean_line"] or 0,
        ", ".join("%s %d rows, mean %.0f B" % (n, s["rows"], s["bytes"] / s["rows"] if s["rows"] else 0)
                  for n, s in stats.items()), time.time() - t0), file=sys.stderr)
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(summary, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
