#!/usr/bin/env python3
"""make_window_input.py — find a variant of an input that fuzz_parse parses
with a stage 1 window boundary after byte CUT (its padded check, 1 input in 4).

    python3 test/fuzz/make_window_input.py CUT 'INPUT with \\xNN escapes' OUT

The harness (test/fuzz/fuzz_parse.c, check_window) hashes the input with
FNV-1a 64 (fz_hash) and pads it when (h >> 12) % 4 == 0, with the boundary
after input byte 1 + (h >> 20) % min(len - 1, FJ_WINDOW - 1). This appends up to 8 bytes of
JSON whitespace until both hold. Keep it in step with the harness.
"""
import itertools
import sys


def fnv(b):
    h = 0xcbf29ce484222325
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return h


def ok(b, cut):
    h = fnv(b)
    return len(b) > 1 and (h >> 12) % 4 == 0 and 1 + (h >> 20) % (len(b) - 1) == cut


def main():
    cut = int(sys.argv[1])
    body = sys.argv[2].encode('latin-1').decode('unicode_escape').encode('latin-1')
    for n in range(0, 9):
        for tail in itertools.product([b' ', b'\n', b'\t', b'\r'], repeat=n):
            b = body + b''.join(tail)
            if ok(b, cut):
                with open(sys.argv[3], 'wb') as f:
                    f.write(b)
                print(f"{sys.argv[3]}: {b!r} (window boundary after byte {cut})")
                return 0
    print("no variant found", file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
