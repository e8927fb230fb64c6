"""jsonpath_gen.py — random documents and SQL/JSON path expressions for the
differential test against jsonb (test/jsonpath_differential.py).

Deterministic for a seed. Documents: nested objects and arrays with duplicate
keys (the last one is operative, as in jsonb), numbers in several spellings,
deep nesting, empty containers, and strings that the item methods convert
(numbers, booleans, dates, times, timestamps). Expressions: every item type
of the server's jsonpath (the generator is told the server's major version:
17 added the conversion methods, 19 the string methods), accessors with
keys the documents have, filters, predicates, arithmetic, variables; each
expression in lax and in strict mode.

Each expression comes with the set of item type names it uses, so the test
can say which item types its expressions covered.
"""

import json
import random

KEYS = ["a", "b", "c", "aa", "", "é", "x", "items", "price", "id", "tags", "k1", "big"]
NUMBERS = ["0", "-0", "0.0", "1", "1.0", "1.50", "1e2", "1E+2", "100", "-1", "-1.5", "2", "3",
           "12345678901234567890", "9223372036854775807", "-9223372036854775808", "0.1", "1e-3",
           "2.5e1", "123.456", "7", "10", "1e20", "-7", "0.5", "4294967296", "2147483648"]
STRINGS = ["", "a", "b", "x", "y", "abc", "aBc", "hello world", "é", "日本", "1", "1.5", "-2",
           "1e3", "true", "false", "yes", "off", "null", "NaN", "inf", "12345678901",
           "2020-01-02", "2021-12-31", "12:34:56", "23:59:59.123456", "12:34:56+05:30",
           "2020-01-02 03:04:05", "2020-01-02T03:04:05", "2020-01-02 03:04:05.678+02",
           "2020-01-02T03:04:05-08:00", "2019-02-29", "25:00:00", " padded ", "xxhixx",
           "a,b,c", "Mixed Case words", "ab\\ncd"]


class DocGen:
    def __init__(self, rnd):
        self.r = rnd

    def scalar(self):
        r = self.r.random()
        if r < 0.07:
            return "null"
        if r < 0.14:
            return self.r.choice(["true", "false"])
        if r < 0.55:
            return self.r.choice(NUMBERS)
        return json.dumps(self.r.choice(STRINGS), ensure_ascii=self.r.random() < 0.3)

    def value(self, depth):
        r = self.r.random()
        if depth <= 0 or r < 0.35:
            return self.scalar()
        if r < 0.65:
            n = self.r.choice([0, 1, 2, 3, 3, 4, 5, 6])
            return "[" + ",".join(self.value(depth - 1) for _ in range(n)) + "]"
        n = self.r.choice([0, 1, 2, 3, 3, 4, 5, 9, 12])
        members = []
        for _ in range(n):
            k = self.r.choice(KEYS)
            members.append("%s:%s" % (json.dumps(k), self.value(depth - 1)))
            if self.r.random() < 0.15:      # a duplicate key: the later one is operative
                members.append("%s:%s" % (json.dumps(k), self.value(depth - 1)))
        return "{" + ",".join(members) + "}"

    def deep(self, n):
        s = self.value(1)
        for i in range(n):
            if self.r.random() < 0.5:
                s = "[%s]" % s
            else:
                s = '{"%s":%s}' % (self.r.choice(KEYS[:4]), s)
        return s

    def large(self, size):
        """An object of about size bytes of text: compressed in its row, or out of line."""
        members = []
        total = 0
        while total < size:
            k = self.r.choice(KEYS + ["k%d" % self.r.randint(0, 60)])
            m = "%s:%s" % (json.dumps(k), self.value(3))
            members.append(m)
            total += len(m) + 1
        return "{" + ",".join(members) + "}"

    def documents(self, n):
        docs = ["{}", "[]", "null", "1", "1.0", '"x"', '"2020-01-02"', "true", "[[]]", '{"a":{}}',
                '{"a":1,"a":2}', '{"a":[1,2,3],"b":{"a":[{"a":4}]}}', "[1,[2,[3,[4]]]]",
                '{"items":[{"price":10,"id":1},{"price":2.50,"id":2},{"price":"7","id":3}]}',
                '{"a":1,"b":"x","c":[1,"2",null,true,{"a":1}],"aa":{"b":{"c":"d"}}}',
                '{"x":"12:34:56","y":"2020-01-02","z":"2020-01-02 03:04:05+01"}']
        for i in range(n):
            r = self.r.random()
            if r < 0.1:
                docs.append(self.deep(self.r.randint(5, 40)))
            elif r < 0.85:
                docs.append(self.value(self.r.randint(1, 4)))
            else:
                docs.append(self.scalar())
        return docs


class PathGen:
    """Random jsonpath expressions; keys are drawn from the documents' keys."""

    def __init__(self, rnd, major, keys=None, root_in_filters=True):
        self.r = rnd
        self.major = major
        self.keys = keys or KEYS
        self.used = set()
        # $ inside a filter reads the whole document for every item filtered:
        # not on large documents, where that is quadratic (or worse) for both types
        self.root_in_filters = root_in_filters

    def key(self):
        k = self.r.choice(self.keys)
        if k.isidentifier() and k not in ("last", "true", "false", "null", "exists", "like_regex",
                                          "starts", "with", "is", "unknown", "flag", "to", "lax",
                                          "strict") and self.r.random() < 0.8:
            return "." + k
        return "." + json.dumps(k)

    def number(self):
        return self.r.choice(["0", "1", "2", "-1", "1.5", "10", "2.50", "1e2", "0.1", "100", "3"])

    def string(self):
        return json.dumps(self.r.choice(["a", "x", "", "abc", "1", "2020-01-02", "12:34:56", "true"]))

    def literal(self):
        r = self.r.random()
        if r < 0.4:
            self.used.add("numeric")
            return self.number()
        if r < 0.75:
            self.used.add("string")
            return self.string()
        if r < 0.9:
            self.used.add("bool")
            return self.r.choice(["true", "false"])
        self.used.add("null")
        return "null"

    def subscript(self):
        r = self.r.random()
        if r < 0.35:
            return str(self.r.choice([0, 1, 2, -1, 5]))
        if r < 0.5:
            self.used.add("last")
            return self.r.choice(["last", "last - 1", "last-2"])
        if r < 0.7:
            self.used.add("subscript")
            return "%s to %s" % (self.r.choice(["0", "1", "2"]), self.r.choice(["1", "2", "last", "5"]))
        if r < 0.8:
            self.used.add("subscript")
            return "%s, %s" % (self.r.choice(["0", "1"]), self.r.choice(["2", "last", "0 to 1"]))
        if r < 0.9:
            self.used.update(["subscript", "add"])
            return "1 + 0.7"
        self.used.add("variable")
        return "$x"

    def method(self):
        m = [("type", ".type()"), ("size", ".size()"), ("abs", ".abs()"), ("floor", ".floor()"),
             ("ceiling", ".ceiling()"), ("double", ".double()"), ("keyvalue", ".keyvalue()"),
             ("datetime", ".datetime()"),
             ("datetime", '.datetime("yyyy-mm-dd")'), ("datetime", '.datetime("HH24:MI:SS")'),
             ("datetime", '.datetime("yyyy-mm-dd HH24:MI:SS TZH")')]
        if self.major >= 17:
            m += [("bigint", ".bigint()"), ("boolean", ".boolean()"), ("date", ".date()"),
                  ("decimal", ".decimal()"), ("decimal", ".decimal(4, 1)"), ("decimal", ".decimal(3)"),
                  ("integer", ".integer()"), ("number", ".number()"), ("stringfunc", ".string()"),
                  ("time", ".time()"), ("time", ".time(2)"), ("timetz", ".time_tz()"),
                  ("timetz", ".time_tz(1)"), ("timestamp", ".timestamp()"),
                  ("timestamp", ".timestamp(0)"), ("timestamptz", ".timestamp_tz()"),
                  ("timestamptz", ".timestamp_tz(3)")]
        if self.major >= 19:
            m += [("strreplace", '.replace("a", "z")'), ("strlower", ".lower()"),
                  ("strupper", ".upper()"), ("strltrim", ".ltrim()"), ("strltrim", '.ltrim(" x")'),
                  ("strrtrim", ".rtrim()"), ("strrtrim", '.rtrim("x")'), ("strbtrim", ".btrim()"),
                  ("strbtrim", '.btrim(" ")'), ("strinitcap", ".initcap()"),
                  ("strsplitpart", '.split_part(",", 2)'), ("strsplitpart", '.split_part(" ", -1)')]
        name, text = self.r.choice(m)
        self.used.add(name)
        return text

    def step(self, depth, in_filter):
        r = self.r.random()
        if r < 0.38:
            self.used.add("key")
            return self.key()
        if r < 0.48:
            self.used.add("anyarray")
            return "[*]"
        if r < 0.55:
            self.used.add("anykey")
            return ".*"
        if r < 0.64:
            self.used.add("indexarray")
            return "[%s]" % self.subscript()
        if r < 0.70:
            self.used.add("any")
            return self.r.choice([".**", ".**{2}", ".**{1 to 2}", ".**{last}", ".**{0}",
                                  ".**{1 to last}", ".**{0 to 1}"])
        if r < 0.80 and depth > 0:
            self.used.add("filter")
            return " ? (%s)" % self.pred(depth - 1, True)
        return self.method()

    def path(self, depth, in_filter=False, start=None):
        if start is None:
            r = self.r.random()
            if in_filter and (r < 0.6 or not self.root_in_filters):
                start = "@"
                self.used.add("current")
            elif r < 0.88:
                start = "$"
                self.used.add("root")
            else:
                start = self.r.choice(["$x", "$z", "$o", "$y", "$d", "$n", "$big", "$dup"])
                self.used.add("variable")
        s = start
        for _ in range(self.r.choice([0, 1, 1, 2, 2, 3, 4])):
            s += self.step(depth, in_filter)
        return s

    def expr(self, depth, in_filter):
        r = self.r.random()
        if depth <= 0 or r < 0.55:
            return self.path(depth, in_filter)
        if r < 0.7:
            return self.literal()
        if r < 0.9:
            op, name = self.r.choice([("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "div"), ("%", "mod")])
            self.used.add(name)
            return "(%s %s %s)" % (self.expr(depth - 1, in_filter), op, self.expr(depth - 1, in_filter))
        op, name = self.r.choice([("-", "minus"), ("+", "plus")])
        self.used.add(name)
        return "%s%s" % (op, self.r.choice([self.path(depth - 1, in_filter), "(%s)" % self.expr(depth - 1, in_filter)]))

    def pred(self, depth, in_filter):
        r = self.r.random()
        if r < 0.45 or depth <= 0:
            op, name = self.r.choice([("==", "equal"), ("!=", "notequal"), ("<>", "notequal"),
                                      ("<", "less"), (">", "greater"), ("<=", "lessorequal"),
                                      (">=", "greaterorequal")])
            self.used.add(name)
            return "%s %s %s" % (self.expr(depth, in_filter), op,
                                 self.literal() if self.r.random() < 0.6 else self.expr(depth, in_filter))
        if r < 0.55:
            self.used.add("and")
            return "%s && %s" % (self.pred(depth - 1, in_filter), self.pred(depth - 1, in_filter))
        if r < 0.65:
            self.used.add("or")
            return "%s || %s" % (self.pred(depth - 1, in_filter), self.pred(depth - 1, in_filter))
        if r < 0.7:
            self.used.add("not")
            return "!(%s)" % self.pred(depth - 1, in_filter)
        if r < 0.75:
            self.used.add("isunknown")
            return "(%s) is unknown" % self.pred(depth - 1, in_filter)
        if r < 0.85:
            self.used.add("exists")
            return "exists (%s)" % self.path(depth - 1, in_filter)
        if r < 0.92:
            self.used.add("startswith")
            return "%s starts with %s" % (self.path(depth - 1, in_filter),
                                          self.r.choice(['"a"', '""', '"x"', '"2020"', "$y"]))
        self.used.add("likeregex")
        return '%s like_regex %s%s' % (self.path(depth - 1, in_filter),
                                       self.r.choice(['"^a"', '"b.*c"', '"^[0-9]+$"', '"X"', '"a|x"', '"^$"']),
                                       self.r.choice(["", "", ' flag "i"', ' flag "s"', ' flag "x"',
                                                      ' flag "q"', ' flag "m"', ' flag "iq"']))

    def expression(self):
        """(text, item types used): a path, an arithmetic expression or a predicate."""
        self.used = set()
        r = self.r.random()
        if r < 0.55:
            e = self.path(2)
        elif r < 0.7:
            e = self.expr(2, False)
        else:
            e = self.pred(2, False)
        return e, self.used


# The vars objects the expressions run with ($dup: a duplicated key, the last one operative).
VARS = '{"x": 1, "y": "a", "z": [1, 2, {"a": 3}], "o": {"a": 1, "b": [2, {"c": true}]}, ' \
       '"n": null, "d": "2020-05-01", "big": 1e30, "dup": 1, "dup": "last"}'
