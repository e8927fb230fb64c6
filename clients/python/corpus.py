"""Shared by the Python recipe tests: the corpus, exact comparison, edge documents.

The corpus is every ../shared/data/corpus/*.json file and every line of
corpus/amazon_cellphones.ndjson (FJ_DATA names another data folder). When the
folder is absent, documents() is empty and the tests say they skipped it.
"""
from decimal import Decimal
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.environ.get("FJ_DATA") or os.path.join(ROOT, "..", "shared", "data")
CORPUS = os.path.join(DATA, "corpus")


def available():
    return os.path.isdir(CORPUS)


def skip_message():
    return f"corpus skipped: {os.path.abspath(CORPUS)} is absent"


def documents():
    """[(name, text)] for every corpus document, or [] when the data folder is absent."""
    if not available():
        return []
    out = []
    for name in sorted(os.listdir(CORPUS)):
        path = os.path.join(CORPUS, name)
        if name.endswith(".json"):
            with open(path, encoding="utf-8") as f:
                out.append((name, f.read()))
    nd = os.path.join(CORPUS, "amazon_cellphones.ndjson")
    if os.path.exists(nd):
        with open(nd, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if line.strip():
                    out.append((f"amazon_cellphones.ndjson:{i}", line.rstrip("\n")))
    return out


# Documents that exercise what the tape can hold (each valid JSON text).
EDGE = [
    ("scalars", '[null,true,false,0,-1,23,24,255,256,65535,65536,4294967295,4294967296,'
                '9223372036854775807,-9223372036854775808,9223372036854775808,-9223372036854775809]'),
    ("number spellings", '[1.0,2.50,-0,-0.0,1e2,1E2,1e+2,-1E-2,1.5e300,1e400,123e-10000000,'
                         '0.10000000000000001,123456789012345678901234567890,'
                         '12345678901234567890123456789012345678901,'
                         '-1234567890123456789012345678901234567.5,0.000001]'),
    ("strings", '["","a","h\\u00e9llo","\\u0000 nul","tab\\tnl\\nquote\\"back\\\\slash","\\/",'
                '"\\ud83d\\ude00 emoji","\\u2028\\u2029","' + "x" * 300 + '","' + "y" * 70000 + '"]'),
    ("empty containers", '[[],{},[[]],{"a":{}},[{}],{"":""}]'),
    ("duplicate keys", '{"a":1,"b":2,"a":3}'),
    ("nine members (front key index)", json.dumps({f"k{i}": i for i in range(9)})),
    ("65 members (key index after)", json.dumps({f"key{i}": [i, str(i)] for i in range(65)})),
    ("wide object (4-byte widths)", json.dumps({f"k{i}": f"{i:04}" + "v" * 996 for i in range(80)})),
    ("deep nesting", "[" * 5000 + "]" * 5000),
    ("deep objects", '{"a":' * 3000 + "1" + "}" * 3000),
    ("string references", json.dumps({"filler": "f" * 5000,
                                      "items": [{"desc": "D" * 400, "n": i} for i in range(20)],
                                      "again": "D" * 400})),
    ("root string", '"just a string"'),
    ("root number", "1.250"),
]


def loads_exact(text):
    """json.loads(text, parse_float=Decimal), also for documents nested too deep for
    json.loads (fastjson_json parses those without recursion; test_tape checks it)."""
    import fastjson_json
    return fastjson_json.loads(text)


def same(a, b, path="$"):
    """None if a and b are the same JSON value with exact numbers, else where they differ.

    Types must match (True is not 1, 1 is not Decimal(1)); a Decimal must have the
    same digits and exponent (Decimal('2.50') is not Decimal('2.5'), the text was
    kept); objects must have the same keys in the same order."""
    stack = [(a, b, path)]
    while stack:
        a, b, path = stack.pop()
        if type(a) is not type(b):
            return f"{path}: {type(a).__name__} {a!r:.60} vs {type(b).__name__} {b!r:.60}"
        if isinstance(a, dict):
            if list(a) != list(b):
                return f"{path}: keys {list(a)[:8]} vs {list(b)[:8]}"
            stack.extend((a[k], b[k], f"{path}.{k}") for k in a)
        elif isinstance(a, list):
            if len(a) != len(b):
                return f"{path}: {len(a)} vs {len(b)} elements"
            stack.extend((x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b)))
        elif isinstance(a, Decimal):
            if a.as_tuple() != b.as_tuple():
                return f"{path}: {a} vs {b}"
        elif a != b:
            return f"{path}: {a!r:.60} vs {b!r:.60}"
    return None


def spelled_equal(a, b):
    """Whether two texts are the same JSON as test/json_equal.py compares them (order,
    duplicates and number spellings kept); texts nested too deep for the json module
    are compared as they are (the deep edge documents are minified)."""
    try:
        return spelled(a) == spelled(b)
    except RecursionError:
        return a == b


def spelled(text):
    """test/json_equal.py's view of a text: order, duplicates and number spellings kept."""
    return json.loads(text,
                      object_pairs_hook=lambda pairs: ("object", pairs),
                      parse_int=lambda s: ("number", s),
                      parse_float=lambda s: ("number", s))


if __name__ == "__main__":
    # NDJSON of [name, text]: the edge documents (the deep ones too, which Python's
    # json module cannot read but JavaScript's and Jackson's parsers can) and the
    # corpus, for the Node and Java tests (FJ_DOCS).
    import sys
    if not available():
        print(skip_message(), file=sys.stderr)
    for name, t in EDGE + documents():
        print(json.dumps([name, t]))
