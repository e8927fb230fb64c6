#!/usr/bin/python3
"""The asyncpg recipe (fastjson_asyncpg): text and binary codecs, parameters,
prepared statements, cursors, copy_records_to_table, over every corpus document.

What comes back must be the original's native value (corpus.same: exact
numbers, key order); what is written must equal the original for the server
(fastjson =); without a codec asyncpg gives the server's canonical text.
Needs the libpq environment (PGHOST, PGPORT, PGUSER) and the extension.
"""
import asyncio
import sys
import unittest
from decimal import Decimal

import asyncpg

import corpus
import fastjson_asyncpg

DOCS = corpus.EDGE + corpus.documents()


class AsyncpgTest(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        asyncio.get_running_loop().set_debug(False)    # unittest runs the loop in debug mode
        self.conn = await asyncpg.connect()
        await self.conn.execute("CREATE EXTENSION IF NOT EXISTS fastjson")
        self.values = [corpus.loads_exact(t) for _, t in DOCS]
        await self.conn.execute("DROP TABLE IF EXISTS apg_orig, apg_doc")
        await self.conn.execute("CREATE TABLE apg_orig (id int PRIMARY KEY, name text, doc fastjson)")
        await self.conn.execute("CREATE TABLE apg_doc (id int, path text, doc fastjson)")
        await self.conn.executemany("INSERT INTO apg_orig VALUES ($1, $2, $3::text::fastjson)",
                                    [(i, n, t) for i, (n, t) in enumerate(DOCS)])

    async def asyncTearDown(self):
        await self.conn.execute("DROP TABLE IF EXISTS apg_orig, apg_doc")
        await self.conn.close()

    async def check_written(self, conn, path):
        bad = await conn.fetch(
            """SELECT o.name FROM apg_orig o LEFT JOIN apg_doc d ON d.id = o.id AND d.path = $1
               WHERE d.doc IS NULL OR d.doc <> o.doc""", path)
        self.assertEqual([r[0] for r in bad], [], path)
        self.assertEqual(await conn.fetchval("SELECT count(*) FROM apg_doc WHERE path = $1", path),
                         len(DOCS))

    def check_read(self, rows, what):
        rows = sorted(rows, key=lambda r: r[0])
        self.assertEqual([r[0] for r in rows], list(range(len(DOCS))), what)
        for (i, v), want, (name, _) in zip(rows, self.values, DOCS):
            self.assertIsNone(corpus.same(v, want), f"{what}: {name}")

    async def test_no_codec_gives_canonical_text(self):
        canon = dict(await self.conn.fetch("SELECT id, fastjson_out(doc) FROM apg_orig"))
        for i, text in await self.conn.fetch("SELECT id, doc FROM apg_orig"):
            self.assertIsInstance(text, str)
            self.assertEqual(text, canon[i])
            self.assertTrue(corpus.spelled_equal(text, DOCS[i][1]), DOCS[i][0])

    async def test_codecs(self):
        want = {"a": [1, Decimal("2.50"), Decimal("1e3")]}
        for fmt in ("text", "binary"):
            with self.subTest(format=fmt):
                conn = await asyncpg.connect()
                try:
                    await fastjson_asyncpg.register(conn, format=fmt)
                    got = await conn.fetchval("""SELECT '{"a":[1,2.50,1e3]}'::fastjson""")
                    self.assertIsNone(corpus.same(got, want))
                    self.check_read(await conn.fetch("SELECT id, doc FROM apg_orig"), f"fetch ({fmt})")
                    stmt = await conn.prepare("SELECT id, doc FROM apg_orig")
                    self.check_read(await stmt.fetch(), f"prepared ({fmt})")
                    async with conn.transaction():
                        rows = [r async for r in conn.cursor("SELECT id, doc FROM apg_orig", prefetch=50)]
                    self.check_read(rows, f"cursor ({fmt})")
                    path = f"parameter ({fmt})"
                    await conn.executemany("INSERT INTO apg_doc VALUES ($1, $2, $3)",
                                           [(i, path, v) for i, v in enumerate(self.values)])
                    await self.check_written(conn, path)
                    self.assertEqual(await conn.fetchval("SELECT $1::fastjson ->> 'a'",
                                                         {"a": Decimal("2.50")}), "2.50")
                    if fmt == "binary":
                        path = "copy_records_to_table (binary)"
                        await conn.copy_records_to_table(
                            "apg_doc", columns=["id", "path", "doc"],
                            records=[(i, path, v) for i, v in enumerate(self.values)])
                        await self.check_written(conn, path)
                finally:
                    await conn.close()


if __name__ == "__main__":
    if not corpus.available():
        print(corpus.skip_message(), file=sys.stderr)
    unittest.main(verbosity=1)
