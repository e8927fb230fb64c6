"""fastjson for psycopg 3: native Python values in text and binary mode.

    import psycopg, fastjson_psycopg
    conn = psycopg.connect(...)
    fastjson_psycopg.register(conn)          # or a cursor; once per connection
    conn.execute("INSERT INTO t(doc) VALUES (%s)", [fastjson_psycopg.Fastjson({"a": [1, Decimal("2.50")]})])
    conn.execute("SELECT doc FROM t").fetchone()[0]                     # {'a': [1, Decimal('2.50')]}
    conn.cursor(binary=True).execute("SELECT doc FROM t").fetchone()[0]  # the same

Results: a text-format fastjson value is parsed with json.loads(parse_float=Decimal);
a binary-format value (binary cursors, binary COPY) is the tape, which
fastjson_tape.loads decodes to the same values. Integers are int, other numbers
Decimal, so nothing is rounded.

Parameters: wrap a value in Fastjson(...). %s and %t send it as JSON text
(fastjson_json.dumps: a Decimal as str(d)), %b as a tape (fastjson_tape.dumps).
COPY: copy.set_types([..., "fastjson"]) on COPY TO gives native values (text and
binary); on COPY FROM, write_row((..., Fastjson(value))) in text and binary COPY
alike (binary COPY needs set_types: the server applies no cast there).
"""
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

import fastjson_json
import fastjson_tape

__all__ = ["register", "Fastjson"]


class Fastjson:
    """A value to send as fastjson (as psycopg's Jsonb wraps one for jsonb)."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __repr__(self):
        return f"Fastjson({self.obj!r})"


def _unwrap(obj):
    return obj.obj if isinstance(obj, Fastjson) else obj


class FastjsonLoader(Loader):
    format = Format.TEXT

    def load(self, data):
        return fastjson_json.loads(bytes(data))


class FastjsonBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return fastjson_tape.loads(data)


class _FastjsonDumper(Dumper):
    format = Format.TEXT

    def dump(self, obj):
        return fastjson_json.dumps(_unwrap(obj)).encode("utf-8")


class _FastjsonBinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return fastjson_tape.dumps(_unwrap(obj))


def register(context, info=None):
    """Register fastjson's loaders and dumpers on a connection or cursor (or psycopg.adapters)."""
    if info is None:
        conn = getattr(context, "connection", context)
        info = TypeInfo.fetch(conn, "fastjson")
        if info is None:
            raise LookupError("type fastjson not found: CREATE EXTENSION fastjson first")
    info.register(context)            # fastjson[] arrays too
    adapters = context.adapters
    adapters.register_loader(info.oid, FastjsonLoader)
    adapters.register_loader(info.oid, FastjsonBinaryLoader)
    # The dumpers name the type's OID (it differs from database to database).
    binary = type("FastjsonBinaryDumper", (_FastjsonBinaryDumper,), {"oid": info.oid})
    text = type("FastjsonDumper", (_FastjsonDumper,), {"oid": info.oid})
    adapters.register_dumper(Fastjson, binary)
    adapters.register_dumper(Fastjson, text)    # last registered: what %s uses
    return info
