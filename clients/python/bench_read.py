#!/usr/bin/python3
"""Read-path speed of the Python recipes: fetch every row of bench_fj (fastjson)
and of bench_jb (jsonb, the same documents) as native values, interleaved.

Each variant fetches both tables REPEATS times, alternating which goes first,
and prints one line: min and median seconds of each, and the ratios
fastjson / jsonb of the minimums and of the medians. No pass/fail: a report.

usage: bench_read.py [REPEATS]     (libpq environment; the tables must exist)
"""
import asyncio
import json
import os
import statistics
import sys
import time
from decimal import Decimal

import psycopg

import fastjson_asyncpg
import fastjson_json
import fastjson_psycopg

REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
FJ = "SELECT doc FROM bench_fj"
JB = "SELECT doc FROM bench_jb"


def line(name, fj, jb, note=""):
    mf, mj = statistics.median(fj), statistics.median(jb)
    print(f"read-path | {name} | {min(fj):.3f} / {mf:.3f} s | {min(jb):.3f} / {mj:.3f} s"
          f" | {min(fj) / min(jb):.2f}x / {mf / mj:.2f}x | {note}", flush=True)


def interleave(run_fj, run_jb):
    fj, jb = [], []
    for r in range(REPEATS):
        order = [(run_fj, fj), (run_jb, jb)]
        if r % 2:
            order.reverse()
        for run, out in order:
            t0 = time.perf_counter()
            rows = run()
            out.append(time.perf_counter() - t0)
            assert len(rows) > 0
    return fj, jb


def psycopg_benches():
    conn = psycopg.connect("", autocommit=True)
    fastjson_psycopg.register(conn)
    fj, jb = interleave(lambda: conn.execute(FJ).fetchall(), lambda: conn.execute(JB).fetchall())
    line("psycopg text", fj, jb, "fastjson: json.loads(parse_float=Decimal); jsonb: psycopg's loader (json.loads, floats)")
    dec = psycopg.connect("", autocommit=True)
    fastjson_psycopg.register(dec)
    psycopg.types.json.set_json_loads(lambda s: json.loads(s, parse_float=Decimal), dec)
    fj, jb = interleave(lambda: dec.execute(FJ).fetchall(), lambda: dec.execute(JB).fetchall())
    line("psycopg text, both Decimal", fj, jb, "jsonb with the same json.loads(parse_float=Decimal)")
    fj, jb = interleave(lambda: conn.execute(FJ, binary=True).fetchall(),
                        lambda: conn.execute(JB, binary=True).fetchall())
    line("psycopg binary", fj, jb, "fastjson: fastjson_tape.loads (pure Python); jsonb: version byte + json.loads")
    fj, jb = interleave(lambda: dec.execute(FJ, binary=True).fetchall(),
                        lambda: dec.execute(JB, binary=True).fetchall())
    line("psycopg binary, both Decimal", fj, jb, "jsonb with json.loads(parse_float=Decimal)")
    try:
        import cbor2
    except ImportError:
        cbor2 = None
    if cbor2 is not None:
        fj, jb = interleave(
            lambda: [cbor2.loads(r[0]) for r in conn.execute(
                "SELECT fastjson_to_cbor(doc) FROM bench_fj", binary=True).fetchall()],
            lambda: dec.execute(JB, binary=True).fetchall())
        line("psycopg binary, fastjson_to_cbor(doc) + cbor2", fj, jb,
             "another query, not the type's binary form: numbers become float (Decimal only where no "
             "double holds them); jsonb: json.loads(Decimal)")
    conn.close()
    dec.close()


async def asyncpg_benches():
    import asyncpg
    loads = fastjson_json.loads
    for fmt in ("text", "binary"):
        conn = await asyncpg.connect()
        await fastjson_asyncpg.register(conn, format=fmt)
        await conn.set_type_codec("jsonb", schema="pg_catalog", format="text",
                                  encoder=fastjson_json.dumps, decoder=loads)
        fj, jb = [], []
        for r in range(REPEATS):
            order = [(FJ, fj), (JB, jb)]
            if r % 2:
                order.reverse()
            for q, out in order:
                t0 = time.perf_counter()
                rows = await conn.fetch(q)
                out.append(time.perf_counter() - t0)
                assert rows
        line(f"asyncpg {fmt} codec", fj, jb,
             ("fastjson: fastjson_tape.loads" if fmt == "binary" else "fastjson: json.loads(Decimal)")
             + "; jsonb: text codec, json.loads(Decimal)")
        await conn.close()


def sqlalchemy_benches():
    import sqlalchemy
    from sqlalchemy import Column, Integer, MetaData, Table, select
    from sqlalchemy.dialects.postgresql import JSONB
    from fastjson_sqlalchemy import FastJSON
    host, port = os.environ.get("PGHOST", "/tmp"), os.environ.get("PGPORT", "5432")
    user = os.environ.get("PGUSER", "postgres")
    db = os.environ.get("PGDATABASE", user)
    engine = sqlalchemy.create_engine(f"postgresql+psycopg2://{user}@/{db}?host={host}&port={port}")
    md = MetaData()
    tf = Table("bench_fj", md, Column("id", Integer), Column("doc", FastJSON))
    tj = Table("bench_jb", md, Column("id", Integer), Column("doc", JSONB))
    with engine.connect() as conn:
        fj, jb = interleave(lambda: conn.execute(select(tf.c.doc)).all(),
                            lambda: conn.execute(select(tj.c.doc)).all())
    line("SQLAlchemy 1.4 + psycopg2", fj, jb, "FastJSON (Decimal) vs JSONB (psycopg2's json.loads, floats)")
    engine.dispose()


if __name__ == "__main__":
    psycopg_benches()
    asyncio.run(asyncpg_benches())
    sqlalchemy_benches()
