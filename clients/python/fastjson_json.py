"""JSON text <-> Python values with exact numbers, for the fastjson recipes.

    loads(text)  json.loads(text, parse_float=Decimal): integers become int (any
                 size), other numbers Decimal (2.50, 1e3, 0.10000000000000001 exact)
    dumps(value) JSON text of such values; a Decimal is written as str(d)
                 (Decimal("2.50") -> 2.50, Decimal("1e3") -> 1E+3: the same value)

Both read and write documents of any depth: json.loads stops at Python's
recursion limit (about 1,000 levels), so a document nested deeper is parsed by
a small iterative parser instead (slower, the same values); and json.dumps
cannot write a Decimal as a number, so dumps is an iterative serializer of its
own (strings go through json's C string encoder). dumps writes non-ASCII text
as UTF-8 and rejects NaN, infinities and lone surrogates.
"""
from decimal import Decimal
import json
import re
from json.decoder import scanstring
from json.encoder import encode_basestring

__all__ = ["loads", "dumps"]


def loads(text):
    """Parse JSON text (str, bytes or memoryview) with exact numbers."""
    if isinstance(text, memoryview):
        text = bytes(text)
    try:
        return json.loads(text, parse_float=Decimal)
    except RecursionError:
        return _loads_deep(text.decode("utf-8") if isinstance(text, (bytes, bytearray)) else text)


_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def _loads_deep(s):
    """json.loads(s, parse_float=Decimal) without recursion."""
    ws = _WS.match
    n = len(s)

    def fail(what, i):
        raise json.JSONDecodeError(what, s, i)

    def member_key(i):
        i = ws(s, i).end()
        if s[i:i + 1] != '"':
            fail("Expecting property name enclosed in double quotes", i)
        k, i = scanstring(s, i + 1)
        i = ws(s, i).end()
        if s[i:i + 1] != ":":
            fail("Expecting ':' delimiter", i)
        return k, i + 1

    stack = []
    cur = key = None
    is_obj = False
    i = 0
    while True:
        i = ws(s, i).end()
        c = s[i:i + 1]
        if c == '"':
            v, i = scanstring(s, i + 1)
        elif c == "{" or c == "[":
            i = ws(s, i + 1).end()
            if s[i:i + 1] == ("}" if c == "{" else "]"):
                v = {} if c == "{" else []
                i += 1
            else:
                stack.append((cur, key, is_obj))
                is_obj = c == "{"
                cur = {} if is_obj else []
                if is_obj:
                    key, i = member_key(i)
                continue
        elif s.startswith("true", i):
            v, i = True, i + 4
        elif s.startswith("false", i):
            v, i = False, i + 5
        elif s.startswith("null", i):
            v, i = None, i + 4
        else:
            m = _NUMBER.match(s, i)
            if not m:
                fail("Expecting value", i)
            t = m.group()
            v = Decimal(t) if m.group(1) or m.group(2) else int(t)
            i = m.end()
        while True:                 # v is complete: put it in its container
            if cur is None:
                i = ws(s, i).end()
                if i != n:
                    fail("Extra data", i)
                return v
            if is_obj:
                cur[key] = v
            else:
                cur.append(v)
            i = ws(s, i).end()
            d = s[i:i + 1]
            i += 1
            if d == ",":
                if is_obj:
                    key, i = member_key(i)
                break
            if d != ("}" if is_obj else "]"):
                fail("Expecting ',' delimiter", i - 1)
            v = cur
            cur, key, is_obj = stack.pop()


def _scalar(v):
    if isinstance(v, str):
        return encode_basestring(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return int.__repr__(v)
    if isinstance(v, Decimal):
        if not v.is_finite():
            raise ValueError(f"{v} cannot be a JSON number")
        return str(v)
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError(f"{v} cannot be a JSON number")
        return float.__repr__(v)
    raise TypeError(f"{type(v).__name__} is not a JSON value")


_END = object()


def dumps(value):
    """Minified JSON text of a value made of dict, list, str, int, Decimal, float, bool, None."""
    out = []
    stack = []                      # [is_object, iterator, first] of each open container
    v = value
    while True:
        if isinstance(v, dict):
            out.append("{")
            stack.append([True, iter(v.items()), True])
        elif isinstance(v, (list, tuple)):
            out.append("[")
            stack.append([False, iter(v), True])
        else:
            out.append(_scalar(v))
        while True:                 # the next value to write, closing what is done
            if not stack:
                s = "".join(out)
                s.encode("utf-8")   # a lone surrogate cannot be sent: fail here, clearly
                return s
            frame = stack[-1]
            item = next(frame[1], _END)
            if item is _END:
                out.append("}" if frame[0] else "]")
                stack.pop()
                continue
            if not frame[2]:
                out.append(",")
            frame[2] = False
            if frame[0]:
                k, v = item
                if not isinstance(k, str):
                    raise TypeError(f"object key {k!r} is not a string")
                out.append(encode_basestring(k))
                out.append(":")
            else:
                v = item
            break
