#!/usr/bin/env python3
# test_progfuzz.py: unit tests of the program generator's models against the
# specification's own examples and test vectors (number formatting and
# arithmetic of DECISIONS.md D3, conversion and unification tables of
# types.md §18, strip markers and flush heredocs of syntax.md, graphemes,
# toJSON escaping), of the comparison of outputs, and of the generator's
# determinism.  A model that drifts from the specification would make the
# fuzzer report pclc bugs that are not there, or miss real ones.
#
# Usage: python3 tests/fuzz/test_progfuzz.py

import os
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from progfuzz import compare as C  # noqa: E402
from progfuzz import exprgen as X  # noqa: E402
from progfuzz import proggen  # noqa: E402
from progfuzz import ptypes as T  # noqa: E402
from progfuzz import source as S  # noqa: E402
from progfuzz import values as V  # noqa: E402


class Numbers(unittest.TestCase):
    def test_format(self):
        self.assertEqual(V.fmt_number(1e21), "1000000000000000000000")
        self.assertEqual(V.fmt_number(0.1 + 0.2), "0.30000000000000004")
        self.assertEqual(V.fmt_number(1e-7), "0.0000001")
        self.assertEqual(V.fmt_number(2.0), "2")
        self.assertEqual(V.fmt_number(-123.456), "-123.456")
        with self.assertRaises(V.Ambiguous):
            V.fmt_number(-0.0)

    def test_arithmetic(self):
        self.assertEqual(V.arith("/", 5, 2), 2.5)
        self.assertEqual(V.arith("%", -7, 3), -1)
        self.assertEqual(V.arith("%", 7.5, 2), 1.5)
        self.assertEqual(V.arith("+", 2 ** 70, 1), 2 ** 70 + 1)
        # Mixed int and number: the exact value rounded once (D3), so 2^53 + 1
        # plus 0.5 is 2^53 + 2, not 2^53 + 0.5 rounded to 2^53.
        self.assertEqual(V.arith("+", 2 ** 53 + 1, 0.5), float(2 ** 53 + 2))
        self.assertEqual(V.arith("/", 1, 3), 1 / 3)
        with self.assertRaises(V.EvalError):
            V.arith("%", 5, 0)
        with self.assertRaises(V.EvalError):
            V.arith("+", "abc", 1)
        self.assertIsInstance(V.arith("+", "12", 1), V.AmbNum)
        self.assertTrue(V.compare("<", 2 ** 53 + 1, float(2 ** 53 + 2)))
        self.assertTrue(V.equal(1, 1.0))
        self.assertFalse(V.equal(1, "1"))

    def test_conversions(self):
        self.assertEqual(V.to_string(2.5), "2.5")
        self.assertEqual(V.to_string(True), "true")
        self.assertEqual(V.convert("true", "bool"), True)
        self.assertEqual(V.convert(5, "string"), "5")
        self.assertEqual(V.convert(5, "number"), V.AmbNum(5))
        with self.assertRaises(V.EvalError):
            V.to_int(2.5)


class Strings(unittest.TestCase):
    def test_graphemes(self):
        self.assertEqual(V.graphemes(V.nfc("e\u0301")), 1)
        self.assertEqual(V.graphemes("q\u0301x"), 2)
        self.assertEqual(V.graphemes("\r\n"), 1)
        self.assertEqual(V.graphemes("\u2028\u0301"), 2)
        self.assertEqual(V.graphemes("😀中"), 2)

    def test_json(self):
        self.assertEqual(V.to_json({"b": [1, 2.5, "<&>"], "a": None, "c": True}),
                         '{"a":null,"b":[1,2.5,"\\u003c\\u0026\\u003e"],"c":true}')
        self.assertEqual(V.to_json("\u2028\x01\"\n"), '"\\u2028\\u0001\\"\\n"')

    def test_split_and_base64(self):
        self.assertEqual(V.split(",", "a,,b"), ["a", "", "b"])
        self.assertEqual(V.split(",", ""), [""])
        self.assertEqual(V.split("", ""), [])
        self.assertEqual(V.from_base64(V.to_base64("héllo")), "héllo")
        with self.assertRaises(V.EvalError):
            V.from_base64("!!!!")

    def test_element(self):
        self.assertEqual(V.element(["a", "b", "c"], 4), "b")
        self.assertEqual(V.element(["a", "b", "c"], -1), "c")
        with self.assertRaises(V.EvalError):
            V.element([], 0)


class Secrets(unittest.TestCase):
    def test_rules(self):
        self.assertEqual(C.diff(V.mark(3, V.Secret(1), 2), C.loads('{"secret": 3}')), [])
        self.assertEqual(C.diff(V.unsecret(V.Secret([V.Secret(1)])), C.loads('[{"secret": 1}]')),
                         [])
        nested = V.through_engine([V.Secret(1), 2])
        self.assertEqual(C.diff(nested, C.loads('[{"secret": 1}, 2]')), [])
        self.assertEqual(C.diff(nested, C.loads('{"secret": [1, 2]}')), [])
        self.assertNotEqual(C.diff(nested, C.loads('[1, 2]')), [])


class Types(unittest.TestCase):
    """Rows of types.md §18.1 (conversion kinds) and §18.2 (unification)."""

    def test_conversion_rows(self):
        rows = [
            (T.INT, T.NUMBER, T.SAFE), (T.NUMBER, T.INT, T.UNSAFE), (T.BOOL, T.NUMBER, T.UNSAFE),
            (T.STRING, T.optional(T.STRING), T.SAFE), (T.optional(T.STRING), T.STRING, T.UNSAFE),
            (T.const("int", 42), T.NUMBER, T.SAFE), (T.STRING, T.const("string", "a"), T.UNSAFE),
            (T.tuple_of([T.STRING, T.INT]), T.list_of(T.STRING), T.SAFE),
            (T.tuple_of([T.STRING]), T.list_of(T.INT), T.UNSAFE),
            (T.tuple_of([T.STRING, T.list_of(T.STRING)]), T.list_of(T.STRING), T.NONE),
            (T.tuple_of([T.STRING, T.STRING]), T.tuple_of([T.STRING]), T.NONE),
            (T.object_of({"a": T.STRING, "b": T.INT}), T.map_of(T.STRING), T.SAFE),
            (T.map_of(T.STRING), T.object_of({"a": T.list_of(T.STRING)}), T.NONE),
            (T.object_of({"a": T.STRING}), T.object_of({"a": T.STRING, "b": T.INT}), T.NONE),
            (T.output(T.STRING), T.STRING, T.NONE), (T.INT, T.output(T.STRING), T.SAFE),
            (T.list_of(T.output(T.STRING)), T.output(T.list_of(T.STRING)), T.NONE),
            (T.DYN, T.STRING, T.UNSAFE), (T.union([T.INT, T.STRING]), T.STRING, T.SAFE),
        ]
        for src, dst, kind in rows:
            with self.subTest(src=src, dst=dst):
                self.assertEqual(T.conv(dst, src), kind)

    def test_unification_rows(self):
        def u(a, b):
            return T.unify_types([a, b])
        opt = T.optional
        rows = [
            (T.INT, T.NUMBER, T.NUMBER), (T.INT, T.STRING, T.STRING),
            (T.BOOL, T.NUMBER, T.union([T.BOOL, T.NUMBER])), (T.STRING, T.NONE_T, opt(T.STRING)),
            (T.const("int", 1), T.const("int", 2), T.union([T.const("int", 1), T.const("int", 2)])),
            (T.const("int", 1), T.INT, T.INT),
            (T.list_of(T.STRING), T.tuple_of([T.STRING, T.STRING]), T.list_of(T.STRING)),
            (T.tuple_of([T.INT]), T.tuple_of([T.NUMBER, T.BOOL]),
             T.tuple_of([T.NUMBER, opt(T.BOOL)])),
            (T.map_of(T.STRING), T.object_of({"a": T.INT}), T.map_of(T.STRING)),
            (T.object_of({"a": T.STRING}), T.object_of({"b": T.INT}),
             T.object_of({"a": opt(T.STRING), "b": opt(T.INT)})),
            (T.list_of(T.STRING), T.map_of(T.STRING),
             T.union([T.list_of(T.STRING), T.map_of(T.STRING)])),
            (T.output(T.STRING), T.STRING, T.output(T.STRING)),
            (T.output(T.INT), T.output(T.NUMBER), T.output(T.NUMBER)),
        ]
        for a, b, want in rows:
            with self.subTest(a=a, b=b):
                self.assertEqual(u(a, b), want)

    def test_input_type(self):
        # types.md §12 (TestInputType) and its consequence for tuples.
        self.assertEqual(T.input_type(T.list_of(T.BOOL)),
                         T.union([T.list_of(T.union([T.BOOL, T.output(T.BOOL)])),
                                  T.output(T.list_of(T.BOOL))]))
        tup = T.tuple_of([T.STRING])
        self.assertEqual(T.conv(T.input_type(tup), T.tuple_of([T.output(T.STRING)])), T.NONE)
        self.assertEqual(T.conv(T.input_type(T.list_of(T.STRING)),
                                T.tuple_of([T.output(T.STRING)])), T.SAFE)

    def test_iteration(self):
        self.assertIsNone(T.collection_types(T.union([T.list_of(T.INT), T.tuple_of([T.STRING])])))
        self.assertEqual(T.collection_types(T.tuple_of([T.INT, T.NUMBER]))[1], T.NUMBER)

    def test_conforms(self):
        # An object with a computed key is typed a map of its values'
        # unified type, but keeps its values as they are.
        self.assertFalse(X.conforms({"68": True, "k": "x"}, T.map_of(T.STRING)))
        self.assertTrue(X.conforms({"k": "x"}, T.map_of(T.STRING)))
        self.assertTrue(X.conforms([1, None], T.list_of(T.NUMBER)))
        self.assertFalse(X.conforms([1.5], T.list_of(T.INT)))

    def test_absent_kinds(self):
        # An absent resource's attribute stands only where its kind fits.
        bm = T.output(T.optional(T.map_of(T.BOOL)))
        self.assertFalse(proggen.static_kind_fits(bm, "bool"))
        self.assertTrue(proggen.static_kind_fits(bm, "map"))
        self.assertTrue(proggen.static_kind_fits(T.output(T.optional(T.BOOL)), "bool"))
        self.assertTrue(proggen.static_kind_fits(T.output(T.DYN), "int"))

    def test_standing(self):
        # pclc's stand type: a config is eventual though its type is plain.
        cfg = T.standing(T.list_of(T.INT))
        self.assertEqual(cfg, T.list_of(T.INT))
        self.assertTrue(T.eventual_top(cfg))
        self.assertFalse(T.list_of(T.INT).stand)
        # Operations lift it; constructors keep it where it is.
        self.assertTrue(T.lift(T.INT, cfg).stand)
        self.assertEqual(T.lift(T.INT, cfg, T.output(T.INT)), T.output(T.INT))
        tup = T.tuple_of([T.standing(T.INT), T.STRING])
        self.assertFalse(tup.stand)
        self.assertTrue(T.contains_stand(tup))
        self.assertTrue(T.lift(T.STRING, tup).stand)
        # Traversal keeps the container's; iterating over a standing list
        # gives plain elements (the loop is an apply), over a tuple holding a
        # standing element a standing element.
        self.assertTrue(T.traverse(cfg, ("index", 0)).stand)
        self.assertFalse(T.collection_types(cfg)[1].stand)
        self.assertTrue(T.collection_types(tup)[1].stand)


class Templates(unittest.TestCase):
    class Const:
        def __init__(self, v, text="x"):
            self.v, self.text = v, text

        def fn(self, env):
            return self.v

    def value(self, parts, heredoc):
        return "".join(S.evaluate(parts, None, heredoc).pieces)

    def test_strip_markers(self):
        # syntax.md §3.2: only the adjacent literal token is stripped.
        parts = [S.Lit("a "), S.Interp(self.Const("b"), True, True), S.Lit(" c")]
        self.assertEqual(self.value(parts, False), "abc")
        # In a heredoc a line break ends a token: `${~` strips back to it.
        parts = [S.Lit("x\n  "), S.Interp(self.Const("y"), True, True), S.Lit("\nz\n")]
        self.assertEqual(self.value(parts, True), "x\nyz\n")

    def test_directive_strips(self):
        # The heredoc of `x\n  %{~ if true ~}\n  y\n  %{~ endif ~}\nz`.
        cond = self.Const(True)
        parts = [S.Lit("x\n  "),
                 S.If(cond, [S.Lit("\n  y\n  ")], None, (True, True, False, False, True, True)),
                 S.Lit("\nz\n")]
        self.assertEqual(self.value(parts, True), "x\n  y\nz\n")

    def test_flush(self):
        lines = [[S.Lit("    x "), S.Interp(self.Const(1)), S.Lit("\n")],
                 [S.Lit("\n")],
                 [S.Lit("      y\n")]]
        self.assertEqual(self.value(S.flush(lines), True), "x 1\n\n  y\n")
        lines.append([S.Interp(self.Const(2)), S.Lit(" z\n")])
        self.assertEqual(self.value(S.flush(lines), True), "    x 1\n\n      y\n2 z\n")


class Comparison(unittest.TestCase):
    def test_numbers_exact(self):
        self.assertEqual(C.diff(2 ** 70, C.loads(str(2 ** 70))), [])
        self.assertNotEqual(C.diff(2 ** 70, C.loads("1180591620717411303424.0")), [])
        self.assertNotEqual(C.diff(1e21, C.loads("1e21")), [])
        self.assertEqual(C.diff(1e21, C.loads("1000000000000000000000")), [])
        self.assertNotEqual(C.diff(True, C.loads("1")), [])

    def test_secrets(self):
        self.assertNotEqual(C.diff("a", C.loads('{"secret": "a"}')), [])
        self.assertNotEqual(C.diff(V.Secret("a"), C.loads('"a"')), [])
        self.assertNotEqual(C.diff(V.SecretSW([1]), C.loads("[1]")), [])
        self.assertEqual(C.diff(V.SecretUnspec([1]), C.loads('[{"secret": 1}]')), [])

    def test_round_trip(self):
        v = {"a": [V.Secret(2 ** 70), 2.5], "b": V.SecretSW({"c": "x"})}
        back = C.from_json(C.loads(C.dumps(v)))
        self.assertEqual(C.diff(back, C.loads('{"a": [{"secret": 1180591620717411303424}, 2.5],'
                                              ' "b": {"c": {"secret": "x"}}}')), [])


class Generator(unittest.TestCase):
    def test_deterministic(self):
        for seed in (1, 7, 42):
            a, b = proggen.generate(seed), proggen.generate(seed)
            self.assertEqual(a.files, b.files)
            self.assertEqual(a.args, b.args)
            self.assertEqual(C.dumps(a.outputs), C.dumps(b.outputs))

    def test_independent_of_hash_seed(self):
        """A seed names one program whatever Python's hash seed (set and
        dict iteration must not reach the output)."""
        code = ("import sys; sys.dont_write_bytecode = True; sys.path.insert(0, %r)\n"
                "from progfuzz import proggen, compare\n"
                "for s in (5, 77, 123):\n"
                "    p = proggen.generate(s)\n"
                "    print(sorted(p.files.items()), p.args, compare.dumps(p.outputs))\n"
                % os.path.dirname(os.path.realpath(__file__)))
        outs = set()
        for h in ("1", "2"):
            env = dict(os.environ, PYTHONHASHSEED=h)
            outs.add(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                    capture_output=True, text=True).stdout)
        self.assertEqual(len(outs), 1)

    def test_declaration_name(self):
        self.assertEqual(proggen.declaration_name("my-component"), "MyComponent")
        self.assertEqual(proggen.declaration_name("web.server2"), "WebServer2")


if __name__ == "__main__":
    unittest.main(verbosity=1)
