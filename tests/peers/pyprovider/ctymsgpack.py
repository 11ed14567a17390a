"""msgpack as go-cty writes and reads it, for the Python test plugin.

Values are plain Python: None (null), str, int/float (number), bool, list
(list, set, tuple), dict (map, object), and UNKNOWN.  Encoding needs the cty
type (JSON form: "string", ["list", T], ["object", {name: T}], ...), since
cty writes objects with every attribute, sorted by name, and numbers as
integers when they are integral.  Decoding is type-free: the plugin reads
what cairn sends and re-encodes by type when it answers.
"""
import json
import struct


class _Unknown:
    """The one unknown value: copies are itself, so `is UNKNOWN` holds."""

    def __repr__(self):
        return "UNKNOWN"

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


UNKNOWN = _Unknown()


def _put_len(out, n, fix, fixmax, c8, c16, c32):
    if fix is not None and n <= fixmax:
        out.append(fix | n)
    elif c8 is not None and n < 0x100:
        out += bytes([c8, n])
    elif n < 0x10000:
        out += bytes([c16]) + struct.pack(">H", n)
    else:
        out += bytes([c32]) + struct.pack(">I", n)


def _put_str(out, s):
    b = s.encode("utf-8")
    _put_len(out, len(b), 0xa0, 31, 0xd9, 0xda, 0xdb)
    out += b


def _put_int(out, n):
    if 0 <= n < 128:
        out.append(n)
    elif -32 <= n < 0:
        out.append(n & 0xff)
    elif -(1 << 63) <= n < (1 << 63):
        out += b"\xd3" + struct.pack(">q", n)
    elif 0 <= n < (1 << 64):
        out += b"\xcf" + struct.pack(">Q", n)
    else:
        _put_str(out, str(n))      # cty: numbers too big for 64 bits


def _put_number(out, v):
    if isinstance(v, bool):
        raise TypeError("bool where a number was expected")
    if isinstance(v, int):
        _put_int(out, v)
    elif float(v).is_integer() and abs(v) < 2 ** 63:
        _put_int(out, int(v))
    else:
        out += b"\xcb" + struct.pack(">d", float(v))


def _enc(out, v, ty):
    if v is UNKNOWN:
        out += b"\xd4\x00\x00"
        return
    if v is None:
        out.append(0xc0)
        return
    if ty == "dynamic":
        out.append(0x92)
        t = infer_type(v)
        tj = json.dumps(t, separators=(",", ":")).encode()
        _put_len(out, len(tj), None, 0, 0xc4, 0xc5, 0xc6)
        out += tj
        _enc(out, v, t)
        return
    if ty == "string":
        _put_str(out, v)
    elif ty == "number":
        _put_number(out, v)
    elif ty == "bool":
        out.append(0xc3 if v else 0xc2)
    elif isinstance(ty, list) and ty[0] in ("list", "set"):
        _put_len(out, len(v), 0x90, 15, None, 0xdc, 0xdd)
        for e in v:
            _enc(out, e, ty[1])
    elif isinstance(ty, list) and ty[0] == "tuple":
        _put_len(out, len(v), 0x90, 15, None, 0xdc, 0xdd)
        for e, et in zip(v, ty[1]):
            _enc(out, e, et)
    elif isinstance(ty, list) and ty[0] == "map":
        _put_len(out, len(v), 0x80, 15, None, 0xde, 0xdf)
        for k in sorted(v):
            _put_str(out, k)
            _enc(out, v[k], ty[1])
    elif isinstance(ty, list) and ty[0] == "object":
        attrs = ty[1]
        _put_len(out, len(attrs), 0x80, 15, None, 0xde, 0xdf)
        for k in sorted(attrs):
            _put_str(out, k)
            _enc(out, v.get(k), attrs[k])
    else:
        raise TypeError("cannot encode %r as %r" % (v, ty))


def infer_type(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return ["tuple", [infer_type(e) for e in v]]
    if isinstance(v, dict):
        return ["object", {k: infer_type(e) for k, e in v.items()}]
    raise TypeError("cannot infer a type for %r" % (v,))


def encode(v, ty):
    out = bytearray()
    _enc(out, v, ty)
    return bytes(out)


class _Reader:
    def __init__(self, b):
        self.b = b
        self.i = 0

    def take(self, n):
        if self.i + n > len(self.b):
            raise ValueError("msgpack: truncated")
        s = self.b[self.i:self.i + n]
        self.i += n
        return s

    def u(self, fmt, n):
        return struct.unpack(fmt, self.take(n))[0]

    def value(self):
        c = self.take(1)[0]
        if c <= 0x7f:
            return c
        if c >= 0xe0:
            return c - 0x100
        if 0x80 <= c <= 0x8f:
            return self.map(c & 0x0f)
        if 0x90 <= c <= 0x9f:
            return self.array(c & 0x0f)
        if 0xa0 <= c <= 0xbf:
            return self.take(c & 0x1f).decode("utf-8")
        simple = {0xc0: None, 0xc2: False, 0xc3: True}
        if c in simple:
            return simple[c]
        if c in (0xc4, 0xc5, 0xc6):
            n = self.u({0xc4: ">B", 0xc5: ">H", 0xc6: ">I"}[c],
                       {0xc4: 1, 0xc5: 2, 0xc6: 4}[c])
            return bytes(self.take(n))
        if c in (0xd9, 0xda, 0xdb):
            n = self.u({0xd9: ">B", 0xda: ">H", 0xdb: ">I"}[c],
                       {0xd9: 1, 0xda: 2, 0xdb: 4}[c])
            return self.take(n).decode("utf-8")
        ints = {0xcc: (">B", 1), 0xcd: (">H", 2), 0xce: (">I", 4),
                0xcf: (">Q", 8), 0xd0: (">b", 1), 0xd1: (">h", 2),
                0xd2: (">i", 4), 0xd3: (">q", 8), 0xca: (">f", 4),
                0xcb: (">d", 8)}
        if c in ints:
            return self.u(*ints[c])
        if c in (0xdc, 0xdd):
            return self.array(self.u(">H" if c == 0xdc else ">I",
                                     2 if c == 0xdc else 4))
        if c in (0xde, 0xdf):
            return self.map(self.u(">H" if c == 0xde else ">I",
                                   2 if c == 0xde else 4))
        # Extensions: cty's unknown values (type 0, and refined unknowns).
        fixext = {0xd4: 1, 0xd5: 2, 0xd6: 4, 0xd7: 8, 0xd8: 16}
        if c in fixext:
            self.take(1 + fixext[c])
            return UNKNOWN
        if c in (0xc7, 0xc8, 0xc9):
            n = self.u({0xc7: ">B", 0xc8: ">H", 0xc9: ">I"}[c],
                       {0xc7: 1, 0xc8: 2, 0xc9: 4}[c])
            self.take(1 + n)
            return UNKNOWN
        raise ValueError("msgpack: unexpected byte 0x%02x" % c)

    def array(self, n):
        return [self.value() for _ in range(n)]

    def map(self, n):
        d = {}
        for _ in range(n):
            k = self.value()
            d[k] = self.value()
        return d


def decode(b):
    r = _Reader(b)
    v = r.value()
    if r.i != len(b):
        raise ValueError("msgpack: trailing bytes")
    return v


def typed(v, ty):
    """Fixes up a type-free decoded value by its type: dynamic values
    arrive as [type JSON, value] pairs, numbers as strings when big."""
    if v is None or v is UNKNOWN:
        return v
    if ty == "dynamic":
        if isinstance(v, list) and len(v) == 2 and isinstance(v[0], bytes):
            return typed(v[1], json.loads(v[0]))
        return v
    if ty == "number" and isinstance(v, str):
        return int(v) if v.lstrip("-").isdigit() else float(v)
    if isinstance(ty, list):
        if ty[0] in ("list", "set"):
            return [typed(e, ty[1]) for e in v]
        if ty[0] == "map":
            return {k: typed(e, ty[1]) for k, e in v.items()}
        if ty[0] == "object":
            return {k: typed(v.get(k), t) for k, t in ty[1].items()}
        if ty[0] == "tuple":
            return [typed(e, t) for e, t in zip(v, ty[1])]
    return v
