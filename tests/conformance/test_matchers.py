#!/usr/bin/env python3
# test_matchers.py: unit tests of the conformance runner's value comparison
# (matchers.py).  Each matcher of ../shared/conformance/README.md is checked
# on a value it must accept and on one it must reject; failures must name the
# JSON path of the difference.
#
# Usage: python3 tests/conformance/test_matchers.py

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from matchers import Context, Mismatch, match, parse_property_path  # noqa: E402


def ok(exp, act, ctx=None):
    match(exp, act, "$", ctx or Context("/p"))


def bad(test, exp, act, ctx=None, path=None):
    with test.assertRaises(Mismatch) as cm:
        match(exp, act, "$", ctx or Context("/p"))
    if path is not None:
        test.assertEqual(cm.exception.path, path)


class Plain(unittest.TestCase):
    def test_numbers_are_doubles(self):
        ok(42, 42.0)
        ok(1.7976931348623157e+308, int("1797693134862315708145274237317043567980705675258449965989174768"
                                        "0315726078002853876058955863276687817154045895351438246423432132"
                                        "6889464182768467546703537516986049910576551282076245490090389328"
                                        "9440758685084551339423045832369032229481658085593321233482747978"
                                        "26204144723168738177180919299881250404026184124858368"))
        bad(self, 1, 2)
        bad(self, 1, True)
        bad(self, True, 1)

    def test_objects_are_exact(self):
        ok({"a": 1, "b": [1, "x"]}, {"b": [1, "x"], "a": 1})
        bad(self, {"a": 1}, {"a": 1, "b": 2}, path="$.b")
        bad(self, {"a": 1, "b": 2}, {"a": 1}, path="$.b")
        bad(self, {"a": [1, 2]}, {"a": [1, 3]}, path="$.a[1]")
        bad(self, {"a.b": 1}, {"a.b": 2}, path='$["a.b"]')

    def test_wrappers(self):
        ok({"secret": {"a": 1}}, {"secret": {"a": 1}})
        bad(self, {"secret": 1}, 1)
        bad(self, 1, {"secret": 1})
        ok({"unknown": True}, {"unknown": True})
        bad(self, {"unknown": True}, "x")
        ok({"resource_ref": {"urn": "u", "id": "i"}}, {"resource_ref": {"id": "i", "urn": "u"}})


class Matchers(unittest.TestCase):
    def test_one_of(self):
        ok({"$one_of": [1, {"secret": 1}]}, {"secret": 1})
        bad(self, {"$one_of": [1, 2]}, 3)

    def test_json(self):
        ok({"$json": {"a": [1, 2]}}, '{ "a" : [1,2.0] }')
        bad(self, {"$json": {"a": 1}}, '{"a": 2}')
        bad(self, {"$json": 1}, 1)

    def test_path(self):
        with tempfile.TemporaryDirectory() as d:
            real = os.path.join(d, "real")
            os.mkdir(real)
            link = os.path.join(d, "link")
            os.symlink(real, link)
            ok({"$path": "<PROJECT_DIR>"}, real, Context(link))
            bad(self, {"$path": "<PROJECT_DIR>/sub"}, real, Context(link))

    def test_any_type_partial(self):
        ok({"a": {"$any": True}}, {"a": None})
        bad(self, {"a": {"$any": True}}, {}, path="$.a")
        ok({"$type": "string"}, "x")
        bad(self, {"$type": "string"}, 1)
        ok({"$partial": {"a": 1}}, {"a": 1, "b": 2})
        bad(self, {"$partial": {"a": 1}}, {"b": 2})

    def test_strings(self):
        ok({"$contains": "ell"}, "hello")
        bad(self, {"$contains": "x"}, "hello")
        ok({"$prefix": "he"}, "hello")
        bad(self, {"$prefix": "lo"}, "hello")
        ok({"$repeat": {"text": "ab", "count": 3}}, "ababab")
        bad(self, {"$repeat": {"text": "ab", "count": 3}}, "abab")
        ok({"$bytes_base64": "AP8="}, b"\x00\xff".decode("utf-8", "surrogateescape"))
        bad(self, {"$bytes_base64": "AP8="}, "\x00\ufffd")

    def test_logic(self):
        ok({"$not": 1}, 2)
        bad(self, {"$not": 1}, 1)
        ok({"$all": [{"$prefix": "a"}, {"$contains": "c"}]}, "abc")
        bad(self, {"$all": [{"$prefix": "a"}, {"$contains": "d"}]}, "abc")

    def test_lists(self):
        ok({"$len": 2}, [1, 1])
        bad(self, {"$len": 2}, [1])
        ok({"$set": [1, {"$type": "string"}, 1]}, ["x", 1, 1])
        bad(self, {"$set": [1, 1, 2]}, [1, 2, 2])
        ok({"$contains_item": "b"}, ["a", "b"])
        bad(self, {"$contains_item": "c"}, ["a", "b"])
        ok({"$all_empty": True}, {"a": [], "b": []})
        bad(self, {"$all_empty": True}, {"a": ["u"]})

    def test_secret_unknown(self):
        ok({"$has_secret": {"a": [1, 2]}}, {"a": [1, {"secret": 2}]})
        bad(self, {"$has_secret": {"$any": True}}, {"a": 1})
        bad(self, {"$has_secret": {"a": 1}}, {"a": {"secret": 2}})
        ok({"$has_unknown": True}, [{"x": {"unknown": True}}])
        bad(self, {"$has_unknown": True}, [1])
        ok({"a": {"$absent_or_unknown": True}}, {})
        ok({"a": {"$absent_or_unknown": True}}, {"a": {"unknown": True}})
        bad(self, {"a": {"$absent_or_unknown": True}}, {"a": 1})

    def test_generators(self):
        ok({"$nest": {"key": "next", "depth": 2, "leaf": {"value": "x"}}},
           {"next": {"next": {"value": "x"}}})
        bad(self, {"$nest": {"key": "next", "depth": 2, "leaf": 1}}, {"next": 1})

    def test_paths(self):
        self.assertEqual(parse_property_path('a.b[0]["c.d"][*]'), ["a", "b", 0, "c.d", "*"])
        ok({"$glob_paths": [["a", 0], ["b", "c"]]}, ["a[0]", 'b["c"]'])
        bad(self, {"$glob_paths": [["a", 1]]}, ["a[0]"])

    def test_resources(self):
        res = [{"type": "pulumi:providers:simple", "urn": "urn:p"},
               {"type": "simple:index:Resource", "urn": "urn:r"}]
        ctx = Context("/p", res, lambda n: {"a": "urn:p"}[n])
        ok({"$urn_of": {"type": "pulumi:providers:simple"}}, "urn:p", ctx)
        bad(self, {"$urn_of": {"type": "pulumi:providers:simple"}}, "urn:r", ctx)
        ok({"$same_as": "a"}, "urn:p", ctx)
        bad(self, {"$same_as": "a"}, "urn:r", ctx)
        ok({"$same_as_inputs": True}, {"v": 1}, ctx.with_inputs({"v": 1}))
        bad(self, {"$same_as_inputs": True}, {"v": 2}, ctx.with_inputs({"v": 1}))
        ok({"$gte": 1}, 3)
        bad(self, {"$gte": 4}, 3)

    def test_unknown_matcher_fails(self):
        bad(self, {"$nonsense": 1}, 1)


if __name__ == "__main__":
    unittest.main()
