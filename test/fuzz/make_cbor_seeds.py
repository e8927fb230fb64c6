#!/usr/bin/python3
"""Seeds for fuzz_cbor: the CBOR Appendix A vectors and the JSON seeds
encoded with cbor2 (an independent encoder). Written at run time into
OUT_DIR; never copied into the project.

usage: make_cbor_seeds.py DATA_DIR JSON_SEED_DIR OUT_DIR
"""
import base64
import json
import os
import sys


def main():
    data, json_seeds, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    n = 0
    vectors = os.path.join(data, "cbor", "appendix_a.json")
    if os.path.exists(vectors):
        with open(vectors) as f:
            for v in json.load(f):
                with open(os.path.join(out, "appendix-%02d" % n), "wb") as g:
                    g.write(base64.b64decode(v["cbor"]))
                n += 1
    else:
        print("make_cbor_seeds: %s is absent; Appendix A seeds skipped" % vectors)
    try:
        import cbor2
    except ImportError:
        cbor2 = None
    if cbor2 and os.path.isdir(json_seeds):
        for name in sorted(os.listdir(json_seeds))[:300]:
            try:
                with open(os.path.join(json_seeds, name), "rb") as f:
                    doc = json.loads(f.read().decode("utf-8"))
                blob = cbor2.dumps(doc)
            except (ValueError, UnicodeDecodeError, RecursionError, OverflowError, TypeError):
                continue
            if len(blob) <= 4096:
                with open(os.path.join(out, "json-%s" % name), "wb") as g:
                    g.write(blob)
                n += 1
    for i, blob in enumerate([b"\x00", b"\xa1\x61a\x01", b"\x9f\x01\x02\xff", b"\xc2\x41\x01"]):
        with open(os.path.join(out, "tiny-%d" % i), "wb") as g:
            g.write(blob)
        n += 1
    print("make_cbor_seeds: %d CBOR seeds in %s" % (n, out))


if __name__ == "__main__":
    main()
