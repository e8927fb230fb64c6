#!/usr/bin/python3
"""The SQLAlchemy 1.4 recipe (fastjson_sqlalchemy.FastJSON) over psycopg2 and asyncpg.

Every corpus document is inserted from its native value through the column type
and selected back (corpus.same: exact numbers, key order); the server must find
it equal to the original (fastjson =); ->, ->>, #> and #>> are used in
expressions, also on the corpus (the first element or member of each document).
Needs the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE) and the extension.
"""
import asyncio
import os
import sys
import unittest
from decimal import Decimal

import sqlalchemy
from sqlalchemy import Column, Integer, MetaData, Table, Text, select, text
from sqlalchemy.orm import Session, declarative_base

import corpus
from fastjson_sqlalchemy import FastJSON

DOCS = corpus.EDGE + corpus.documents()
VALUES = [corpus.loads_exact(t) for _, t in DOCS]


def url(driver):
    host = os.environ.get("PGHOST", "/tmp")
    port = os.environ.get("PGPORT", "5432")
    user = os.environ.get("PGUSER", "postgres")
    db = os.environ.get("PGDATABASE", user)
    return f"postgresql+{driver}://{user}@/{db}?host={host}&port={port}"


metadata = MetaData()
docs = Table("sa_doc", metadata, Column("id", Integer, primary_key=True),
             Column("name", Text), Column("doc", FastJSON))
Base = declarative_base()


class Event(Base):
    __tablename__ = "sa_event"
    id = Column(Integer, primary_key=True)
    doc = Column(FastJSON, nullable=False)


def first_key(v):
    """The first element's index or the first member's key of a container, else None."""
    if isinstance(v, list) and v:
        return 0
    if isinstance(v, dict) and v:
        return next(iter(v))
    return None


def run_checks(tc, conn, label):
    """The checks, on a synchronous Connection (also run through AsyncConnection.run_sync)."""
    metadata.drop_all(conn)
    metadata.create_all(conn)
    coltype = conn.execute(text("SELECT atttypid::regtype::text FROM pg_attribute "
                                "WHERE attrelid = 'sa_doc'::regclass AND attname = 'doc'")).scalar()
    tc.assertEqual(coltype, "fastjson")
    conn.execute(docs.insert(), [{"id": i, "name": n, "doc": v}
                                 for i, ((n, _), v) in enumerate(zip(DOCS, VALUES))])
    # the server: each stored document is the original text's
    for i, (name, t) in enumerate(DOCS):
        eq = conn.execute(text("SELECT doc = CAST(:t AS text)::fastjson FROM sa_doc WHERE id = :i"),
                          {"t": t, "i": i}).scalar()
        tc.assertTrue(eq, f"{label}: {name} stored differs from the original")
    # read back as native values
    rows = conn.execute(select(docs.c.id, docs.c.doc).order_by(docs.c.id)).all()
    tc.assertEqual(len(rows), len(DOCS))
    for (i, v), want, (name, _) in zip(rows, VALUES, DOCS):
        tc.assertIsNone(corpus.same(v, want), f"{label}: {name}")
    # ->> and -> on every document's first member or element
    n = 0
    for i, want in enumerate(VALUES):
        k = first_key(want)
        if k is None:
            continue
        got_text, got_doc = conn.execute(
            select(docs.c.doc.get_text(k), docs.c.doc[k]).where(docs.c.id == i)).one()
        w = want[k]
        if w is None:                      # ->> of a JSON null is SQL NULL
            tc.assertIsNone(got_text, f"{label}: {DOCS[i][0]}")
        elif isinstance(w, str):           # ->> of a string is its text
            tc.assertEqual(got_text, w, f"{label}: {DOCS[i][0]}")
        else:                              # anything else: its JSON text, numbers as written
            tc.assertIsNone(corpus.same(corpus.loads_exact(got_text), w), f"{label}: {DOCS[i][0]}")
        tc.assertIsNone(corpus.same(got_doc, w), f"{label}: {DOCS[i][0]} ->")
        n += 1
    tc.assertGreater(n, len(DOCS) // 2)
    # #>> and #> in a WHERE clause and a select list
    evs = [{"type": "http_request", "http": {"status": 503, "path": "/a", "ms": Decimal("12.50")}},
           {"type": "http_request", "http": {"status": 200, "path": "/b", "ms": Decimal("1e3")}},
           {"type": "error", "http": {"status": 500, "path": "/c", "ms": 7}}]
    conn.execute(docs.insert(), [{"id": 1000 + i, "name": "ev", "doc": d} for i, d in enumerate(evs)])
    q = (select(docs.c.doc.get_text("type"), docs.c.doc.path_text("http", "path"),
                docs.c.doc.path_text("http", "ms"), docs.c.doc.path("http"))
         .where(docs.c.name == "ev")
         .where(docs.c.doc.path_text("http", "status").cast(Integer) >= 500)
         .order_by(docs.c.id))
    got = conn.execute(q).all()
    tc.assertEqual([tuple(r[:3]) for r in got],
                   [("http_request", "/a", "12.50"), ("error", "/c", "7")])
    tc.assertIsNone(corpus.same(got[0][3], evs[0]["http"]))
    tc.assertEqual(conn.execute(select(docs.c.doc["http"].get_text("ms"))
                                .where(docs.c.id == 1001)).scalar(), "1E+3")
    # the ORM
    with Session(conn) as s:
        s.add(Event(id=1, doc={"a": [1, Decimal("2.50")], "b": None}))
        s.flush()
        s.expire_all()
        e = s.get(Event, 1)
        tc.assertIsNone(corpus.same(e.doc, {"a": [1, Decimal("2.50")], "b": None}))
        tc.assertEqual(s.query(Event.doc.path_text("a", "1")).scalar(), "2.50")
    metadata.drop_all(conn)
    Base.metadata.drop_all(conn)


class SQLAlchemyTest(unittest.TestCase):
    def setUp(self):
        self.assertTrue(sqlalchemy.__version__.startswith("1.4"), sqlalchemy.__version__)

    def test_psycopg2(self):
        engine = sqlalchemy.create_engine(url("psycopg2"))
        with engine.begin() as conn:
            conn.execute(text("CREATE EXTENSION IF NOT EXISTS fastjson"))
            Base.metadata.create_all(conn)
            run_checks(self, conn, "psycopg2")
        engine.dispose()

    def test_asyncpg(self):
        from sqlalchemy.ext.asyncio import create_async_engine

        async def main():
            engine = create_async_engine(url("asyncpg"))
            async with engine.begin() as conn:
                await conn.execute(text("CREATE EXTENSION IF NOT EXISTS fastjson"))
                await conn.run_sync(Base.metadata.create_all)
                await conn.run_sync(lambda c: run_checks(self, c, "asyncpg"))
            await engine.dispose()
        asyncio.run(main())


if __name__ == "__main__":
    if not corpus.available():
        print(corpus.skip_message(), file=sys.stderr)
    unittest.main(verbosity=1)
