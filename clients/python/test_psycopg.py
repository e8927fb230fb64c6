#!/usr/bin/python3
"""The psycopg 3 recipe (fastjson_psycopg): text and binary cursors, parameters, COPY.

Every corpus document (and the edge documents json.loads can read) is written
from its native value through each write path and read back through each read
path; what comes back must be the original's native value (corpus.same: exact
numbers, key order), the server must find the stored document equal to the
original text's (fastjson =), and the text psycopg gives without the recipe must
be the server's canonical output. Needs the libpq environment and the extension.
"""
import sys
import unittest
from decimal import Decimal

import psycopg

import corpus
import fastjson_json
import fastjson_psycopg
from fastjson_psycopg import Fastjson


def text_docs():
    return corpus.EDGE + corpus.documents()


class PsycopgTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.conn = psycopg.connect("", autocommit=True)
        cls.conn.execute("CREATE EXTENSION IF NOT EXISTS fastjson")
        fastjson_psycopg.register(cls.conn)
        cls.plain = psycopg.connect("", autocommit=True)      # no recipe: what psycopg does alone
        if not corpus.available():
            print(corpus.skip_message(), file=sys.stderr)
        cls.docs = text_docs()
        cls.values = [corpus.loads_exact(t) for _, t in cls.docs]
        c = cls.conn
        c.execute("DROP TABLE IF EXISTS pg3_orig, pg3_doc")
        c.execute("CREATE TABLE pg3_orig (id int PRIMARY KEY, name text, doc fastjson)")
        c.execute("CREATE TABLE pg3_doc (id int, path text, doc fastjson)")
        with c.cursor() as cur:
            cur.executemany("INSERT INTO pg3_orig VALUES (%s, %s, %s::fastjson)",
                            [(i, n, t) for i, (n, t) in enumerate(cls.docs)])

    @classmethod
    def tearDownClass(cls):
        cls.conn.execute("DROP TABLE IF EXISTS pg3_orig, pg3_doc")
        cls.conn.close()
        cls.plain.close()

    def check_written(self, path):
        """Every document written by `path` is the original, by the server's equality."""
        bad = self.conn.execute(
            """SELECT o.name FROM pg3_orig o LEFT JOIN pg3_doc d ON d.id = o.id AND d.path = %s
               WHERE d.doc IS NULL OR d.doc <> o.doc ORDER BY o.id""", [path]).fetchall()
        self.assertEqual(bad, [], f"{path}: stored documents differ from the originals")
        n = self.conn.execute("SELECT count(*) FROM pg3_doc WHERE path = %s", [path]).fetchone()[0]
        self.assertEqual(n, len(self.docs))

    def check_read(self, rows, what):
        rows = sorted(rows, key=lambda r: r[0])
        self.assertEqual([r[0] for r in rows], list(range(len(self.docs))), what)
        for (i, v), want, (name, _) in zip(rows, self.values, self.docs):
            diff = corpus.same(v, want)
            self.assertIsNone(diff, f"{what}: {name}: {diff}")

    def test_issue_example(self):
        want = {"a": [1, Decimal("2.50"), Decimal("1e3")]}
        q = """SELECT '{"a":[1,2.50,1e3]}'::fastjson"""
        self.assertIsNone(corpus.same(self.conn.execute(q).fetchone()[0], want))
        self.assertIsNone(corpus.same(self.conn.cursor(binary=True).execute(q).fetchone()[0], want))
        self.assertEqual(self.plain.execute(q).fetchone()[0], '{"a":[1,2.50,1e3]}')
        # jsonb, for comparison: psycopg's own loader, floats
        self.assertEqual(self.conn.execute(q.replace("fastjson", "jsonb")).fetchone()[0],
                         {"a": [1, 2.5, 1000]})

    def test_parameters_text_and_binary(self):
        c = self.conn
        with c.cursor() as cur:
            cur.executemany("INSERT INTO pg3_doc VALUES (%s, 'param %%s', %s)",
                            [(i, Fastjson(v)) for i, v in enumerate(self.values)])
            cur.executemany("INSERT INTO pg3_doc VALUES (%s, 'param %%b', %b)",
                            [(i, Fastjson(v)) for i, v in enumerate(self.values)])
        with c.cursor(binary=True) as cur:
            cur.executemany("INSERT INTO pg3_doc VALUES (%s, 'binary cursor %%s', %s)",
                            [(i, Fastjson(v)) for i, v in enumerate(self.values)])
        for path in ("param %s", "param %b", "binary cursor %s"):
            self.check_written(path)
        # a parameter in an expression: the dumper names the type
        got = c.execute("SELECT %s -> 'a' ->> 1", [Fastjson({"a": [1, Decimal("2.50")]})]).fetchone()[0]
        self.assertEqual(got, "2.50")

    def test_fetch_text_and_binary(self):
        q = "SELECT id, doc FROM pg3_orig"
        self.check_read(self.conn.execute(q).fetchall(), "text cursor")
        self.check_read(self.conn.cursor(binary=True).execute(q).fetchall(), "binary cursor")
        self.check_read(self.conn.execute(q, binary=True).fetchall(), "execute(binary=True)")
        with self.conn.transaction(), self.conn.cursor("pg3_named") as cur:   # server-side cursor
            cur.execute(q)
            self.check_read(cur.fetchall(), "server-side cursor")

    def test_text_is_canonical(self):
        """Without the recipe psycopg gives the server's canonical text; as JSON it is the original."""
        canon = dict(self.conn.execute("SELECT id, fastjson_out(doc) FROM pg3_orig").fetchall())
        rows = self.plain.execute("SELECT id, doc FROM pg3_orig").fetchall()
        self.assertEqual(len(rows), len(self.docs))
        for i, text in rows:
            self.assertIsInstance(text, str)
            self.assertEqual(text, canon[i])
            self.assertTrue(corpus.spelled_equal(text, self.docs[i][1]), self.docs[i][0])

    def test_arrays_of_fastjson(self):
        q = """SELECT ARRAY['[1]'::fastjson, '{"a":2.5}', NULL]"""
        want = [[1], {"a": Decimal("2.5")}, None]
        self.assertIsNone(corpus.same(self.conn.execute(q).fetchone()[0], want))
        self.assertIsNone(corpus.same(self.conn.cursor(binary=True).execute(q).fetchone()[0], want))

    def test_copy_out_text_and_binary(self):
        for fmt in ("text", "binary"):
            with self.subTest(fmt=fmt):
                rows = []
                with self.conn.cursor() as cur:
                    with cur.copy(f"COPY pg3_orig (id, doc) TO STDOUT (FORMAT {fmt})") as copy:
                        copy.set_types(["int4", "fastjson"])
                        rows = list(copy.rows())
                self.check_read(rows, f"COPY TO ({fmt})")

    def test_copy_in_text_and_binary(self):
        for fmt in ("text", "binary"):
            with self.subTest(fmt=fmt):
                path = f"COPY FROM ({fmt})"
                with self.conn.cursor() as cur:
                    with cur.copy(f"COPY pg3_doc (id, path, doc) FROM STDIN (FORMAT {fmt})") as copy:
                        copy.set_types(["int4", "text", "fastjson"])
                        for i, v in enumerate(self.values):
                            copy.write_row((i, path, Fastjson(v)))
                self.check_written(path)

    def test_server_rejects_a_bad_binary_parameter(self):
        """A tape the server cannot read is refused, not stored (22P03)."""
        class Bad(Fastjson):
            pass
        info = psycopg.types.TypeInfo.fetch(self.conn, "fastjson")
        self.conn.adapters.register_dumper(Bad, type("BadDumper", (psycopg.adapt.Dumper,), {
            "oid": info.oid, "format": psycopg.pq.Format.BINARY,
            "dump": lambda self, obj: b"\x03\x00\x03"}))
        with self.assertRaises(psycopg.errors.InvalidBinaryRepresentation):
            self.conn.execute("SELECT %b::text", [Bad(None)])

    def test_dumps_spelling(self):
        self.assertEqual(fastjson_json.dumps({"a": [1, Decimal("2.50"), Decimal("1e3"), "é\n"]}),
                         '{"a":[1,2.50,1E+3,"é\\n"]}')


if __name__ == "__main__":
    unittest.main(verbosity=1)
