#!/usr/bin/python3
"""fastjson_tape against the server's own tapes: every corpus document and the edge cases.

Needs a server with the extension (libpq environment: PGHOST, PGPORT, PGUSER,
PGDATABASE) and psycopg 3. Run by clients/run_tests.sh.
"""
import random
import sys
import unittest
from decimal import Decimal

import psycopg
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.types import TypeInfo

import corpus
import fastjson_tape as ft

RAW = dict(parse_float=ft.RawNumber, parse_int=ft.RawNumber, object_pairs_hook=ft.ObjectPairs)


class RawTape(bytes):
    """Bytes sent as a binary fastjson parameter, as they are."""


def deep_expected(name):
    if name == "deep nesting":
        v = []
        for _ in range(4999):
            v = [v]
        return v
    if name == "deep objects":
        v = 1
        for _ in range(3000):
            v = {"a": v}
        return v
    raise KeyError(name)


class TapeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.conn = psycopg.connect("", autocommit=True)
        cls.conn.execute("CREATE EXTENSION IF NOT EXISTS fastjson")
        info = TypeInfo.fetch(cls.conn, "fastjson")
        cls.conn.adapters.register_dumper(RawTape, type("RawTapeDumper", (Dumper,), {
            "oid": info.oid, "format": Format.BINARY, "dump": lambda self, obj: bytes(obj)}))
        cls.docs = corpus.EDGE + corpus.documents()
        if not corpus.available():
            print(corpus.skip_message(), file=sys.stderr)
        cls.tapes = {}
        for name, text in cls.docs:
            tape, canon = cls.conn.execute(
                "SELECT fastjson_send(d), d::text FROM (SELECT %s::fastjson AS d) s", [text]).fetchone()
            cls.tapes[name] = (text, tape, canon)

    @classmethod
    def tearDownClass(cls):
        cls.conn.close()

    def server_text_of_tape(self, tape):
        """What the server makes of a tape sent in binary (it validates every byte)."""
        return self.conn.execute("SELECT %b::text", [RawTape(tape)]).fetchone()[0]

    def test_issue_example(self):
        tape = self.tapes["root number"][1]
        self.assertEqual(ft.loads(tape), Decimal("1.250"))
        tape = self.conn.execute("""SELECT fastjson_send('{"a":[1,2.50,1e3]}')""").fetchone()[0]
        v = ft.loads(tape)
        self.assertIsNone(corpus.same(v, {"a": [1, Decimal("2.50"), Decimal("1e3")]}))

    def test_reads_every_document(self):
        """loads(server tape) is json.loads(text, parse_float=Decimal), exact numbers, key order."""
        n = 0
        for name, (text, tape, canon) in self.tapes.items():
            with self.subTest(doc=name):
                got = ft.loads(tape)
                want = deep_expected(name) if name.startswith("deep") else corpus.loads_exact(text)
                self.assertIsNone(corpus.same(got, want))
                n += 1
        self.assertEqual(n, len(self.docs))

    def test_text_of_deep_documents(self):
        """fastjson_json reads and writes what json.loads and json.dumps cannot (depth)."""
        import fastjson_json
        for name in ("deep nesting", "deep objects"):
            text, tape, canon = self.tapes[name]
            with self.assertRaises(RecursionError):
                corpus.json.loads(text)
            v = fastjson_json.loads(canon)
            self.assertIsNone(corpus.same(v, deep_expected(name)))
            self.assertEqual(fastjson_json.dumps(v), canon)
            self.assertEqual(self.server_text_of_tape(ft.dumps(v)), canon)

    def test_raw_hooks_keep_spelling_and_duplicates(self):
        v = ft.loads(self.tapes["duplicate keys"][1], **RAW)
        self.assertEqual(v, [("a", "1"), ("b", "2"), ("a", "3")])
        self.assertEqual(ft.loads(self.tapes["duplicate keys"][1]), {"a": 3, "b": 2})
        v = ft.loads(self.tapes["number spellings"][1], **RAW)
        self.assertTrue(all(isinstance(x, ft.RawNumber) for x in v))
        self.assertEqual([str(x) for x in v],
                         [s for _, s in corpus.spelled(self.tapes["number spellings"][0])])

    def test_references_and_packed_numbers_present(self):
        """The edge documents really hold what they are named for."""
        tape = self.tapes["string references"][1]
        self.assertLess(len(tape), 5000 + 21 * 400)       # 20 of the 21 long strings are references
        self.assertIn(bytes([0x9f]), tape)
        self.assertIn(bytes([0xe3, 0xe1, 0x00]), self.tapes["number spellings"][1])  # PACKED 1.0
        self.assertEqual(self.tapes["nine members (front key index)"][1][2], 0xd5)  # fingerprints only
        self.assertEqual(self.tapes["65 members (key index after)"][1][2] & 0xe4, 0xc4)
        self.assertEqual(self.tapes["wide object (4-byte widths)"][1][2], 0xc7)

    def test_dumps_is_the_server_tape(self):
        """dumps(loads(t)) == t byte for byte, but for the server's string references;
        the server accepts every tape dumps writes and outputs the document's own text."""
        identical = with_refs = 0
        for name, (text, tape, canon) in self.tapes.items():
            with self.subTest(doc=name):
                mine = ft.dumps(ft.loads(tape, **RAW))
                if mine == tape:
                    identical += 1
                else:
                    # the server wrote string references, which dumps never does
                    self.assertLess(len(tape), len(mine))
                    with_refs += 1
                self.assertEqual(self.server_text_of_tape(mine), canon)
        self.assertGreaterEqual(with_refs, 1)
        print(f"\n  dumps: {identical} tapes byte-identical to the server's, "
              f"{with_refs} differ only by the server's string references", file=sys.stderr)

    def test_dumps_native_values(self):
        v = {"a": [1, Decimal("2.50"), Decimal("1E+3"), 2 ** 70, -2 ** 63, 1.5, None, True, "é"]}
        t = ft.dumps(v)
        self.assertEqual(self.server_text_of_tape(t), '{"a":[1,2.50,1E+3,1180591620717411303424,'
                                                      '-9223372036854775808,1.5,null,true,"é"]}')
        v["a"][5] = Decimal("1.5")            # a non-integer comes back as Decimal
        self.assertIsNone(corpus.same(ft.loads(t), v))
        for bad in (Decimal("NaN"), float("inf"), "\ud800", {1: 2}, object()):
            with self.subTest(bad=repr(bad)):
                with self.assertRaises((ValueError, TypeError)):
                    ft.dumps([bad])

    def test_version_2_is_read(self):
        tape = self.tapes["65 members (key index after)"][1]
        v2 = b"\x02\x00" + tape[2:]
        self.assertEqual(ft.loads(v2), ft.loads(tape))
        self.assertEqual(self.server_text_of_tape(v2), self.tapes["65 members (key index after)"][2])
        ref = self.tapes["string references"][1]
        with self.assertRaisesRegex(ft.TapeError, "reference in a version 2"):
            ft.loads(b"\x02\x00" + ref[2:])

    def test_version_3_key_index_is_read(self):
        """Version 3 wrote a front key index with offsets; version 4 with fingerprints only."""
        tape = self.tapes["nine members (front key index)"][1]
        size, count = tape[3], tape[4]
        fps, members = tape[5:5 + count], tape[5 + count:]
        self.assertEqual((tape[2], count, len(members)), (0xd5, 9, 36))   # "k0":0 ... "k8":8, 4 bytes each
        v3 = b"\x03\x00\xc5" + bytes([size + count, count]) + fps + bytes(range(0, 36, 4)) + members
        self.assertEqual(ft.loads(v3), ft.loads(tape))
        self.assertEqual(self.server_text_of_tape(v3), self.tapes["nine members (front key index)"][2])
        for version in (2, 3):
            with self.subTest(version=version):
                with self.assertRaisesRegex(ft.TapeError, "invalid container tag"):
                    ft.loads(bytes([version, 0]) + tape[2:])

    def test_rejects_other_versions(self):
        tape = self.tapes["scalars"][1]
        for version in (0, 1, 5, 255):
            with self.subTest(version=version):
                with self.assertRaisesRegex(ft.TapeError, f"version {version} is not supported"):
                    ft.loads(bytes([version]) + tape[1:])
        with self.assertRaisesRegex(ft.TapeError, "unknown flags"):
            ft.loads(b"\x03\x02" + tape[2:])

    def test_rejects_damage(self):
        cases = {
            "empty": b"",
            "header only": b"\x03\x00",
            "trailing byte": b"\x03\x00\x00\x00",
            "literal 3": b"\x03\x00\x03",
            "uint imm 28": b"\x03\x00\x3c",
            "uint over 2**63-1": b"\x03\x00\x3b" + b"\xff" * 8,
            "number imm 31": b"\x03\x00\x7f",
            "number text not JSON": b"\x03\x00\x62\x30\x31",
            "packed bad nibble": b"\x03\x00\xe1\x0a",
            "packed pad not zero": b"\x03\x00\xe3\xe1\x10",
            "packed not a number": b"\x03\x00\xe2\xee",
            "invalid UTF-8": b"\x03\x00\x82\xc3\x28",
            "surrogate in UTF-8": b"\x03\x00\x83\xed\xa0\x80",
            "string past end": b"\x03\x00\x85ab",
            "array bit 2": b"\x03\x00\xa5\x01\x01\x00",
            "reserved bit 4": b"\x03\x00\xb1\x01\x01\x00",
            "container past end": b"\x03\x00\xa1\x05\x01\x00",
            "count 0": b"\x03\x00\xa1\x01\x00\x00",
            "members short of count": b"\x03\x00\xa1\x01\x02\x00",
            "members short of size": b"\x03\x00\xa1\x02\x01\x00\x00",
            "key not a string": b"\x03\x00\xc1\x02\x01\x20\x20",
            "key is a reference": b"\x03\x00\xa1\x0b\x02\x81\x61\xc1\x06\x01\x9f\x05\x00\x00\x00\x20",
            "reference forward": b"\x03\x00\xa1\x05\x01\x9f\x00\x00\x00\x00",
            "reference before tape": b"\x03\x00\xa1\x05\x01\x9f\x09\x00\x00\x00",
            "reference to a number": b"\x03\x00\xa1\x06\x02\x20\x9f\x01\x00\x00\x00",
            "tag 0xfd": b"\x03\x00\xfd",
            "no key index on 9 members": b"\x03\x00\xc1" + bytes([27, 9]) + b"\x81a\x20" * 9,
        }
        for name, tape in cases.items():
            with self.subTest(case=name):
                with self.assertRaises(ft.TapeError) as cm:
                    ft.loads(tape)
                self.assertIn("fastjson tape", str(cm.exception))

    def test_truncated_and_mutated_tapes_raise_tape_error_only(self):
        """Every prefix, and 20,000 random byte changes: a value or TapeError, nothing else."""
        rng = random.Random(22)
        sources = [self.tapes[n][1] for n in ("scalars", "number spellings", "empty containers",
                                              "duplicate keys", "nine members (front key index)",
                                              "65 members (key index after)", "string references")]
        for tape in sources:
            for k in range(len(tape)):
                with self.assertRaises(ft.TapeError):
                    ft.loads(tape[:k])
        accepted = 0
        for i in range(20000):
            tape = bytearray(rng.choice(sources))
            for _ in range(rng.randint(1, 3)):
                tape[rng.randrange(len(tape))] = rng.randrange(256)
            try:
                ft.loads(bytes(tape))
                accepted += 1
            except ft.TapeError:
                pass
            except ValueError as e:         # a number Decimal cannot hold (1e99999999999999999999)
                self.assertIn("cannot hold", str(e))
        self.assertLess(accepted, 20000)


if __name__ == "__main__":
    unittest.main(verbosity=1)
