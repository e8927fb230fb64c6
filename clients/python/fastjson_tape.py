"""Read and write the fastjson tape (the type's binary send/recv format) in Python.

The tape is described byte by byte in doc/format.md. This module turns a tape
into Python values and Python values into a tape, so that binary-mode clients
(psycopg's binary cursors and binary COPY, asyncpg with format='binary') get
native values, not bytes only fastjson can read:

    loads(tape)  -> dict / list / str / int / Decimal / bool / None
    dumps(value) -> bytes, a canonical version 4 tape (no string references)

Numbers follow json.loads(s, parse_float=Decimal): a number with a fraction or
an exponent becomes parse_float(text) (Decimal by default, so 2.50, 1e3 and
0.10000000000000001 are exact), any other number an int (of any size). Objects
become dicts (a duplicated key keeps its last value, at its first position, as
json.loads does) unless object_pairs_hook is given.

loads reads tape versions 2, 3 and 4 and rejects anything else with TapeError
(a ValueError): an unknown version or flag, an invalid tag, a length or
container that runs past its end, a key that is not a string, invalid UTF-8,
bad packed digits, number text that is not JSON, or bytes after the root. It
checks the structure, not that the tape is canonical (the server does that on
input); it does not read key indexes, it skips them. Nesting of any depth is
read without recursion.

dumps writes the canonical tape the server's own parser writes for the same
document, except that it never writes string references (which the format
leaves to the writer); fastjson_recv accepts it. It raises ValueError for what
JSON cannot hold (NaN, infinities, strings that are not valid Unicode) and
TypeError for other types. Both read and write any depth without recursion.
"""
from decimal import Decimal
import re

__all__ = ["loads", "dumps", "TapeError", "VERSIONS", "RawNumber", "ObjectPairs"]

VERSIONS = (2, 3, 4)    # tape versions this module reads; it writes 4
_WRITE_VERSION = 4
_FLAG_DISTINCT_ROOT_KEYS = 1
_KEY_INDEX_MIN = 8      # objects with more members carry a key index
_KEY_INDEX_FRONT_MAX = 64
_INT64_MAX = (1 << 63) - 1
_PACKED_MAX = 40

# RFC 8259 number grammar, for NUMBER and PACKED text.
_NUMBER_RE = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")
_PACKED_RE = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?\Z")


class RawNumber(str):
    """A number kept as its exact JSON text: loads(t, parse_float=RawNumber,
    parse_int=RawNumber) keeps every spelling, and dumps writes it back as that number."""
    __slots__ = ()


class ObjectPairs(list):
    """An object as its list of (key, value) pairs, duplicates and order kept:
    loads(t, object_pairs_hook=ObjectPairs); dumps writes it back as that object."""
    __slots__ = ()


class TapeError(ValueError):
    """A tape this module cannot read: the message says what and at which byte."""


def _err(what, pos):
    raise TapeError(f"invalid fastjson tape: {what} at byte {pos}")


# PACKED: character k in byte k // 2, low nibble first; 0-9 digits, 0xd '-', 0xe '.'.
_NIB = "0123456789???-.?"
_PAIR = tuple((_NIB[b & 15] + _NIB[b >> 4]) for b in range(256))
_UNPAIR = {}
for _b in range(256):
    _UNPAIR.setdefault(_PAIR[_b], _b)


def loads(tape, *, parse_float=Decimal, parse_int=None, object_pairs_hook=None):
    """Decode one fastjson tape (bytes, bytearray or memoryview) into Python values."""
    buf = bytes(tape)
    n = len(buf)
    if n < 3:
        _err(f"{n} bytes, shorter than the 3-byte minimum", 0)
    version = buf[0]
    if version not in VERSIONS:
        raise TapeError(f"fastjson tape version {version} is not supported "
                        f"(this module reads versions {VERSIONS[0]} to {VERSIONS[-1]})")
    flags = buf[1]
    if flags & ~_FLAG_DISTINCT_ROOT_KEYS or (version == 2 and flags):
        _err(f"unknown flags 0x{flags:02x} for version {version}", 1)
    from_bytes = int.from_bytes
    pint = parse_int
    pairs_hook = object_pairs_hook
    pair = _PAIR
    number_ok = _NUMBER_RE.match
    packed_ok = _PACKED_RE.match

    # The innermost open container, in locals (the enclosing ones are on stack):
    # cont (a dict, or a list for arrays and for pairs), is_obj, remaining (members
    # or elements still to read), mend (where its members end), cend (where it
    # ends), key (the member being read), append (cont.append for lists).
    stack = []
    cont = None
    is_obj = False
    remaining = 0
    mend = cend = n
    key = None
    append = None
    p = 2
    while True:
        if is_obj:                      # an object member: its key, a STRING, first
            if p >= mend:
                _err("a key expected, but the object ends", p)
            tag = buf[p]
            if 0x80 <= tag < 0x9c:
                p += 1
                q = p + (tag & 31)
            elif 0x9c <= tag <= 0x9e:
                k = (1, 2, 4)[tag - 0x9c]
                q = p + 1 + k + from_bytes(buf[p + 1:p + 1 + k], "little")
                p += 1 + k
            else:
                _err(f"object key of tag 0x{tag:02x}, not a string", p)
            if q > mend:
                _err("key runs past its object", p)
            try:
                key = buf[p:q].decode("utf-8")
            except UnicodeDecodeError as e:
                _err(f"invalid UTF-8 in a key ({e.reason})", p + e.start)
            p = q
        if p >= mend:
            _err("a value expected, but the container or tape ends", p)
        tag = buf[p]
        t = tag >> 5
        imm = tag & 31
        start = p
        p += 1
        if t == 4:                      # STRING (the most frequent value)
            if imm < 28:
                q = p + imm
            elif imm < 31:
                k = (1, 2, 4)[imm - 28]
                q = p + k + from_bytes(buf[p:p + k], "little")
                p += k
            else:                       # a reference to an earlier string
                if version < 3:
                    _err("string reference in a version 2 tape", start)
                if p + 4 > mend:
                    _err("string reference runs past its container", start)
                d = from_bytes(buf[p:p + 4], "little")
                p += 4
                r = start - d
                if d < 1 or r < 2:
                    _err(f"string reference distance {d} points outside the tape", start)
                rt = buf[r]
                if rt >> 5 != 4 or rt & 31 == 31:
                    _err(f"string reference to byte {r}, which is not a string", start)
                ri = rt & 31
                r += 1
                if ri >= 28:
                    k = (1, 2, 4)[ri - 28]
                    ln = from_bytes(buf[r:r + k], "little")
                    r += k
                else:
                    ln = ri
                if r + ln > start:
                    _err(f"string reference to byte {r}, a string that runs past it", start)
                try:
                    v = buf[r:r + ln].decode("utf-8")
                except UnicodeDecodeError as e:
                    _err(f"invalid UTF-8 in a string ({e.reason})", r + e.start)
                q = -1
            if q >= 0:
                if q > mend:
                    _err(f"string of {q - p} bytes runs past its container", start)
                try:
                    v = buf[p:q].decode("utf-8")
                except UnicodeDecodeError as e:
                    _err(f"invalid UTF-8 in a string ({e.reason})", p + e.start)
                p = q
        elif t == 1 or t == 2:          # UINT, NINT
            if imm < 24:
                m = imm
            elif imm < 28:
                k = (1, 2, 4, 8)[imm - 24]
                if p + k > mend:
                    _err("integer runs past its container", start)
                m = from_bytes(buf[p:p + k], "little")
                p += k
                if m > _INT64_MAX:
                    _err("integer magnitude above 2**63 - 1", start)
            else:
                _err(f"invalid integer tag 0x{tag:02x}", start)
            v = m if t == 1 else -1 - m
            if pint is not None:
                v = pint(str(v))
        elif t == 6 or t == 5:          # OBJECT, ARRAY
            # bit 4 (version 4): a key index of fingerprints only, before the members
            if (imm & 16 and (version < 4 or not imm & 4)) or (t == 5 and imm & 4):
                _err(f"invalid container tag 0x{tag:02x}", start)
            wc = imm & 3
            if wc == 0:
                if imm:
                    _err(f"invalid empty container tag 0x{tag:02x}", start)
                v = ({} if pairs_hook is None else pairs_hook([])) if t == 6 else []
            else:
                w = (1, 2, 4)[wc - 1]
                if p + 2 * w > mend:
                    _err("container header runs past its end", start)
                size = from_bytes(buf[p:p + w], "little")
                count = from_bytes(buf[p + w:p + 2 * w], "little")
                p += 2 * w
                c_end = p + size
                if c_end > mend:
                    _err(f"container of {size} bytes runs past its end", start)
                if count < 1:
                    _err("non-empty container with a count of 0", start)
                m_end = c_end
                if imm & 4:             # key index: skip it
                    if count <= _KEY_INDEX_MIN:
                        _err(f"key index on an object of {count} members", start)
                    front = count <= _KEY_INDEX_FRONT_MAX and w < 4
                    if imm & 16 and not front:
                        _err(f"invalid container tag 0x{tag:02x}", start)
                    isz = count if imm & 16 else count * (1 + w)
                    if isz > size:
                        _err("key index larger than its object", start)
                    if front:
                        p += isz
                    else:
                        m_end = c_end - isz
                elif t == 6 and count > _KEY_INDEX_MIN:
                    _err(f"object of {count} members without a key index", start)
                stack.append((cont, is_obj, remaining, mend, cend, key, append))
                if t == 6:
                    is_obj = True
                    if pairs_hook is None:
                        cont = {}
                        append = None
                    else:
                        cont = []
                        append = cont.append
                else:
                    is_obj = False
                    cont = []
                    append = cont.append
                remaining = count
                mend = m_end
                cend = c_end
                continue
        elif t == 7:                    # PACKED number text
            if imm < 28:
                ln = imm
            elif imm == 28:
                if p >= mend:
                    _err("packed number runs past its container", start)
                ln = buf[p]
                p += 1
                if ln < 28 or ln > _PACKED_MAX:
                    _err(f"packed number of length {ln}", start)
            else:
                _err(f"invalid packed number tag 0x{tag:02x}", start)
            nb = (ln + 1) >> 1
            if p + nb > mend:
                _err("packed number runs past its container", start)
            text = "".join([pair[b] for b in buf[p:p + nb]])
            if ln & 1:
                if text[-1] != "0":
                    _err("packed number with a nonzero pad nibble", start)
                text = text[:-1]
            p += nb
            if not packed_ok(text):
                _err(f"packed number {text!r} is not a JSON number", start)
            if "." in text:
                v = _float(parse_float, text, start)
            else:
                v = int(text) if pint is None else pint(text)
        elif t == 3:                    # NUMBER text
            if imm < 28:
                ln = imm
            elif imm < 31:
                k = (1, 2, 4)[imm - 28]
                ln = from_bytes(buf[p:p + k], "little")
                p += k
            else:
                _err(f"invalid number tag 0x{tag:02x}", start)
            q = p + ln
            if q > mend:
                _err("number runs past its container", start)
            raw = buf[p:q]
            if not number_ok(raw):
                _err(f"number text {raw[:60]!r} is not a JSON number", start)
            text = raw.decode("ascii")
            p = q
            if b"." in raw or b"e" in raw or b"E" in raw:
                v = _float(parse_float, text, start)
            else:
                v = int(text) if pint is None else pint(text)
        else:                           # LITERAL
            if imm > 2:
                _err(f"invalid tag 0x{tag:02x}", start)
            v = (None, False, True)[imm]

        # Attach v to the container it belongs to; close the containers it fills.
        while True:
            if cont is None:
                if p != n:
                    _err(f"{n - p} bytes after the root value", p)
                return v
            if append is None:
                cont[key] = v
            elif is_obj:
                append((key, v))
            else:
                append(v)
            remaining -= 1
            if remaining:
                break
            if p != mend:
                _err("container members do not fill its size", p)
            p = cend
            v = cont
            if is_obj and pairs_hook is not None:
                v = pairs_hook(v)
            cont, is_obj, remaining, mend, cend, key, append = stack.pop()


def _float(parse_float, text, pos):
    try:
        return parse_float(text)
    except ArithmeticError:     # decimal.InvalidOperation: an exponent beyond Decimal's range
        raise ValueError(f"the number {text[:40]} at byte {pos} is valid JSON, but "
                         f"{getattr(parse_float, '__name__', 'parse_float')} cannot hold it") from None




# ------------------------------------------------------------------ writing

def _key_fingerprint(key):
    """fj_key_fingerprint (doc/format.md 3.5)."""
    M = 0xFFFFFFFFFFFFFFFF
    n = len(key)
    head = int.from_bytes(key[:8], "little")
    tl = 0 if n <= 8 else (n - 8 if n < 16 else 8)
    tail = int.from_bytes(key[n - tl:], "little") if tl else 0
    h = (head * 0x9E3779B97F4A7C15 ^ tail * 0xC2B2AE3D27D4EB4F ^ n * 0x165667B19E3779F9) & M
    h ^= h >> 29
    return ((h * 0xBF58476D1CE4E5B9) & M) >> 56


def _int_head(type_bits, m, out):
    if m <= 23:
        out.append(type_bits | m)
    elif m <= 0xFF:
        out.append(type_bits | 24)
        out.append(m)
    elif m <= 0xFFFF:
        out.append(type_bits | 25)
        out += m.to_bytes(2, "little")
    elif m <= 0xFFFFFFFF:
        out.append(type_bits | 26)
        out += m.to_bytes(4, "little")
    else:
        out.append(type_bits | 27)
        out += m.to_bytes(8, "little")


def _text_head(type_bits, ln, out):
    if ln <= 27:
        out.append(type_bits | ln)
    elif ln <= 0xFF:
        out.append(type_bits | 28)
        out.append(ln)
    elif ln <= 0xFFFF:
        out.append(type_bits | 29)
        out += ln.to_bytes(2, "little")
    else:
        out.append(type_bits | 30)
        out += ln.to_bytes(4, "little")


def _number(text, out):
    """A number's JSON text: UINT/NINT if it is an int64 integer, else PACKED or NUMBER."""
    if not _NUMBER_RE.match(text.encode("ascii")):
        raise ValueError(f"{text!r} is not a JSON number")
    if "." not in text and "e" not in text and "E" not in text and text != "-0":
        v = int(text)
        if -_INT64_MAX - 1 <= v <= _INT64_MAX:
            if v >= 0:
                _int_head(0x20, v, out)
            else:
                _int_head(0x40, -1 - v, out)
            return
    ln = len(text)
    if ln <= _PACKED_MAX and "e" not in text and "E" not in text:
        if ln <= 27:
            out.append(0xE0 | ln)
        else:
            out.append(0xE0 | 28)
            out.append(ln)
        if ln & 1:
            text += "0"
        unpair = _UNPAIR
        out += bytes([unpair[text[i:i + 2]] for i in range(0, ln + (ln & 1), 2)])
    else:
        raw = text.encode("ascii")
        _text_head(0x60, len(raw), out)
        out += raw


def _string(s, out):
    raw = s.encode("utf-8")         # a lone surrogate raises UnicodeEncodeError (a ValueError)
    _text_head(0x80, len(raw), out)
    out += raw


def _scalar(v, out):
    if isinstance(v, str):
        if isinstance(v, RawNumber):
            _number(str.__str__(v), out)
        else:
            _string(v, out)
    elif v is None:
        out.append(0x00)
    elif v is True:
        out.append(0x02)
    elif v is False:
        out.append(0x01)
    elif isinstance(v, int):
        if -_INT64_MAX - 1 <= v <= _INT64_MAX:
            if v >= 0:
                _int_head(0x20, v, out)
            else:
                _int_head(0x40, -1 - v, out)
        else:
            _number(str(int(v)), out)
    elif isinstance(v, Decimal):
        if not v.is_finite():
            raise ValueError(f"{v} cannot be a JSON number")
        _number(str(v), out)
    elif isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError(f"{v} cannot be a JSON number")
        _number(repr(v), out)
    else:
        raise TypeError(f"{type(v).__name__} is not a JSON value")


def _close(is_obj, count, members, offsets, fps, out):
    """Write a non-empty container whose members are written: header, key index, members."""
    indexed = is_obj and count > _KEY_INDEX_MIN
    msize = len(members)
    front = False
    if indexed:
        # a front index (up to 64 members, w 1 or 2) is the fingerprints alone
        small = count <= _KEY_INDEX_FRONT_MAX
        if msize + (count if small else count * 2) <= 0xFF:
            w = 1
        elif msize + (count if small else count * 3) <= 0xFFFF:
            w = 2
        else:
            w = 4
        front = small and w < 4
        index = bytearray(fps)
        if not front:
            for off in offsets:
                index += off.to_bytes(w, "little")
        size = msize + len(index)
    else:
        size = msize
        w = 1 if size <= 0xFF else (2 if size <= 0xFFFF else 4)
    wc = {1: 1, 2: 2, 4: 3}[w]
    out.append((0xC0 if is_obj else 0xA0) | wc | (4 if indexed else 0) | (16 if front else 0))
    out += size.to_bytes(w, "little")
    out += count.to_bytes(w, "little")
    if front:
        out += index
        out += members
    elif indexed:
        out += members
        out += index
    else:
        out += members


_END = object()


def dumps(value):
    """The canonical fastjson tape (version 4, no string references) of a Python value.

    Iterative: a document of any depth is written."""
    flags = 0
    if isinstance(value, dict) and 1 <= len(value) <= _KEY_INDEX_MIN:
        flags = _FLAG_DISTINCT_ROOT_KEYS     # a dict's keys are always distinct
    elif isinstance(value, ObjectPairs) and 1 <= len(value) <= _KEY_INDEX_MIN:
        if len({k for k, _ in value}) == len(value):
            flags = _FLAG_DISTINCT_ROOT_KEYS
    out = bytearray((_WRITE_VERSION, flags))
    # open containers: [is_object, iterator, count, members, key offsets, fingerprints]
    stack = []
    v = value
    target = out
    while True:
        if isinstance(v, (dict, ObjectPairs, list, tuple)):
            is_obj = isinstance(v, (dict, ObjectPairs))
            if not v:
                target.append(0xC0 if is_obj else 0xA0)
            else:
                stack.append([is_obj, iter(v.items() if isinstance(v, dict) else v), len(v),
                              bytearray(), [], []])
        else:
            _scalar(v, target)
        while True:                 # the next value to write, closing what is done
            if not stack:
                return bytes(out)
            frame = stack[-1]
            item = next(frame[1], _END)
            if item is _END:
                stack.pop()
                _close(frame[0], frame[2], frame[3], frame[4], frame[5],
                       stack[-1][3] if stack else out)
                continue
            members = frame[3]
            if frame[0]:
                k, v = item
                if not isinstance(k, str):
                    raise TypeError(f"object key {k!r} is not a string")
                if frame[2] > _KEY_INDEX_MIN:
                    frame[4].append(len(members))
                    frame[5].append(_key_fingerprint(k.encode("utf-8")))
                _string(k, members)
            else:
                v = item
            target = members
            break
