"""fastjson for SQLAlchemy 1.4: a column type of native Python values, and its operators.

    from fastjson_sqlalchemy import FastJSON
    events = Table("events", metadata, Column("id", Integer, primary_key=True),
                   Column("doc", FastJSON))
    conn.execute(events.insert(), [{"id": 1, "doc": {"type": "error", "http": {"status": 503}}}])
    conn.execute(select(events.c.doc.get_text("type"))                       # doc ->> 'type'
                 .where(events.c.doc.path_text("http", "status").cast(Integer) >= 500))

Values are dict / list / str / int / Decimal / bool / None: written as JSON text
(fastjson_json.dumps), read with json.loads(parse_float=Decimal), so numbers are
exact. The operators: doc["k"] and doc[0] (->, a FastJSON), doc.get_text(k)
(->>, text), doc.path("a", "b") (#>, a FastJSON), doc.path_text("a", "b") (#>>,
text). It works with any DBAPI that gives the type as text: psycopg2
(postgresql://, SQLAlchemy 1.4's default) and asyncpg (postgresql+asyncpg://).
Like SQLAlchemy's JSON types, in-place changes to a loaded value are not
tracked by the ORM: assign a new value (or use sqlalchemy.ext.mutable).
"""
from sqlalchemy import Integer, Text, cast, types
from sqlalchemy.dialects.postgresql import ARRAY, array

import fastjson_json

__all__ = ["FastJSON"]


class FastJSON(types.UserDefinedType):
    """The fastjson column type."""
    cache_ok = True

    def get_col_spec(self, **kw):
        return "fastjson"

    def bind_processor(self, dialect):
        def process(value):
            return None if value is None else fastjson_json.dumps(value)
        return process

    def result_processor(self, dialect, coltype):
        def process(value):
            return None if value is None else fastjson_json.loads(value)
        return process

    class comparator_factory(types.UserDefinedType.Comparator):
        def __getitem__(self, key):
            """doc -> key (a str key or an int index): a FastJSON."""
            return self.expr.op("->", return_type=FastJSON)(_key(key))

        def get_text(self, key):
            """doc ->> key: text, numbers as written."""
            return self.expr.op("->>", return_type=Text)(_key(key))

        def path(self, *keys):
            """doc #> '{a,b}': a FastJSON."""
            return self.expr.op("#>", return_type=FastJSON)(_path(keys))

        def path_text(self, *keys):
            """doc #>> '{a,b}': text."""
            return self.expr.op("#>>", return_type=Text)(_path(keys))


def _key(key):
    from sqlalchemy import literal
    return literal(key, Integer if isinstance(key, int) else Text)


def _path(keys):
    return cast(array([str(k) for k in keys], type_=Text), ARRAY(Text))
