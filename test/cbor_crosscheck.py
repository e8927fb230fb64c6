#!/usr/bin/python3
"""cbor_crosscheck.py — fastjson's CBOR functions against an independent
implementation, Debian's python3-cbor2, through a running cluster.

usage: /usr/bin/python3 test/cbor_crosscheck.py [DATA_DIR] [--generated N] [--seed S]

Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE); the
fastjson extension is created if missing. Documents: every file of
DATA_DIR/corpus (recursively; NDJSON files line by line) and N generated ones
(default 10000). For each document x:

  1. cbor2.loads(fastjson_to_cbor(x)) equals x, numbers exactly: integers as
     ints, other numbers by exact decimal value (a float must be the double
     nearest x's number, and its shortest repr must have x's value).
  2. fastjson_from_cbor(cbor2.dumps(x)) equals x, x given to cbor2 with each
     non-integer as a float where it names a double unambiguously (doc/design.md, section 3)
     and as a Decimal otherwise; the same with cbor2's canonical encoding.
  3. fastjson_to_cbor(x, deterministic => true) is byte for byte
     cbor2.dumps(x, canonical=True), for every x without duplicate keys (those
     must fail with SQLSTATE 22030).
  4. fastjson_from_cbor(fastjson_to_cbor(x)) = x as jsonb, and as fastjson
     text it keeps x's key order, duplicate keys, integers, and the
     integer/non-integer form of every number.

Prints the counts and exits 1 on any mismatch. Needs nothing but psycopg
and cbor2 (both Debian packages).
"""
import argparse
import json
import math
import os
import random
import sys
from decimal import Decimal

import io

import cbor2
import cbor2.encoder
import psycopg

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

BATCH = 400
failures = []


def fail(name, what):
    failures.append((name, what))
    if len(failures) <= 20:
        print(f"MISMATCH {name}: {what}", file=sys.stderr)


# ------------------------------------------------------------------- models

class Num:
    """A non-integer JSON number as written: its text and exact value."""
    __slots__ = ("text", "value")

    def __init__(self, text):
        self.text = text
        self.value = Decimal(text)


def canonical(obj):
    """cbor2's canonical encoding, from its pure-Python encoder: the C one in
    Debian's cbor2 5.4.6 writes binary16 values of 32768 and above (65504.0,
    which RFC 8949 Appendix A shows as f97bff) as binary32."""
    fp = io.BytesIO()
    cbor2.encoder.CBOREncoder(fp, canonical=True).encode(obj)
    return fp.getvalue()


def names_double(text):
    """Whether a non-integer text names a binary64 value unambiguously (doc/design.md, section 3)."""
    d = float(text)
    return math.isfinite(d) and Decimal(repr(d)) == Decimal(text)


def is_integral_decimal_fraction(text):
    """Whether a non-integer goes to CBOR as a decimal fraction with exponent 0."""
    return not names_double(text) and Decimal(text).as_tuple().exponent == 0


def parse_doc(text):
    """x as ordered pairs: objects are lists of (key, value) pairs, non-integers Num."""
    return json.loads(text, parse_float=Num, parse_int=int,
                      object_pairs_hook=lambda pairs: ("obj", pairs))


def has_duplicates(v):
    if isinstance(v, tuple):
        keys = [k for k, _ in v[1]]
        return len(keys) != len(set(keys)) or any(has_duplicates(x) for _, x in v[1])
    if isinstance(v, list):
        return any(has_duplicates(x) for x in v)
    return False


def to_python(v):
    """x as cbor2 should see it: dicts (last duplicate wins), floats or Decimals."""
    if isinstance(v, tuple):
        return {k: to_python(x) for k, x in v[1]}
    if isinstance(v, list):
        return [to_python(x) for x in v]
    if isinstance(v, Num):
        return float(v.text) if names_double(v.text) else Decimal(v.text)
    return v


def same_number(want, got):
    """want: int or Num; got: what a decoder gave (int, float, Decimal, Num)."""
    if isinstance(want, int):
        return type(got) is int and got == want
    if type(got) is bool or got is None:
        return False
    if isinstance(got, float):
        return (math.isfinite(got) and float(want.text) == got
                and Decimal(repr(got)) == want.value)
    if isinstance(got, Num):
        return got.value == want.value
    if isinstance(got, (int, Decimal)):
        return Decimal(got) == want.value
    return False


def equal_unordered(want, got):
    """want from parse_doc; got a cbor2 result (dicts, lists, numbers)."""
    if isinstance(want, tuple):
        if not isinstance(got, dict):
            return False
        last = dict(want[1])
        return (set(last) == set(got)
                and all(equal_unordered(last[k], got[k]) for k in last))
    if isinstance(want, list):
        return (isinstance(got, list) and len(got) == len(want)
                and all(equal_unordered(a, b) for a, b in zip(want, got)))
    if isinstance(want, (int, Num)) and type(want) is not bool:
        return same_number(want, got)
    return type(want) is type(got) and want == got


def equal_ordered(want, got, form=True):
    """Both from parse_doc: key order and duplicates kept, numbers exact; with
    form, integers stay integers and non-integers non-integers."""
    if isinstance(want, tuple):
        return (isinstance(got, tuple) and len(want[1]) == len(got[1])
                and all(a[0] == b[0] and equal_ordered(a[1], b[1], form)
                        for a, b in zip(want[1], got[1])))
    if isinstance(want, list):
        return (isinstance(got, list) and len(got) == len(want)
                and all(equal_ordered(a, b, form) for a, b in zip(want, got)))
    if isinstance(want, Num):
        if isinstance(got, Num):
            return got.value == want.value
        # an integer only where CBOR has no other form: a decimal fraction
        # with exponent 0 (doc/cbor.md), or anywhere when form is not asked
        return (type(got) is int and Decimal(got) == want.value
                and (not form or is_integral_decimal_fraction(want.text)))
    if isinstance(want, int) and type(want) is not bool:
        return type(got) is int and got == want
    return type(want) is type(got) and want == got


# --------------------------------------------------------------- documents

def corpus_documents(data):
    root = os.path.join(data, "corpus")
    for dirpath, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            if f.endswith(".ndjson"):
                with open(path, encoding="utf-8") as fh:
                    for i, line in enumerate(fh):
                        if line.strip():
                            yield f"{rel}:{i + 1}", line.rstrip("\n")
            elif f.endswith(".json"):
                with open(path, "rb") as fh:
                    raw = fh.read()
                try:
                    text = raw.decode("utf-8")
                    json.loads(text)
                except (UnicodeDecodeError, ValueError):
                    continue
                yield rel, text


class Generator:
    """Random JSON texts that stress the CBOR mapping: every number form."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def integer(self):
        r = self.r
        c = r.randrange(9)
        if c == 0:
            return str(r.randrange(-30, 30))
        if c == 1:
            return str(r.choice([23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32,
                                 2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1,
                                 -2**64, -2**64 - 1, -24, -25, -256, -257]))
        if c == 2:
            return str(r.randrange(-2**64 - 10, 2**64 + 10))
        if c == 3:
            return str(r.randrange(-10**r.randrange(19, 60), 10**r.randrange(19, 60)))
        if c == 4:
            return "-0"
        return str(r.randrange(-10**r.randrange(1, 19), 10**r.randrange(1, 19)))

    def fraction(self):
        r = self.r
        c = r.randrange(12)
        if c == 0:
            # a random double, shortest
            return repr(r.choice([1, -1]) * r.random() * 10.0 ** r.randrange(-30, 30))
        if c == 1:
            # a random double with 17 digits: often not the shortest form
            return "%.16e" % (r.random() * 10.0 ** r.randrange(-20, 20))
        if c == 2:
            # binary16 / binary32 values
            return repr(math.ldexp(r.randrange(-2048, 2048), r.randrange(-30, 20)) or 0.5)
        if c == 3:
            return r.choice(["0.0", "-0.0", "0e5", "-0E-5", "1.0", "1e2", "1E+2", "100e-2",
                             "65504.0", "65505.0", "5e-324", "2.5e-324", "1e-400", "1e400",
                             "1.7976931348623157e308", "1.7976931348623159e308",
                             "2.2250738585072014e-308", "4.9406564584124654e-324",
                             "0.1", "0.10", "0.10000000000000001", "3.4028234663852886e+38",
                             "5.960464477539063e-08", "6.103515625e-05", "1.5", "-4.1",
                             "1.0e+300", "9007199254740993.0", "9007199254740992.0",
                             "123.4500000000000000000", "1e-7", "1E-6", "0.000001"])
        if c == 4:
            # many digits: a decimal fraction
            digits = "".join(r.choice("0123456789") for _ in range(r.randrange(18, 60)))
            point = r.randrange(1, len(digits))
            return r.choice(["", "-"]) + digits[:point].lstrip("0").rjust(1, "0") + "." + digits[point:]
        if c == 5:
            mant = str(r.randrange(1, 10**r.randrange(1, 25)))
            return f"{mant}e{r.randrange(-400, 400)}"
        if c == 6:
            mant = str(r.randrange(0, 10**r.randrange(1, 20)))
            frac = str(r.randrange(0, 10**r.randrange(1, 20))).rjust(r.randrange(1, 6), "0")
            exp = f"E{r.randrange(-40, 40):+d}" if r.random() < 0.3 else ""
            return f"{r.choice(['', '-'])}{mant}.{frac}{exp}"
        if c == 7:
            # halves and floats with trailing zeros spelled out
            v = math.ldexp(r.randrange(1, 1024), r.randrange(-24, 5))
            return repr(v) + "0" * r.randrange(0, 4)
        return repr(r.uniform(-1e6, 1e6))

    def string(self, max_len=12):
        r = self.r
        pool = ["a", "b", "z", "A", " ", "é", "ü", "水", "😀", "\"", "\\", "/", "\n", "\t",
                "\x01", "\x1f", "\u2028", "\uffff", "key", "0", "-"]
        return "".join(r.choice(pool) for _ in range(r.randrange(0, max_len)))

    def value(self, depth):
        r = self.r
        c = r.randrange(10 if depth < 6 else 6)
        if c == 0:
            return self.integer()
        if c in (1, 2):
            return self.fraction()
        if c == 3:
            return json.dumps(self.string(), ensure_ascii=r.random() < 0.3)
        if c == 4:
            return r.choice(["true", "false", "null"])
        if c == 5:
            return r.choice(["[]", "{}", '""'])
        if c in (6, 7):
            n = r.randrange(0, 8)
            return "[" + ",".join(self.value(depth + 1) for _ in range(n)) + "]"
        n = r.randrange(0, 12) if r.random() < 0.9 else r.randrange(12, 40)
        keys = [self.string(6) + (str(i) if r.random() < 0.98 else "") for i in range(n)]
        if n and r.random() < 0.005:
            keys.append(r.choice(keys))  # a duplicate key
        return "{" + ",".join(json.dumps(k, ensure_ascii=r.random() < 0.3) + ":" + self.value(depth + 1)
                              for k in keys) + "}"

    def document(self):
        return self.value(0)


# ------------------------------------------------------------------- checks

SETUP = """
CREATE EXTENSION IF NOT EXISTS fastjson;
CREATE OR REPLACE FUNCTION pg_temp.det(d fastjson) RETURNS bytea LANGUAGE plpgsql AS $$
BEGIN
    RETURN fastjson_to_cbor(d, deterministic => true);
EXCEPTION WHEN duplicate_json_object_key_value THEN
    RETURN NULL;
END $$;
"""

ENCODE = """
SELECT fastjson_to_cbor(d::fastjson), pg_temp.det(d::fastjson),
       fastjson_from_cbor(fastjson_to_cbor(d::fastjson))::text,
       fastjson_from_cbor(fastjson_to_cbor(d::fastjson))::jsonb = d::jsonb
FROM unnest(%s::text[]) WITH ORDINALITY AS t(d, i) ORDER BY i
"""

DECODE = """
SELECT fastjson_from_cbor(c)::text FROM unnest(%s::bytea[]) WITH ORDINALITY AS t(c, i) ORDER BY i
"""


def check_batch(cur, batch, counts):
    names = [n for n, _ in batch]
    texts = [t for _, t in batch]
    models = [parse_doc(t) for t in texts]
    cur.execute(ENCODE, (texts,))
    rows = cur.fetchall()
    plain = []
    canonical_blobs = []
    for (name, text), model, (cbor, det, back, jsonb_equal) in zip(batch, models, rows):
        # 1. cbor2 reads fastjson's CBOR as the document
        try:
            got = cbor2.loads(bytes(cbor))
            if not equal_unordered(model, got):
                fail(name, "cbor2.loads(fastjson_to_cbor(x)) differs from x")
        except Exception as e:  # noqa: BLE001 - any decoder failure is a mismatch
            fail(name, f"cbor2 cannot read fastjson_to_cbor(x): {e}")
        # 3. deterministic = cbor2 canonical
        py = to_python(model)
        dup = has_duplicates(model)
        if dup:
            counts["duplicate-key documents"] += 1
            if det is not None:
                fail(name, "deterministic encoding accepted duplicate keys")
        else:
            want = canonical(py)
            if det is None or bytes(det) != want:
                fail(name, f"deterministic bytes differ from cbor2 canonical "
                           f"({len(bytes(det)) if det is not None else None} vs {len(want)} bytes)")
            else:
                counts["deterministic = cbor2 canonical"] += 1
        # 4. fastjson round trip
        if not jsonb_equal:
            fail(name, "fastjson_from_cbor(fastjson_to_cbor(x))::jsonb <> x::jsonb")
        if not equal_ordered(model, parse_doc(back)):
            fail(name, "round trip changed order, duplicates, a number's value or form")
        plain.append(cbor2.dumps(py))
        canonical_blobs.append(canonical(py))
    # 2. fastjson reads cbor2's CBOR as the document
    for label, blobs in (("cbor2.dumps", plain), ("cbor2 canonical", canonical_blobs)):
        cur.execute(DECODE, (blobs,))
        for name, model, (text,) in zip(names, models, cur.fetchall()):
            got = parse_doc(text)
            if not equal_ordered(to_model_unordered(model), to_model_unordered(got), form=False):
                fail(name, f"fastjson_from_cbor({label}(x)) differs from x")
    counts["documents"] += len(batch)


def to_model_unordered(v):
    """Objects as sorted pairs with the last duplicate kept (cbor2 has dicts)."""
    if isinstance(v, tuple):
        last = dict(v[1])
        return ("obj", sorted((k, to_model_unordered(x)) for k, x in last.items()))
    if isinstance(v, list):
        return [to_model_unordered(x) for x in v]
    return v


def run(cur, docs, label):
    counts = {"documents": 0, "deterministic = cbor2 canonical": 0, "duplicate-key documents": 0}
    batch = []
    size = 0
    for name, text in docs:
        batch.append((name, text))
        size += len(text)
        if len(batch) >= BATCH or size > (8 << 20):
            check_batch(cur, batch, counts)
            batch, size = [], 0
    if batch:
        check_batch(cur, batch, counts)
    print(f"cbor cross-check, {label}: {counts['documents']} documents; "
          f"deterministic bytes = cbor2 canonical for {counts['deterministic = cbor2 canonical']} "
          f"({counts['duplicate-key documents']} with duplicate keys rejected with 22030)")
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="?", default=os.path.join(os.path.dirname(__file__), "../../shared/data"))
    ap.add_argument("--generated", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=8949)
    args = ap.parse_args()

    with psycopg.connect(autocommit=True) as conn:
        with conn.cursor() as cur:
            cur.execute(SETUP)
            if os.path.isdir(os.path.join(args.data, "corpus")):
                run(cur, corpus_documents(args.data), "corpus")
            else:
                print(f"SKIP: {args.data}/corpus is absent; corpus cross-check skipped")
            gen = Generator(args.seed)
            run(cur, ((f"generated #{i} (seed {args.seed})", gen.document()) for i in range(args.generated)),
                "generated")
    if failures:
        print(f"cbor cross-check: {len(failures)} mismatches", file=sys.stderr)
        return 1
    print("cbor cross-check: no mismatches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
