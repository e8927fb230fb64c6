"""JSON text <-> Python values with exact numbers, for the fastjson recipes.

    loads(text)  json.loads(text, parse_float=Decimal): integers become int (any
                 size), other numbers Decimal (2.50, 1e3, 0.10000000000000001 exact)
    dumps(value) JSON text of such values; a Decimal is written as str(d)
                 (Decimal("2.50") -> 2.50, Decimal("1e3") -> 1E+3: the same value)

json.dumps cannot write a Decimal as a number, so dumps is a small serializer of
its own (strings go through json's C string encoder). It writes non-ASCII text
as UTF-8, rejects NaN and infinities, and recurses (depth bounded by Python's
recursion limit, as json.dumps is).
"""
from decimal import Decimal
import json
from json.encoder import encode_basestring

__all__ = ["loads", "dumps"]


def loads(text):
    """Parse JSON text (str, bytes or memoryview) with exact numbers."""
    if isinstance(text, memoryview):
        text = bytes(text)
    return json.loads(text, parse_float=Decimal)


def _put(v, out):
    if isinstance(v, str):
        out.append(encode_basestring(v))
    elif v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(int.__repr__(v))
    elif isinstance(v, Decimal):
        if not v.is_finite():
            raise ValueError(f"{v} cannot be a JSON number")
        out.append(str(v))
    elif isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError(f"{v} cannot be a JSON number")
        out.append(float.__repr__(v))
    elif isinstance(v, dict):
        out.append("{")
        first = True
        for k, e in v.items():
            if not isinstance(k, str):
                raise TypeError(f"object key {k!r} is not a string")
            if not first:
                out.append(",")
            first = False
            out.append(encode_basestring(k))
            out.append(":")
            _put(e, out)
        out.append("}")
    elif isinstance(v, (list, tuple)):
        out.append("[")
        first = True
        for e in v:
            if not first:
                out.append(",")
            first = False
            _put(e, out)
        out.append("]")
    else:
        raise TypeError(f"{type(v).__name__} is not a JSON value")


def dumps(value):
    """Minified JSON text of a value made of dict, list, str, int, Decimal, float, bool, None."""
    out = []
    _put(value, out)
    s = "".join(out)
    s.encode("utf-8")       # a lone surrogate cannot be sent: fail here, clearly
    return s
