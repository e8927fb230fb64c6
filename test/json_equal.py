#!/usr/bin/env python3
"""JSON-aware comparison of each corpus file with fastjson_parse's output.

For every file: run the command-line tool, then compare the two texts as JSON
with Python's own parser (an independent implementation), keeping key order,
duplicate keys and the exact spelling of every number. Whitespace and string
escapes may differ; nothing else may.

usage: json_equal.py FASTJSON_PARSE DATA_DIR
"""
import json
import os
import subprocess
import sys


def load(text):
    """Parse keeping order, duplicates and number spellings."""
    return json.loads(text,
                      object_pairs_hook=lambda pairs: ("object", pairs),
                      parse_int=lambda s: ("number", s),
                      parse_float=lambda s: ("number", s),
                      parse_constant=lambda s: (_ for _ in ()).throw(ValueError(s)))


def files(data):
    for sub in ("corpus", "corpus/small", "corpus/small/jsoniter_scala"):
        d = os.path.join(data, sub)
        for name in sorted(os.listdir(d)):
            if name.endswith(".json"):
                yield os.path.join(d, name)


def main():
    tool, data = sys.argv[1], sys.argv[2]
    if not os.path.isdir(data):
        print(f"SKIP: data folder {data} is absent")
        return 0
    passed = failed = 0
    for path in files(data):
        out = subprocess.run([tool, path], capture_output=True, check=False)
        with open(path, "rb") as f:
            original = f.read().decode("utf-8")
        ok = out.returncode == 0 and load(out.stdout.decode("utf-8")) == load(original)
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"MISMATCH: {path}: {out.stderr.decode(errors='replace')}")
    print(f"json_equal: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
