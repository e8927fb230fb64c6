#!/usr/bin/env python3
"""An NDJSON file of 1,000 lines, 37 of them bad, for the tests of loading
with bad lines (sql/on_error.sql, sql/ndjson_lines.sql).

Every good line is an object with a unique "seq" (its line number). The bad
lines sit at fixed line numbers, chosen by a seeded generator, and are of four
kinds that reach a type's input function through COPY:
  - 10 truncated documents (22P02),
  - 9 with a lone UTF-16 surrogate escape, invalid Unicode (22P02),
  - 9 with a raw control character in a string (22P02),
  - 9 nested deeper than fastjson's default limit of 10,000 (54001).
Raw invalid UTF-8 bytes never reach an input function through COPY (the
server checks the encoding of the whole line first), so they are not here;
the tests add such lines to the bytes they pass to fastjson_ndjson_lines.

usage: gen_bad_ndjson.py [--hex] [--kinds]
  --hex    print the file as one line of hex (for psql's \\set)
  --kinds  print "line kind" for each bad line instead of the file
No line holds byte 0x01 or 0x02, which the CSV trick uses as quote and
delimiter, nor a carriage return.
"""
import json
import random
import sys

LINES = 1000
DEEP = 10001
CONTROL = [c for c in range(0x20) if c not in (0x01, 0x02, 0x0a, 0x0d)]


def good(seq, rnd):
    doc = {
        "seq": seq,
        "type": rnd.choice(["push", "pull", "view", "buy"]),
        "user": {"id": rnd.randrange(10**6), "name": "user%d" % rnd.randrange(1000)},
        "tags": [rnd.choice("abcdef") for _ in range(rnd.randrange(4))],
        "score": round(rnd.uniform(0, 100), rnd.randrange(4)),
        "note": rnd.choice(["", "caf\u00e9", "\u6771\u4eac", "line\nbreak", "quote\"d", "tab\there"]),
    }
    return json.dumps(doc, ensure_ascii=rnd.random() < 0.5, separators=(",", ":")).encode()


def bad(kind, seq, rnd):
    text = good(seq, rnd)
    if kind == "truncated":
        # cut between characters: a cut inside one would be invalid UTF-8
        chars = text.decode()
        return chars[: rnd.randrange(1, len(chars) - 1)].encode()
    if kind == "surrogate":
        esc = rnd.choice(["\\ud800", "\\udfff", "\\udc00x", "\\ud83d\\u0041"])
        return b'{"seq":%d,"s":"%s"}' % (seq, esc.encode())
    if kind == "control":
        return b'{"seq":%d,"s":"a%cb"}' % (seq, rnd.choice(CONTROL))
    return b"[" * DEEP + b"]" * DEEP


def main():
    rnd = random.Random(20261202)
    kinds = ["truncated"] * 10 + ["surrogate"] * 9 + ["control"] * 9 + ["deep"] * 9
    where = sorted(rnd.sample(range(1, LINES + 1), len(kinds)))
    rnd.shuffle(kinds)
    bad_at = dict(zip(where, kinds))
    if "--kinds" in sys.argv:
        for line in where:
            print(line, bad_at[line])
        return
    out = b"".join((bad(bad_at[n], n, rnd) if n in bad_at else good(n, rnd)) + b"\n"
                   for n in range(1, LINES + 1))
    if "--hex" in sys.argv:
        sys.stdout.write(out.hex())
    else:
        sys.stdout.buffer.write(out)


if __name__ == "__main__":
    main()
