"""fastjson for asyncpg: native Python values, as text or as the tape.

    import asyncpg, fastjson_asyncpg
    conn = await asyncpg.connect(...)
    await fastjson_asyncpg.register(conn)                    # text (the default)
    await fastjson_asyncpg.register(conn, format="binary")   # or the tape, both ways
    pool = await asyncpg.create_pool(..., init=fastjson_asyncpg.register)

asyncpg asks for each column in the format of its codec, so this is the one
driver where a type can be read as text while everything else stays binary:
with format="text" the server sends fastjson as JSON text, parsed with
json.loads(parse_float=Decimal); with format="binary" it sends the tape,
decoded by fastjson_tape (and parameters are sent as tapes, which
copy_records_to_table needs: it copies in binary). Without a codec asyncpg
returns fastjson as a str. Integers are int, other numbers Decimal.
"""
import fastjson_json
import fastjson_tape

__all__ = ["register"]


async def register(conn, format="text"):
    """Set the codec of the fastjson type on an asyncpg connection."""
    schema = await conn.fetchval(
        "SELECT typnamespace::regnamespace::text FROM pg_type WHERE oid = to_regtype('fastjson')")
    if schema is None:
        raise LookupError("type fastjson not found: CREATE EXTENSION fastjson first")
    if format == "text":
        await conn.set_type_codec("fastjson", schema=schema, format="text",
                                  encoder=fastjson_json.dumps, decoder=fastjson_json.loads)
    elif format == "binary":
        await conn.set_type_codec("fastjson", schema=schema, format="binary",
                                  encoder=fastjson_tape.dumps, decoder=fastjson_tape.loads)
    else:
        raise ValueError(f"format must be 'text' or 'binary', not {format!r}")
