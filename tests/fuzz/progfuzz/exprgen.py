# exprgen.py: random PCL expressions that type-check, with their values.
#
# An expression is an E: its source text, its precedence (for parentheses),
# its static type (ptypes.Ty), a function fn(env) computing its value under
# an environment, and vals, its values under every environment of the
# context it was made in.  An environment (Env) holds the instance it runs in
# (the program, or one instance of a component) and the variables bound by
# enclosing for expressions, template directives and resource `range`s.  A
# context (Ctx) is the list of environments an expression will be evaluated
# in (one per iteration of the enclosing loops and per component instance)
# plus the names in scope, so an expression inside `[for x in xs : ...]` is
# checked against every element of xs.
#
# Generation asks for a value kind ("want"): 'bool', 'int' (exact ints),
# 'num' (ints or numbers), 'string', 'prim' (any of those), 'list', 'map' or
# 'any'.  A production builds a candidate and evaluates it in every
# environment; a candidate whose value the specification does not pin down
# (values.Ambiguous), that fails where it must not (values.EvalError), or
# that has the wrong kind is rejected (Reject) and another production is
# tried.  gen_failing makes expressions that type-check but fail at run time,
# for try(), can(), untaken conditional branches and the non-deciding side of
# && and ||.

from . import ptypes as T
from . import source as S
from . import values as V

# Precedence levels, loosest first.
P_COND, P_OR, P_AND, P_EQ, P_CMP, P_ADD, P_MUL, P_UNARY, P_POST, P_PRIMARY = range(1, 11)

WANTS = ("bool", "int", "num", "string", "prim", "list", "map", "any")

# Keys the generator never uses in maps: the snapshot encoding reads a
# one-entry map with one of them as a wrapper (docs/snapshot.md).
RESERVED_KEYS = {"secret", "unknown", "asset", "archive", "resource_ref"}

KEYWORDS = {"for", "in", "if", "true", "false", "null", "endfor", "endif", "else"}


# The values computed while an apply is evaluated (see ExprGen.make): a stack
# of lists, one per apply being evaluated.
TRACE = []


def traced(fn):
    """fn, recording each value it computes in the innermost TRACE list."""
    def t(env):
        v = fn(env)
        if TRACE:
            TRACE[-1].append(v)
        return v
    return t


def applied(fn):
    """fn as an apply: its value's secretness is not pinned down when a
    secret was computed while evaluating it but is not at the top of the
    value (see ExprGen.make)."""
    def a(env):
        TRACE.append([])
        try:
            v = fn(env)
        finally:
            seen = TRACE.pop()
        if V.top(v)[0] not in V.TOP_SECRET and any(V.secrecy(x) != "no" for x in seen + [v]):
            return V.SecretUnspec(V.strip(v))
        return v
    return a


class Reject(Exception):
    """The candidate expression cannot be used; try another."""


class Fail:
    """The value of an expression that fails in one environment."""
    __slots__ = ("msg",)

    def __init__(self, msg):
        self.msg = msg

    def __repr__(self):
        return f"Fail({self.msg!r})"


class Inst:
    """An instance expressions are evaluated in: the program itself or one
    instance of a component.  config: the values of its config variables;
    prefix: the prefix of its resources' names ('' or '<component>-');
    parent_type: the qualified type of its parent component, or None."""

    def __init__(self, ident, config, prefix, parent_type):
        self.ident = ident
        self.config = config
        self.prefix = prefix
        self.parent_type = parent_type


class Env:
    """An environment: the instance and the bound variables."""
    __slots__ = ("inst", "vars")

    def __init__(self, inst, vars=None):
        self.inst = inst
        self.vars = vars or {}

    def bind(self, kv):
        d = dict(self.vars)
        d.update(kv)
        return Env(self.inst, d)


class E:
    __slots__ = ("text", "prec", "ty", "fn", "vals")

    def __init__(self, text, prec, ty, fn, vals):
        self.text, self.prec, self.ty, self.fn, self.vals = text, prec, ty, fn, vals

    def ok(self):
        return not any(isinstance(v, Fail) for v in self.vals)


class Binding:
    """A name in scope.  kind: 'var' (a loop or range variable), 'def' (a
    config or local), 'resource', 'component' or 'invoke'.  fn(env) gives
    its value; `info` holds what resource and component references need."""

    def __init__(self, name, kind, ty, fn, info=None):
        self.name, self.kind, self.ty, self.fn, self.info = name, kind, ty, fn, info


class Ctx:
    """Where an expression is made: envs, the environments it will be
    evaluated in; scope, name -> Binding."""

    def __init__(self, envs, scope):
        self.envs = envs
        self.scope = scope

    def with_vars(self, envs, bindings):
        scope = dict(self.scope)
        for b in bindings:
            scope[b.name] = b
        return Ctx(envs, scope)


# ------------------------------------------------------------------ kinds

def vkind(v):
    """The value kind of v for the wants ('null', 'bool', 'int', 'num',
    'string', 'list', 'map'), looking through secrets."""
    _, inner = V.top(v)
    k = V.kind(inner)
    if k in ("number", "amb"):
        return "num"
    return k


def kinds(e):
    """The set of value kinds of e over its environments."""
    return {vkind(v) for v in e.vals if not isinstance(v, Fail)}


def fits(e, want):
    """Whether e's values and static type give what want asks for."""
    ks = kinds(e)
    shape = T.shape(e.ty)
    if want == "any":
        return not ks & {"null", "asset"}
    if want == "null":
        return ks <= {"null"}
    if want in ("bool", "int", "num", "string", "prim"):
        if shape not in ("prim", "dyn"):
            return False
        if want == "prim":
            return ks <= {"bool", "int", "num", "string"}
        if want == "num":
            return ks <= {"int", "num"}
        return ks <= {want}
    if want == "list":
        return shape in ("list", "tuple", "dyn") and ks <= {"list"}
    if want == "map":
        return shape in ("map", "object", "dyn") and ks <= {"map"}
    raise ValueError(want)


def paren(e, level):
    """e's text, parenthesised when its precedence is below level."""
    if e.prec < level:
        return "(" + e.text + ")"
    return e.text


def ident_ok(name):
    """Whether name can be written bare as an attribute or object key."""
    if not name or name in KEYWORDS:
        return False
    if not (name[0].isalpha() or name[0] == "_"):
        return False
    return all(c.isalnum() or c in "_-" for c in name) and name.isascii()


class ExprGen:
    """The expression generator.  rng: a random.Random; program: the
    program generator (proggen.ProgramGen), which owns names, files and the
    run's constants (stack, project, organization, root directory)."""

    def __init__(self, rng, program):
        self.rng = rng
        self.program = program

    # ---------------------------------------------------------- making E

    def make(self, ctx, text, prec, ty, fn, may_fail=False):
        """The expression with its values in every environment of ctx, or
        Reject.

        An expression of an output type is an apply (lowering.md §2): every
        eventual value evaluated inside it is an argument, and the result is
        secret when one of them is, whether or not its value reaches the
        result; the interpreter only marks what a value is computed from, and
        an SDK output holding secrets below its top is secret as a whole
        (lowering.md §5).  So when such an expression touched a secret that
        the model does not put at the top of its value, whether the value is
        secret is not pinned down.  The same holds where pclc computes the
        value eventual though the checker's type is plain (ptypes.standing:
        configs, try(), can(), resources and what is lifted from them)."""
        fn = traced(applied(fn) if T.eventual_top(ty) else fn)
        vals = []
        for env in ctx.envs:
            try:
                v = fn(env)
            except V.EvalError as e:
                if not may_fail:
                    raise Reject(f"fails: {e}") from e
                v = Fail(str(e))
            except V.Ambiguous as e:
                raise Reject(f"ambiguous: {e}") from e
            vals.append(v)
        return E(text, prec, ty, fn, vals)

    def chance(self, p):
        return self.rng.random() < p

    # ------------------------------------------------------------ entry

    def gen(self, ctx, want, depth):
        """An expression of kind want that succeeds in every environment."""
        table = self.productions(want, depth)
        for _ in range(12):
            prod = self.pick(table)
            try:
                e = prod(ctx, want, depth)
            except Reject:
                continue
            if e.ok() and fits(e, want):
                return e
        return self.p_literal(ctx, want, depth)

    def pick(self, table):
        total = sum(w for w, _ in table)
        r = self.rng.random() * total
        for w, p in table:
            r -= w
            if r < 0:
                return p
        return table[-1][1]

    def productions(self, want, depth):
        leaf = [(6, self.p_literal), (8, self.p_ref)]
        if depth <= 0:
            return leaf
        common = [(3, self.p_cond), (2, self.p_try), (4, self.p_index), (1, self.p_paren),
                  (1, self.p_secret), (1, self.p_passthrough), (1, self.p_single_or_none),
                  (1, self.p_element), (1, self.p_lookup)]
        if want in ("int", "num"):
            return leaf + common + [(6, self.p_arith), (2, self.p_unary), (2, self.p_length),
                                    (2, self.p_minmax)]
        if want == "bool":
            return leaf + common + [(4, self.p_compare), (3, self.p_logic), (2, self.p_unary),
                                    (2, self.p_can)]
        if want == "string":
            return leaf + common + [(6, self.p_template), (2, self.p_heredoc),
                                    (1, self.p_join), (1, self.p_tojson), (2, self.p_encoding),
                                    (1, self.p_info), (1, self.p_file)]
        if want == "prim":
            return [(1, lambda c, w, d: self.gen(c, self.rng.choice(["bool", "int", "num", "string"]),
                                                 d))]
        if want == "list":
            return leaf + common + [(5, self.p_tuple), (5, self.p_for_list), (2, self.p_split),
                                    (2, self.p_range), (2, self.p_splat), (1, self.p_entries)]
        if want == "map":
            return leaf + common + [(6, self.p_object), (4, self.p_for_map)]
        return [(1, lambda c, w, d: self.gen(c, self.rng.choice(
            ["bool", "int", "num", "string", "string", "list", "map"]), d))]

    # --------------------------------------------------------- literals

    def int_literal(self):
        """(text, value) of an integer literal: plain, with a zero fraction
        or with an exponent; sometimes far beyond 64 bits."""
        r = self.rng.random()
        if r < 0.5:
            v = self.rng.randint(0, 100)
        elif r < 0.75:
            v = self.rng.randint(0, 2 ** 31)
        elif r < 0.9:
            v = self.rng.randint(2 ** 63, 2 ** 70)
        else:
            v = self.rng.randint(10 ** 20, 10 ** 40)
        form = self.rng.random()
        if form < 0.75 or v == 0:
            text = str(v)
        elif form < 0.88:
            text = f"{v}.{'0' * self.rng.randint(1, 3)}"
        else:
            digits = str(v).rstrip("0")
            exp = len(str(v)) - len(digits)
            if exp == 0:
                text = str(v)
            else:
                text = f"{digits}{self.rng.choice('eE')}{self.rng.choice(['', '+'])}{exp}"
        return text, v

    def number_literal(self):
        """(text, value) of a non-integral number literal."""
        forms = ["0.5", "3.14", "2.25", "0.1", "1e-3", "2.5E-1", "123.456", "0.30000000000000004",
                 "6.02e-2", "1.5", "99.99", "7.000001", "0.0625"]
        text = self.rng.choice(forms)
        return text, float(text)

    def string_text(self, safe=False, maxlen=8, constant=False):
        """Random literal text: ASCII, escapes, Unicode beyond the BMP, and
        sequences that are not in NFC.  safe: only characters a literal next
        to a strip marker may hold.  constant: the text is the whole value
        of a string literal or key."""
        if safe:
            alphabet = S.safe_literal_alphabet()
            return "".join(self.rng.choice(alphabet) for _ in range(self.rng.randint(1, maxlen)))
        pieces = ["a", "b", "z", "Q", "0", "7", " ", "-", "_", ".", ",", "/", ":", "é", "ü", "ß",
                  "中", "文", "😀", "🔥", "€", "ж", "Ω", "<", ">", "&", "\"", "\\", "\n", "\t",
                  "q\u0301", "\ufb01", "\u2028", "\x01", "\x7f", "$", "%", "${", "%{", "$5",
                  "100%", "'"]
        if not constant or "nfc-literal" not in self.program.avoid:
            pieces += ["e\u0301", "A\u030a", "\u212b", "c\u0327", "\u0344"]
        n = self.rng.randint(0, maxlen)
        return "".join(self.rng.choice(pieces) for _ in range(n))

    def p_literal(self, ctx, want, depth):
        """A literal of kind want (types.md §8): bools, ints of any size and form, numbers,
        strings with escapes, and small tuples and objects of literals."""
        w = want
        if w == "prim":
            w = self.rng.choice(["bool", "int", "num", "string"])
        if w == "any":
            w = self.rng.choice(["bool", "int", "num", "string", "list", "map"])
        if w == "bool":
            b = self.chance(0.5)
            return self.make(ctx, "true" if b else "false", P_PRIMARY, T.const("bool", b),
                             lambda env: b)
        if w == "int" or (w == "num" and self.chance(0.5)):
            text, v = self.int_literal()
            if self.chance(0.25) and v != 0:
                text, v = "-" + text, -v
                return self.make(ctx, text, P_UNARY, T.const("int", v), lambda env: v)
            return self.make(ctx, text, P_PRIMARY, T.const("int", v), lambda env: v)
        if w == "num":
            text, v = self.number_literal()
            if self.chance(0.25):
                text, v = "-" + text, -v
                return self.make(ctx, text, P_UNARY, T.const("number", v), lambda env: v)
            return self.make(ctx, text, P_PRIMARY, T.const("number", v), lambda env: v)
        if w == "string":
            raw = self.string_text(constant=True)
            val = V.nfc(raw)
            return self.make(ctx, S.quote(raw, self.rng), P_PRIMARY, T.STRING, lambda env: val)
        if w == "list":
            return self.p_tuple(ctx, "list", 0)
        if w == "map":
            return self.p_object(ctx, "map", 0)
        raise ValueError(want)

    def numeric_string(self, ctx):
        """A string literal holding a small number ("12", "-3", "2.5")."""
        if self.chance(0.6):
            text = str(self.rng.randint(-50, 50))
        else:
            text = self.rng.choice(["2.5", "0.25", "-1.5", "10.75"])
        return self.make(ctx, '"' + text + '"', P_PRIMARY, T.STRING, lambda env: text)

    # ------------------------------------------------------- references

    def p_ref(self, ctx, want, depth):
        """A reference to a variable, config or local in scope (`range.key` and
        `range.value` in a ranged block), or to a resource or component output."""
        cands = [b for b in ctx.scope.values() if b.kind in ("var", "def", "range")]
        self.rng.shuffle(cands)
        for b in cands[:6]:
            e = self.make_ref(ctx, b)
            if b.kind == "range":
                fields = [n for n, _ in b.ty.fs]
                name = self.rng.choice(fields)
                e = self.make(ctx, "range." + name, P_POST, T.traverse(b.ty, ("attr", name)),
                              lambda env, n=name: env.vars["range"][n])
            if fits(e, want):
                return e
        return self.p_resource_ref(ctx, want, depth)

    def make_ref(self, ctx, b):
        """The reference to binding b."""
        fn = b.fn
        return self.make(ctx, b.name, P_PRIMARY, b.ty, fn)

    def p_resource_ref(self, ctx, want, depth):
        """A resource, component or invoke output: r.value, r[0].id,
        c["k"].out, ...; the program generator knows their shapes."""
        return self.program.output_ref(ctx, want, self)

    def p_paren(self, ctx, want, depth):
        """A parenthesised expression."""
        e = self.gen(ctx, want, depth - 1)
        return E("(" + e.text + ")", P_PRIMARY, e.ty, e.fn, e.vals)

    def p_passthrough(self, ctx, want, depth):
        """"${e}": a template of one interpolation is e itself (syntax.md
        §3.3), not converted to a string."""
        e = self.gen(ctx, want, depth - 1)
        sl, sr = self.chance(0.2), self.chance(0.2)
        text = '"${' + ("~" if sl else "") + e.text + ("~" if sr else "") + '}"'
        return E(text, P_PRIMARY, e.ty, e.fn, e.vals)

    # -------------------------------------------------------- operators

    def p_unary(self, ctx, want, depth):
        """`!e` or `-e` (types.md §10)."""
        if want == "bool":
            a = self.bool_operand(ctx, depth)
            fn = lambda env, a=a: V.mark(not V.to_bool(V.strip(a.fn(env))), a.fn(env))
            return self.make(ctx, "!" + self.unary_operand(a), P_UNARY, T.lift(T.BOOL, a.ty), fn)
        a = self.gen(ctx, want, depth - 1)
        if T.shape(a.ty) != "prim":
            raise Reject("unary minus on a non-primitive")
        fn = lambda env, a=a: V.mark(V.negate(V.strip(a.fn(env))), a.fn(env))
        ty = T.lift(T.INT if int_like(a.ty) else T.NUMBER, a.ty)
        if a.ty.is_const() and a.ty.k in ("int", "number") and a.text[:1].isdigit():
            # `-` on a number literal is folded into the literal (types.md §8).
            ty = T.const(a.ty.k, -a.ty.const)
        return self.make(ctx, "-" + self.unary_operand(a), P_UNARY, ty, fn)

    def unary_operand(self, a):
        """a's text as the operand of a unary operator."""
        if a.prec < P_UNARY or a.text.startswith(("-", "!")):
            return "(" + a.text + ")"
        return a.text

    def operand(self, ctx, want, depth):
        """An arithmetic operand: mostly numbers, sometimes numeric strings
        (converted at run time, types.md §10)."""
        if want == "num" and self.chance(0.1):
            return self.numeric_string(ctx)
        e = self.gen(ctx, want, depth - 1)
        if T.shape(e.ty) != "prim":
            raise Reject("operand is not primitive")
        return e

    def binary(self, ctx, op, level, a, b, ty, fn):
        """a op b at precedence level, left associative."""
        text = paren(a, level) + " " + op + " " + paren(b, level + 1)
        return self.make(ctx, text, level, T.lift(ty, a.ty, b.ty), fn)

    def p_arith(self, ctx, want, depth):
        """a + b, a - b, a * b, a / b, a % b (D3)."""
        ops = ["+", "-", "*", "%"] if want == "int" else ["+", "-", "*", "/", "%"]
        op = self.rng.choice(ops)
        sub = "int" if want == "int" else ("num" if self.chance(0.7) else "int")
        a = self.operand(ctx, sub, depth)
        b = self.operand(ctx, sub, depth)

        def fn(env, a=a, b=b, op=op):
            x, y = a.fn(env), b.fn(env)
            return V.mark(V.arith(op, V.strip(x), V.strip(y)), x, y)
        level = P_MUL if op in "*/%" else P_ADD
        # int op int is int for + - * %, where a constant int counts (D3).
        ty = T.INT if op != "/" and int_like(a.ty) and int_like(b.ty) else T.NUMBER
        return self.binary(ctx, op, level, a, b, ty, fn)

    def p_compare(self, ctx, want, depth):
        """An ordering comparison of numbers, or == and != between primitives and null."""
        if self.chance(0.6):
            op = self.rng.choice(["<", "<=", ">", ">="])
            a, b = self.operand(ctx, "num", depth), self.operand(ctx, "num", depth)

            def fn(env, a=a, b=b, op=op):
                x, y = a.fn(env), b.fn(env)
                return V.mark(V.compare(op, V.strip(x), V.strip(y)), x, y)
            return self.binary(ctx, op, P_CMP, a, b, T.BOOL, fn)
        op = self.rng.choice(["==", "!="])
        if self.chance(0.15):
            a = self.maybe_null(ctx, depth)
            b = self.gen(ctx, "prim", depth - 1) if self.chance(0.3) else \
                self.make(ctx, "null", P_PRIMARY, T.const("none", None), lambda env: None)
            if self.chance(0.5):
                a, b = b, a

            def fn(env, a=a, b=b, op=op):
                x, y = a.fn(env), b.fn(env)
                r = V.equal(V.strip(x), V.strip(y))
                return V.mark(r if op == "==" else not r, x, y)
            return self.binary(ctx, op, P_EQ, a, b, T.BOOL, fn)
        k = self.rng.choice(["bool", "int", "num", "string", "string"])
        a = self.gen(ctx, k, depth - 1)
        b = self.gen(ctx, k if self.chance(0.8) else self.rng.choice(["bool", "int", "string"]),
                     depth - 1)
        if T.shape(a.ty) != "prim" or T.shape(b.ty) != "prim":
            raise Reject("== on non-primitives")

        def fn(env, a=a, b=b, op=op):
            x, y = a.fn(env), b.fn(env)
            r = V.equal(V.strip(x), V.strip(y))
            return V.mark(r if op == "==" else not r, x, y)
        return self.binary(ctx, op, P_EQ, a, b, T.BOOL, fn)

    def maybe_null(self, ctx, depth):
        """An expression whose value is null (or sometimes not): a property
        left out of an optionalprimitive resource, singleOrNone of an empty
        list, or a primitive."""
        r = self.rng.random()
        if r < 0.4:
            try:
                return self.program.output_ref(ctx, "null", self)
            except Reject:
                pass
        if r < 0.7:
            item = self.gen(ctx, "prim", depth - 2)
            var = self.program.fresh_var()
            text = f"singleOrNone([for {var} in [{item.text}] : {var} if false])"
            # The list is built (and its element computed) though the
            # condition drops it.
            return self.make(ctx, text, P_POST, T.lift(T.optional(item.ty), item.ty),
                             lambda env, item=item: [item.fn(env)] and None)
        return self.gen(ctx, "prim", depth - 1)

    def bool_operand(self, ctx, depth):
        """A bool, or sometimes the string "true" or "false" (converted, types.md
        §4.5)."""
        if self.chance(0.1) and "string-bool-operand" not in self.program.avoid:
            b = self.chance(0.5)
            text = "true" if b else "false"
            return self.make(ctx, '"' + text + '"', P_PRIMARY, T.STRING, lambda env, t=text: t)
        return self.gen(ctx, "bool", depth - 1)

    def p_logic(self, ctx, want, depth):
        """a && b or a || b, sometimes with a failing side that does not decide."""
        op = self.rng.choice(["&&", "||"])
        level = P_AND if op == "&&" else P_OR
        a = self.bool_operand(ctx, depth)
        # The side that does not decide may fail (types.md §10): false && X,
        # true || X.
        decides = [V.to_bool(V.strip(v)) == (op == "||") for v in a.vals]
        if a.vals and all(decides) and self.chance(0.35):
            b = self.gen_failing(ctx, "bool", depth - 1)
        else:
            b = self.bool_operand(ctx, depth)
        if self.chance(0.5):
            a, b = b, a

        def fn(env, a=a, b=b, op=op):
            sides = []
            for s in (a, b):
                try:
                    sides.append(s.fn(env))
                except V.EvalError as e:
                    sides.append(Fail(str(e)))
            decider = op == "||"
            for i, v in enumerate(sides):
                if not isinstance(v, Fail) and V.to_bool(V.strip(v)) == decider:
                    other = sides[1 - i]
                    if not isinstance(other, Fail) and V.to_bool(V.strip(other)) == decider:
                        return V.mark(decider, *sides)
                    if not isinstance(other, Fail):
                        V.to_bool(V.strip(other))
                    r = V.mark(decider, v)
                    if V.secrecy(r) == "no" and not isinstance(other, Fail) and \
                            V.secrecy(other) != "no":
                        return V.SecretUnspec(decider)
                    return r
            for v in sides:
                if isinstance(v, Fail):
                    raise V.EvalError(v.msg)
            return V.mark(not decider, *sides)
        return self.binary(ctx, op, level, a, b, T.BOOL, fn)

    # ------------------------------------------------------ conditionals

    def p_cond(self, ctx, want, depth):
        """c ? a : b; only the chosen branch runs (D10), so the other may fail."""
        c = self.bool_operand(ctx, depth)
        conds = {V.to_bool(V.strip(v)) for v in c.vals}
        a = self.gen(ctx, want, depth - 1)
        if len(conds) == 1 and self.chance(0.3):
            b = self.gen_failing(ctx, want, depth - 1)
        else:
            b = self.gen(ctx, want, depth - 1)
        if self.chance(0.5):
            a, b = b, a
            c = self.negated(ctx, c)

        def fn(env, c=c, a=a, b=b):
            cv = c.fn(env)
            chosen, other = (a, b) if V.to_bool(V.strip(cv)) else (b, a)
            v = self.unified_branch(chosen, other, env)
            state, _ = V.top(cv)
            if state in V.TOP_SECRET:
                return V.make_secret(v)
            if state != "no":
                return V.SecretUnspec(V.strip(v))
            return v
        unified = T.unify_types([a.ty, b.ty])
        if "conditional-union-output" in self.program.avoid and unified.k == "union" and \
                any(m.k == "output" for m in unified.es):
            raise Reject("branches unifying to a union with an output (known finding)")
        ty = T.lift(unified, c.ty)
        if a.ty.stand or b.ty.stand:
            # The chosen branch is the value as it stands.
            ty = T.standing(ty)
        text = paren(c, P_OR) + " ? " + paren(a, P_OR) + " : " + paren(b, P_COND)
        return self.make(ctx, text, P_COND, ty, fn)

    def unified_branch(self, chosen, other, env):
        """The value of the chosen branch of a conditional, converted to the
        type both branches unify to (types.md §10: `c ? 1 : "a"` is "1").

        The reference unifies the run-time types of both branch values;
        pclc evaluates only the chosen branch (D10) and converts it to the
        branches' unified static type.  The result is pinned down where the
        two agree: no conversion, an int becoming a number, or a number or
        bool becoming a string when the other branch is a string."""
        v = chosen.fn(env)
        target = T.strip_output(T.unify_types([chosen.ty, other.ty]))
        mine = T.strip_output(chosen.ty)
        try:
            w = other.fn(env)
        except V.EvalError:
            w = Fail("")
        if not converts(target, mine):
            if not conforms(v, target):
                # The static type is not the value's (an object with computed
                # keys is typed a map of its values' unified type, but keeps
                # each value as it is): pclc converts a constructor branch to
                # the target, the reference's run-time unification need not.
                raise V.Ambiguous("a branch value that is not of its static type")
            if isinstance(w, Fail) or compatible(signature(v), signature(w)):
                return v
            raise V.Ambiguous("branch values of different types")
        if target.k == "number" and mine.k == "int":
            return V.convert(v, "number")
        if target.k == "string" and mine.k in T.PRIMS and not isinstance(w, Fail) and \
                signature(w) == "string" and signature(v) in ("num", "bool"):
            state, inner = V.top(v)
            return V.rewrap(state, V.to_string(inner)) if state != "no" else V.to_string(inner)
        raise V.Ambiguous("the static and the run-time unification disagree")

    def negated(self, ctx, c):
        """!c."""
        fn = lambda env, c=c: V.mark(not V.to_bool(V.strip(c.fn(env))), c.fn(env))
        return self.make(ctx, "!" + self.unary_operand(c), P_UNARY, c.ty, fn)

    # ------------------------------------------------------- try and can

    def p_try(self, ctx, want, depth):
        """try() with failing alternatives before one that succeeds (functions.md §6)."""
        alts = [self.gen_failing(ctx, want, depth - 1) for _ in range(self.rng.randint(1, 2))]
        alts.append(self.gen(ctx, want, depth - 1))
        if self.chance(0.2):
            alts.append(self.gen_failing(ctx, want, depth - 1) if self.chance(0.5)
                        else self.gen(ctx, want, depth - 1))
        if self.chance(0.3):
            self.rng.shuffle(alts)

        def fn(env, alts=alts):
            errors = []
            for a in alts:
                try:
                    return a.fn(env)
                except V.EvalError as e:
                    errors.append(str(e))
            raise V.EvalError("no expression succeeded: " + "; ".join(errors))
        types = [a.ty for a in alts]
        ty = T.unify_types(types)
        if any(T.strip_output(t).k == "dyn" for t in types):
            ty = T.output(T.DYN)
        elif any(T.contains_output(t) for t in types):
            ty = T.output(ty)
        # pclc tries the alternatives lazily, in the run loop.
        ty = T.standing(ty)
        return self.make(ctx, "try(" + ", ".join(a.text for a in alts) + ")", P_POST, ty, fn)

    def p_can(self, ctx, want, depth):
        """can() of an expression that fails or succeeds (functions.md §6)."""
        if self.chance(0.5):
            a = self.gen_failing(ctx, self.rng.choice(WANTS[:-1]), depth - 1)
        else:
            a = self.gen(ctx, self.rng.choice(WANTS[:-1]), depth - 1)

        def fn(env, a=a):
            try:
                v = a.fn(env)
            except V.EvalError:
                return False
            state, inner = V.top(v)
            if state in V.TOP_SECRET:
                return V.Secret(True)
            if state != "no" or V.secrecy(v) != "no":
                return V.SecretUnspec(True)
            return True
        ty = T.BOOL
        if T.contains_output(a.ty) or T.strip_output(a.ty).k == "dyn":
            ty = T.output(T.BOOL)
        # pclc runs the argument lazily, in the run loop.
        return self.make(ctx, "can(" + a.text + ")", P_POST, T.standing(ty), fn)

    # ---------------------------------------------------------- secrets

    def p_secret(self, ctx, want, depth):
        """secret(e) or unsecret(e) (functions.md §5)."""
        a = self.gen(ctx, want, depth - 1)
        if self.chance(0.6):
            fn = lambda env, a=a: V.make_secret(a.fn(env))
            return self.make(ctx, "secret(" + a.text + ")", P_POST, T.output(a.ty), fn)
        fn = lambda env, a=a: V.unsecret(a.fn(env))
        return self.make(ctx, "unsecret(" + a.text + ")", P_POST, T.output(a.ty), fn)

    # -------------------------------------------------------- templates

    def p_template(self, ctx, want, depth):
        """A quoted template with literals, interpolations and directives."""
        parts = self.template_parts(ctx, depth, heredoc=False)
        if all(isinstance(p, S.Lit) for p in parts) and "nfc-literal" in self.program.avoid:
            parts = [S.Lit(V.nfc(p.text)) for p in parts]
        acc_fn = self.template_fn(parts, heredoc=False)
        if len(parts) == 1 and isinstance(parts[0], S.Interp):
            raise Reject("a single interpolation is a pass-through")
        if not any(isinstance(p, S.Lit) for p in parts) and \
                sum(1 for p in parts if not isinstance(p, S.Lit)) < 2:
            raise Reject("template without literal text")
        ty = T.lift(T.STRING, *[e.ty for e in S.expressions(parts)])
        return self.make(ctx, S.render_quoted(parts, self.rng), P_PRIMARY, ty, acc_fn)

    def template_fn(self, parts, heredoc):
        """The value of a template of parts: its text in NFC, secret when a consumed value
        is."""
        def fn(env, parts=parts):
            acc = S.evaluate(parts, env, heredoc)
            return V.mark(V.nfc("".join(acc.pieces)), *acc.consumed)
        return fn

    def template_parts(self, ctx, depth, heredoc, lead=None, trail=None):
        """A list of template parts: literals, interpolations and
        directives.  lead and trail: the strip flag of the directive marker
        just before and after the parts (None when there is none)."""
        parts = []
        for i in range(self.rng.randint(1, 4)):
            r = self.rng.random()
            if r < 0.4:
                parts.append(S.Lit(self.string_text(maxlen=5) if not heredoc else
                                   self.heredoc_text()))
            elif r < 0.75 or depth <= 1:
                e = self.gen(ctx, "prim", depth - 1)
                parts.append(S.Interp(e, self.chance(0.15), self.chance(0.15)))
            elif r < 0.88:
                parts.append(self.if_directive(ctx, depth, heredoc))
            else:
                parts.append(self.for_directive(ctx, depth, heredoc))
        return self.sanitize_parts(parts, heredoc, lead, trail)

    def heredoc_text(self):
        """Random literal text for a heredoc line (no backslash escapes there)."""
        pieces = ["a", "b", "x", " ", "  ", "\n", "é", "中", "😀", "e\u0301", "$", "%", "${", "%{",
                  "\t", "q", "-", "\\n", "\""]
        return "".join(self.rng.choice(pieces) for _ in range(self.rng.randint(1, 6)))

    def sanitize_parts(self, parts, heredoc, lead=None, trail=None):
        """Merges adjacent literals, drops empty ones, and keeps the text the
        lexer would read differently away from markers: a literal may not
        end with `$` or `%` before a sequence, and a literal next to a strip
        marker holds only characters safe there (no lone `$` or `%`, which
        would be tokens of their own, syntax.md §2.8).  lead and trail: as
        for template_parts."""
        merged = []
        for p in parts:
            if isinstance(p, S.Lit) and merged and isinstance(merged[-1], S.Lit):
                merged[-1] = S.Lit(merged[-1].text + p.text)
            elif isinstance(p, S.Lit) and p.text == "":
                continue
            else:
                merged.append(p)
        out = []
        for i, p in enumerate(merged):
            if not isinstance(p, S.Lit):
                out.append(p)
                continue
            text = p.text
            prev = merged[i - 1] if i > 0 else None
            nxt = merged[i + 1] if i + 1 < len(merged) else None
            strip_before = S._closes_strip(prev) if prev is not None else bool(lead)
            strip_after = S._opens_strip(nxt) if nxt is not None else bool(trail)
            sequence_after = nxt is not None or trail is not None
            if strip_before or strip_after:
                text = "".join(c for c in text if c not in "$%\\\"\x01\x7f\u2028")
            if sequence_after and text.endswith(("$", "%")):
                text += "."
            if text.endswith("$$") or text.endswith("%%"):
                text += "."
            if text:
                out.append(S.Lit(text))
        return out

    def directive_strips(self, n):
        """n random strip-marker flags."""
        return tuple(self.chance(0.25) for _ in range(n))

    def if_directive(self, ctx, depth, heredoc):
        """%{if}...%{else}...%{endif} with random strip markers."""
        c = self.gen(ctx, "bool", depth - 2)
        strips = self.directive_strips(6)
        has_else = self.chance(0.6)
        then = self.template_parts(ctx, depth - 1, heredoc, strips[1],
                                   strips[2] if has_else else strips[4])
        els = self.template_parts(ctx, depth - 1, heredoc, strips[3], strips[4]) if has_else \
            else None
        return S.If(c, then, els, strips)

    def for_directive(self, ctx, depth, heredoc):
        """%{for}...%{endfor} over a list or map."""
        coll = self.gen(ctx, self.rng.choice(["list", "map"]), depth - 2)
        ct = T.collection_types(coll.ty)
        if ct is None:
            raise Reject("not iterable")
        kt, vt, _ = ct
        keyname = self.program.fresh_var() if self.chance(0.5) else None
        valname = self.program.fresh_var()
        if "for-secret" in self.program.avoid and \
                any(V.secrecy(V.top(v)[1]) != "no" for v in coll.vals):
            raise Reject("%{for} over secret elements (known finding)")
        envs, binds = self.loop_envs(ctx, coll, keyname, valname, kt, vt)
        strips = self.directive_strips(4)
        body = self.template_parts(ctx.with_vars(envs, binds), depth - 1, heredoc, strips[1],
                                   strips[2])
        return S.For(keyname, valname, coll, body, strips)

    def loop_envs(self, ctx, coll, keyname, valname, kt, vt):
        """The environments of a loop body over coll, and the bindings of its
        variables (types.md §7)."""
        envs = []
        for env, cv in zip(ctx.envs, coll.vals):
            state, inner = V.top(cv)
            if type(inner) not in (list, dict):
                raise Reject("iterating over a non-collection")
            for k, v in S.iterate(inner):
                kv = {valname: V.rewrap(state, v)}
                if keyname is not None:
                    kv[keyname] = k
                envs.append(env.bind(kv))
        binds = [Binding(valname, "var", vt, lambda env, n=valname: env.vars[n])]
        if keyname is not None:
            binds.append(Binding(keyname, "var", kt, lambda env, n=keyname: env.vars[n]))
        return envs, binds

    def p_heredoc(self, ctx, want, depth):
        """A heredoc in parentheses, so that the line break after its closing
        marker is not read as the end of an attribute or object item."""
        e = self.heredoc(ctx, depth)
        return E("(" + e.text + ")", P_PRIMARY, e.ty, e.fn, e.vals)

    def heredoc(self, ctx, depth):
        """A heredoc (plain or flush); its text ends with a line break."""
        marker = self.rng.choice(["EOT", "END", "TEXT", "EOF_1"])
        if self.chance(0.4):
            return self.flush_heredoc(ctx, depth, marker)
        parts = self.template_parts(ctx, depth, heredoc=True)
        parts.append(S.Lit("\n"))
        parts = self.sanitize_parts(parts, True)
        if all(isinstance(p, S.Lit) for p in parts) and "nfc-literal" in self.program.avoid:
            parts = [S.Lit(V.nfc(p.text)) for p in parts]
        text = S.render_heredoc(parts, self.rng, marker, False)
        if any(line.strip() == marker for line in text.split("\n")[1:-2]):
            raise Reject("marker inside the heredoc")
        ty = T.lift(T.STRING, *[e.ty for e in S.expressions(parts)])
        return self.make(ctx, text, P_PRIMARY, ty, self.template_fn(parts, True))

    def flush_heredoc(self, ctx, depth, marker):
        """A flush heredoc (`<<-`) of indented lines of literals and interpolations."""
        lines = []
        for _ in range(self.rng.randint(1, 4)):
            if self.chance(0.15):
                lines.append([S.Lit(" " * self.rng.randint(0, 3) + "\n")])
                continue
            indent = " " * self.rng.randint(2, 6)
            line = []
            if self.chance(0.1):
                e = self.gen(ctx, "prim", depth - 1)
                line.append(S.Interp(e))
                line.append(S.Lit(" " + self.string_text(safe=True, maxlen=4) + "\n"))
            else:
                line.append(S.Lit(indent + self.string_text(safe=True, maxlen=4).lstrip()))
                if self.chance(0.5):
                    line.append(S.Interp(self.gen(ctx, "prim", depth - 1)))
                line.append(S.Lit(self.string_text(safe=True, maxlen=3) + "\n"))
            lines.append(self.merge_line(line))
        parts = S.flush(lines)
        flat_lines = [p for line in lines for p in line]
        text = S.render_heredoc(flat_lines, self.rng, marker, True, indent="  ")
        ty = T.lift(T.STRING, *[e.ty for e in S.expressions(flat_lines)])
        return self.make(ctx, text, P_PRIMARY, ty, self.template_fn(parts, True))

    def merge_line(self, line):
        """A heredoc line with adjacent literals merged."""
        out = []
        for p in line:
            if isinstance(p, S.Lit) and out and isinstance(out[-1], S.Lit):
                out[-1] = S.Lit(out[-1].text + p.text)
            else:
                out.append(p)
        if isinstance(out[0], S.Lit) and out[0].text.strip(" ") == "":
            if len(out) > 1 and not isinstance(out[1], S.Lit):
                return out
        return out

    # ------------------------------------------------------ collections

    def p_tuple(self, ctx, want, depth):
        """A tuple constructor of 0 to 4 elements, of one kind or mixed."""
        n = self.rng.randint(0, 4)
        homo = self.chance(0.6)
        k = self.rng.choice(["bool", "int", "num", "string", "list", "map"] if depth > 1
                            else ["bool", "int", "num", "string"])
        items = []
        for _ in range(n):
            kk = k if homo else self.rng.choice(["bool", "int", "num", "string", "list", "map"]
                                                if depth > 1 else ["bool", "int", "string"])
            items.append(self.gen(ctx, kk, depth - 1))
        fn = lambda env, items=items: [i.fn(env) for i in items]
        sep = ", " if self.chance(0.8) else ",\n  "
        text = "[" + sep.join(i.text for i in items) + ("," if items and self.chance(0.1) else "") + "]"
        return self.make(ctx, text, P_PRIMARY, T.tuple_of([i.ty for i in items]), fn)

    def map_key(self):
        """A literal object key: (source text, key)."""
        r = self.rng.random()
        if r < 0.5:
            k = self.program.fresh_key()
            return k, k
        if r < 0.85:
            raw = self.string_text(maxlen=5, constant=True) or "k"
            return S.quote(raw, self.rng), V.nfc(raw)
        if r < 0.95:
            n = self.rng.randint(0, 99)
            return str(n), str(n)
        b = self.rng.choice(["true", "false"])
        return b, b

    def p_object(self, ctx, want, depth):
        """An object constructor with literal keys (identifiers, strings, numbers, bools)
        and computed keys ((e) and "${e}")."""
        n = self.rng.randint(0, 4)
        keys, items, computed = [], [], False
        homo = self.chance(0.5)
        k0 = self.rng.choice(["bool", "int", "num", "string"])
        for _ in range(n):
            if depth > 1 and self.chance(0.2):
                ke = self.gen(ctx, self.rng.choice(["string", "string", "int"]), depth - 2)
                if self.chance(0.5):
                    ktext = "(" + ke.text + ")"
                else:
                    ktext = '"${' + ke.text + '}"'
                computed = True
                keys.append((ktext, ke))
            else:
                ktext, key = self.map_key()
                keys.append((ktext, key))
            kk = k0 if homo else self.rng.choice(["bool", "int", "num", "string", "list", "map"]
                                                 if depth > 1 else ["bool", "int", "string"])
            items.append(self.gen(ctx, kk, depth - 1))

        def fn(env, keys=keys, items=items):
            out, consumed = {}, []
            for (_, k), it in zip(keys, items):
                if isinstance(k, E):
                    kv = k.fn(env)
                    consumed.append(kv)
                    kname = V.to_string(V.strip(kv))
                else:
                    kname = k
                if kname in RESERVED_KEYS:
                    raise V.Ambiguous("reserved key")
                # A later duplicate key wins (syntax.md §5.7).
                out.pop(kname, None)
                out[kname] = it.fn(env)
            if any(V.secrecy(c) != "no" for c in consumed):
                return V.mark(out, *consumed)
            return out
        if computed:
            ty = T.map_of(T.unify_types([i.ty for i in items]) if items else T.DYN)
            ty = T.lift(ty, *[k.ty for _, k in keys if isinstance(k, E)])
        else:
            ty = T.object_of({k: i.ty for (_, k), i in zip(keys, items)})
        sep = self.rng.choice([", ", "\n  "])
        eq = self.rng.choice([" = ", " : ", "="])
        body = sep.join(kt + eq + i.text for (kt, _), i in zip(keys, items))
        text = "{" + (body if sep == ", " else "\n  " + body + "\n") + "}" if items else "{}"
        return self.make(ctx, text, P_PRIMARY, ty, fn)

    def collection(self, ctx, depth, kind=None):
        """A collection to iterate or index: a list or map value."""
        e = self.gen(ctx, kind or self.rng.choice(["list", "list", "map"]), depth)
        if T.collection_types(e.ty) is None:
            raise Reject("not iterable")
        return e

    def p_for_list(self, ctx, want, depth):
        """[for k, v in coll : body if cond] over a list or map."""
        coll = self.collection(ctx, depth - 1)
        kt, vt, _ = T.collection_types(coll.ty)
        keyname = self.program.fresh_var() if self.chance(0.4) else None
        valname = self.program.fresh_var()
        envs, binds = self.loop_envs(ctx, coll, keyname, valname, kt, vt)
        inner = ctx.with_vars(envs, binds)
        body = self.gen(inner, self.rng.choice(["bool", "int", "num", "string", "string", "list", "map"]),
                        depth - 1)
        cond = self.gen(inner, "bool", depth - 2) if self.chance(0.4) else None
        fn = self.for_fn(coll, keyname, valname, body, cond, None, False)
        names = valname if keyname is None else f"{keyname}, {valname}"
        text = f"[for {names} in {coll.text} : {body.text}" + \
            (f" if {cond.text}" if cond else "") + "]"
        ty = for_type(T.list_of(body.ty), coll, cond)
        return self.make(ctx, text, P_PRIMARY, ty, fn)

    def for_fn(self, coll, keyname, valname, body, cond, keyexpr, group):
        """The value of a for expression.  A secret condition or object key
        makes the whole result secret (the reference marks the collection,
        lowering.md §5); when the key or condition is eventual but none of
        its values was secret, whether the result is secret is not pinned
        down (the lifted type makes the whole for one apply)."""
        lifted = any(x is not None and (T.contains_output(x.ty) or T.contains_stand(x.ty) or
                                        T.strip_output(x.ty).k == "dyn")
                     for x in (keyexpr, cond))

        def fn(env):
            cv = coll.fn(env)
            state, inner = V.top(cv)
            if type(inner) not in (list, dict):
                raise V.EvalError("cannot iterate")
            out_list, out_map, cond_secret, key_secret = [], {}, "no", "no"
            for k, v in S.iterate(inner):
                kv = {valname: V.rewrap(state, v)}
                if keyname is not None:
                    kv[keyname] = k
                env2 = env.bind(kv)
                if cond is not None:
                    c = cond.fn(env2)
                    s = V.secrecy(c)
                    if s == "yes" or (s == "maybe" and cond_secret == "no"):
                        cond_secret = s
                    if not V.to_bool(V.strip(c)):
                        continue
                val = body.fn(env2)
                if keyexpr is None:
                    out_list.append(val)
                    continue
                kval = keyexpr.fn(env2)
                key_secret = max(key_secret, V.secrecy(kval), key=("no", "maybe", "yes").index)
                kname = V.to_string(V.strip(kval))
                if kname in RESERVED_KEYS:
                    raise V.Ambiguous("reserved key")
                if group:
                    out_map.setdefault(kname, []).append(val)
                elif kname in out_map:
                    raise V.EvalError(f"duplicate object key {kname!r}")
                else:
                    out_map[kname] = val
            result = V.rewrap(state, out_list if keyexpr is None else out_map)
            if cond_secret == "yes" or key_secret == "yes":
                return V.make_secret(result)
            if cond_secret == "maybe" or key_secret == "maybe" or lifted:
                return V.SecretUnspec(V.strip(result))
            return result
        return fn

    def p_for_map(self, ctx, want, depth):
        """{for k, v in coll : key => value if cond}, sometimes grouping with `...`."""
        coll = self.collection(ctx, depth - 1)
        if "for-secret" in self.program.avoid and \
                any(V.secrecy(V.top(v)[1]) != "no" for v in coll.vals):
            raise Reject("map for over secret elements (known finding)")
        kt, vt, _ = T.collection_types(coll.ty)
        keyname = self.program.fresh_var() if self.chance(0.7) else None
        valname = self.program.fresh_var()
        envs, binds = self.loop_envs(ctx, coll, keyname, valname, kt, vt)
        inner = ctx.with_vars(envs, binds)
        keyexpr = self.gen(inner, self.rng.choice(["string", "string", "int"]), depth - 1)
        body = self.gen(inner, self.rng.choice(["bool", "int", "num", "string", "list"]), depth - 1)
        cond = self.gen(inner, "bool", depth - 2) if self.chance(0.3) else None
        group = self.chance(0.3)
        fn = self.for_fn(coll, keyname, valname, body, cond, keyexpr, group)
        names = valname if keyname is None else f"{keyname}, {valname}"
        text = f"{{for {names} in {coll.text} : {keyexpr.text} => {body.text}" + \
            ("..." if group else "") + (f" if {cond.text}" if cond else "") + "}"
        vty = T.list_of(body.ty) if group else body.ty
        ty = for_type(T.map_of(vty), coll, cond, keyexpr)
        return self.make(ctx, text, P_PRIMARY, ty, fn)

    # -------------------------------------------------------- traversal

    def p_index(self, ctx, want, depth):
        """A traversal step (attribute or index) into a list, tuple, map or object."""
        base = self.gen(ctx, self.rng.choice(["list", "map"]), depth - 1)
        return self.step(ctx, base, want, depth)

    def step(self, ctx, base, want, depth):
        """One traversal step on base giving a value of kind want."""
        sh = T.shape(base.ty)
        vals = [V.top(v)[1] for v in base.vals]
        if sh == "tuple" or (sh == "dyn" and vals and all(type(v) is list for v in vals)):
            lens = {len(v) for v in vals}
            if sh == "tuple":
                n = len(T.strip_output(base.ty).es)
                lens = {n}
            if len(lens) != 1 or 0 in lens:
                raise Reject("no common index")
            i = self.rng.randrange(lens.pop())
            return self.index_expr(ctx, base, ("index", i), str(i), lambda env, i=i: i, want)
        if sh == "list":
            common = min((len(v) for v in vals), default=3)
            if common == 0:
                raise Reject("empty list")
            i = self.rng.randrange(common)
            if self.chance(0.3) and depth > 1:
                ie = self.gen(ctx, "int", depth - 2)
                if all(isinstance(x, int) and 0 <= x < common for x in
                       (V.strip(v) for v in ie.vals)):
                    return self.index_expr(ctx, base, ("key", None), ie.text, ie.fn, want, ie)
            return self.index_expr(ctx, base, ("index", i), str(i), lambda env, i=i: i, want)
        if sh == "object":
            fields = [n for n, _ in T.strip_output(base.ty).fs]
            if not fields:
                raise Reject("empty object")
            name = self.rng.choice(fields)
            if ident_ok(name) and self.chance(0.7):
                return self.index_expr(ctx, base, ("attr", name), "." + name, lambda env, n=name: n,
                                       want)
            return self.index_expr(ctx, base, ("attr", name), S.quote(name, self.rng),
                                   lambda env, n=name: n, want)
        if sh in ("map", "dyn"):
            common = None
            for v in vals:
                if type(v) is not dict:
                    raise Reject("not a map")
                common = set(v) if common is None else common & set(v)
            if not common:
                raise Reject("no common key")
            name = self.rng.choice(sorted(common))
            if ident_ok(name) and self.chance(0.5):
                return self.index_expr(ctx, base, ("attr", name), "." + name, lambda env, n=name: n,
                                       want)
            return self.index_expr(ctx, base, ("key", None), S.quote(name, self.rng),
                                   lambda env, n=name: n, want)
        raise Reject("not traversable")

    def index_expr(self, ctx, base, step, keytext, keyfn, want, keyexpr=None):
        """base's step, if the checker takes it and it gives a value of kind want."""
        ty = T.traverse(base.ty, step)
        if ty is None:
            raise Reject("the checker refuses this step")
        if keyexpr is not None and keyexpr.ty.stand:
            ty = T.standing(ty)
        text = paren(base, P_POST) + (keytext if keytext.startswith(".") else "[" + keytext + "]")

        def fn(env, base=base, keyfn=keyfn, keyexpr=keyexpr):
            return index_value(base.fn(env), keyfn(env) if keyexpr is None else keyexpr.fn(env))
        e = self.make(ctx, text, P_POST, ty, fn)
        if not fits(e, want):
            raise Reject("step gives another kind")
        return e

    def p_splat(self, ctx, want, depth):
        """base[*].attr or base.*.attr over a list of objects."""
        base = self.gen(ctx, "list", depth - 1)
        vals = [V.top(v)[1] for v in base.vals]
        sh = T.shape(base.ty)
        ct = T.collection_types(base.ty)
        if ct is None:
            raise Reject("no splat source")
        et = ct[1]
        if sh == "tuple" and T.shape(et) not in ("object", "map"):
            raise Reject("tuple of mixed elements")
        elems = [x for v in vals for x in v]
        if not elems or not all(type(V.top(x)[1]) is dict for x in elems):
            raise Reject("no objects to splat")
        common = None
        for x in elems:
            common = set(V.top(x)[1]) if common is None else common & set(V.top(x)[1])
        if T.shape(et) == "object":
            common &= {n for n, _ in T.strip_output(et).fs}
        common = sorted(n for n in common if ident_ok(n))
        if not common:
            raise Reject("no common attribute")
        name = self.rng.choice(common)
        ety = T.traverse(et, ("attr", name))
        if ety is None:
            raise Reject("the checker refuses the attribute")
        form = self.rng.choice(["[*]", ".*"])
        text = "(" + paren(base, P_POST) + form + "." + name + ")"

        def fn(env, base=base, name=name):
            state, inner = V.top(base.fn(env))
            return V.rewrap(state, [index_value(x, name) for x in inner])
        ty = T.list_of(ety)
        return self.make(ctx, text, P_PRIMARY, T.standing(ty) if base.ty.stand else ty, fn)

    # -------------------------------------------------------- functions

    def call(self, ctx, name, args, ty, fn):
        """name(args)."""
        text = name + "(" + ", ".join(a.text for a in args) + ")"
        return self.make(ctx, text, P_POST, ty, fn)

    def p_length(self, ctx, want, depth):
        """length() of a string (grapheme clusters) or a collection."""
        a = self.gen(ctx, self.rng.choice(["string", "list", "map"]), depth - 1)
        if T.shape(a.ty) == "opaque":
            raise Reject("length of an opaque value")

        def fn(env, a=a):
            v = a.fn(env)
            state, inner = V.top(v)
            n = V.length(V.strip(inner))
            if state in V.TOP_SECRET:
                return V.Secret(n)
            if V.secrecy(v) != "no":
                return V.SecretUnspec(n)
            return n
        return self.call(ctx, "length", [a], T.lift(T.INT, a.ty), fn)

    def p_minmax(self, ctx, want, depth):
        """min() or max() of numbers, or of a list expanded with `...`."""
        name = self.rng.choice(["min", "max"])
        if self.chance(0.25):
            lst = self.gen(ctx, "list", depth - 1)
            if not all(kinds_of_elements(v) <= {"int", "num"} and V.strip(v) for v in lst.vals):
                raise Reject("not a list of numbers")
            if lst.ty.k not in ("list", "tuple"):
                raise Reject("only a list or tuple type is expanded (types.md §11)")

            def fn(env, lst=lst, name=name):
                v = lst.fn(env)
                return V.mark(V.minmax(name, V.strip(v)), v)
            ety = T.collection_types(lst.ty)[1]
            if T.shape(ety) != "prim":
                raise Reject("elements not primitive")
            elems = list(lst.ty.es) if lst.ty.k == "tuple" else [ety]
            return self.make(ctx, f"{name}({lst.text}...)", P_POST,
                             T.lift(minmax_type(elems), lst.ty), fn)
        args = [self.operand(ctx, want if want == "int" else "num", depth)
                for _ in range(self.rng.randint(1, 3))]

        def fn(env, args=args, name=name):
            vs = [a.fn(env) for a in args]
            return V.mark(V.minmax(name, [V.strip(x) for x in vs]), *vs)
        return self.call(ctx, name, args,
                         T.lift(minmax_type([a.ty for a in args]), *[a.ty for a in args]), fn)

    def p_element(self, ctx, want, depth):
        """element(list, index): the index wraps around (functions.md §2)."""
        lst = self.gen(ctx, "list", depth - 1)
        sh = T.shape(lst.ty)
        if sh == "tuple":
            es = T.strip_output(lst.ty).es
            if not es or any(x != es[0] for x in es):
                raise Reject("element over a tuple of different types")
            ety = es[0]
        elif sh == "list":
            ety = T.strip_output(lst.ty).e
        else:
            raise Reject("element needs a list or tuple")
        if T.contains_output(lst.ty):
            ety = T.output(ety)
        if self.chance(0.5):
            idx = self.gen(ctx, "int", depth - 2)
        else:
            r = self.rng.randint(-5, 9)
            idx = self.make(ctx, str(r), P_PRIMARY if r >= 0 else P_UNARY, T.const("int", r),
                            lambda env, r=r: r)
        if T.contains_stand(lst.ty) or T.contains_stand(idx.ty):
            ety = T.standing(ety)

        def fn(env, lst=lst, idx=idx):
            lv, iv = lst.fn(env), idx.fn(env)
            state, inner = V.top(lv)
            return picked(lv, V.element(inner, V.to_int(V.strip(iv))), iv)
        e = self.call(ctx, "element", [lst, idx], ety, fn)
        if not fits(e, want):
            raise Reject("element of another kind")
        return e

    def p_lookup(self, ctx, want, depth):
        """lookup(map, key, default) with a key that is there or not."""
        m = self.gen(ctx, "map", depth - 1)
        sh = T.shape(m.ty)
        if sh == "map":
            ety = T.strip_output(m.ty).e
        elif sh == "object":
            fs = T.strip_output(m.ty).fs
            if not fs or any(t != fs[0][1] for _, t in fs):
                raise Reject("lookup over an object of different types")
            ety = fs[0][1]
        else:
            raise Reject("lookup needs a map or object")
        k = want if want not in ("prim", "any") else "string"
        default = self.gen(ctx, k, depth - 2)
        if fractional_literal_to_int(default, T.optional(ety)):
            raise Reject("pclc rejects a fractional literal where only an int fits")
        if T.conv(T.input_type(T.optional(ety)), default.ty) == T.NONE:
            raise Reject("the default does not convert to the element type")
        # pclc lifts the result by an eventual default too (functions.md lifts
        # it by the map only); the generator follows the more eventual type.
        ety = T.lift(ety, default.ty)
        keys = [set(V.top(v)[1]) for v in m.vals]
        present = sorted(set.intersection(*keys)) if keys else []
        if present and self.chance(0.6):
            key = self.rng.choice(present)
        else:
            key = self.program.fresh_key()
        ke = self.make(ctx, S.quote(key, self.rng), P_PRIMARY, T.STRING, lambda env, key=key: key)

        def fn(env, m=m, ke=ke, default=default):
            mv = m.fn(env)
            state, inner = V.top(mv)
            kv = ke.fn(env)
            dv = default.fn(env)
            if kv in inner:
                return picked(mv, inner[kv], dv)
            return picked(mv, self.lookup_default(dv, sh, ety))
        if T.contains_output(m.ty):
            ety = T.output(ety)
        elif T.contains_stand(m.ty):
            ety = T.standing(ety)
        e = self.call(ctx, "lookup", [m, ke, default], ety, fn)
        if not fits(e, want):
            raise Reject("lookup of another kind")
        return e

    def lookup_default(self, dv, sh, ety):
        """The default of lookup() on a map converted to the element type
        (functions.md §2: "the default converted to the element type"); an
        object's default is taken as it is."""
        target = T.strip_output(ety).k
        if sh != "map" or target not in T.PRIMS:
            return dv
        state, inner = V.top(dv)
        kinds = {"bool": ("bool",), "string": ("string",), "int": ("int",),
                 "number": ("int", "number", "amb")}[target]
        if V.kind(inner) in kinds:
            return dv
        if "lookup-default-convert" in self.program.avoid:
            raise V.Ambiguous("default of another type (known finding)")
        return V.rewrap(state, V.convert(inner, target)) if state != "no" else V.convert(inner, target)

    def p_single_or_none(self, ctx, want, depth):
        """singleOrNone() of a one-element list."""
        item = self.gen(ctx, want, depth - 1)
        if self.chance(0.5):
            lst_text = "[" + item.text + "]"
        else:
            var = self.program.fresh_var()
            lst_text = f"[for {var} in [{item.text}] : {var}]"
        fn = lambda env, item=item: picked([item.fn(env)], item.fn(env))
        return self.make(ctx, "singleOrNone(" + lst_text + ")", P_POST,
                         T.lift(T.optional(item.ty), item.ty), fn)

    def p_join(self, ctx, want, depth):
        """join(separator, list of primitives)."""
        sep = self.gen(ctx, "string", depth - 2) if self.chance(0.3) else \
            self.p_literal(ctx, "string", 0)
        lst = self.gen(ctx, "list", depth - 1)
        ct = T.collection_types(lst.ty)
        if ct is None or T.shape(lst.ty) not in ("list", "tuple"):
            raise Reject("join needs a list")
        if T.shape(lst.ty) == "tuple":
            if any(T.shape(x) != "prim" for x in T.strip_output(lst.ty).es):
                raise Reject("join of non-primitives")
        elif T.shape(ct[1]) != "prim":
            raise Reject("join of non-primitives")

        def fn(env, sep=sep, lst=lst):
            s, lv = sep.fn(env), lst.fn(env)
            items = V.strip(lv)
            if any(x is None for x in items):
                raise V.EvalError("null element in join")
            return V.mark(V.nfc(V.strip(s).join(V.to_string(x) for x in items)), s, lv)
        return self.call(ctx, "join", [sep, lst], T.lift(T.STRING, sep.ty, lst.ty), fn)

    def p_split(self, ctx, want, depth):
        """split(separator, string) with Go semantics (an empty separator too)."""
        sep = self.rng.choice([",", "", "-", " ", "é", "ab"])
        sepe = self.make(ctx, S.quote(sep, self.rng), P_PRIMARY, T.STRING, lambda env, s=sep: s)
        s = self.gen(ctx, "string", depth - 1)

        def fn(env, s=s, sep=sep):
            sv = s.fn(env)
            return V.mark(V.split(sep, V.strip(sv)), sv)
        return self.call(ctx, "split", [sepe, s], T.lift(T.list_of(T.STRING), s.ty), fn)

    def p_range(self, ctx, want, depth):
        """range(n) or range(from, to)."""
        def small(lo, hi):
            r = self.rng.randint(lo, hi)
            return self.make(ctx, str(r) if r >= 0 else f"-{-r}", P_PRIMARY if r >= 0 else P_UNARY,
                             T.const("int", r), lambda env, r=r: r)
        if self.chance(0.4):
            args = [small(0, 5)]
        else:
            args = [small(-3, 4), small(-2, 7)]
        if depth > 1 and self.chance(0.3):
            e = self.gen(ctx, "int", depth - 2)
            if all(-10 <= V.strip(v) <= 10 for v in e.vals):
                args[-1] = e

        def fn(env, args=args):
            vs = [a.fn(env) for a in args]
            return V.mark(V.range_list(*[V.to_int(V.strip(x)) for x in vs]), *vs)
        return self.call(ctx, "range", args, T.lift(T.list_of(T.INT), *[a.ty for a in args]), fn)

    def p_entries(self, ctx, want, depth):
        """entries() of a map or object, in key order."""
        m = self.gen(ctx, "map", depth - 1)
        ct = T.collection_types(m.ty)
        if ct is None or T.shape(m.ty) not in ("map", "object"):
            raise Reject("entries needs a map")

        def fn(env, m=m):
            mv = m.fn(env)
            state, inner = V.top(mv)
            return picked(mv, [{"key": k, "value": inner[k]} for k in V.sorted_keys(inner)])
        ty = T.lift(T.list_of(T.object_of({"key": T.STRING, "value": ct[1]})), m.ty)
        return self.call(ctx, "entries", [m], ty, fn)

    def p_tojson(self, ctx, want, depth):
        """toJSON() of any value."""
        a = self.gen(ctx, self.rng.choice(["any", "list", "map"]), depth - 1)

        def fn(env, a=a):
            v = a.fn(env)
            # The JSON text is a string value like any other: in NFC (D9),
            # even where that joins an escape's letter to a combining mark.
            text = V.to_json(V.strip(v))
            return V.mark(V.nfc(text), v)
        return self.call(ctx, "toJSON", [a], T.lift(T.STRING, a.ty), fn)

    def p_encoding(self, ctx, want, depth):
        """toBase64, fromBase64 (of base64 text or of toBase64) or sha1."""
        name = self.rng.choice(["toBase64", "fromBase64", "sha1"])
        if name == "fromBase64":
            if self.chance(0.5):
                text = V.to_base64(self.string_text())
                a = self.make(ctx, S.quote(text, self.rng), P_PRIMARY, T.STRING, lambda env, t=text: t)
            else:
                inner = self.gen(ctx, "string", depth - 2)
                a = self.call(ctx, "toBase64", [inner], T.lift(T.STRING, inner.ty),
                              lambda env, i=inner: V.mark(V.to_base64(V.strip(i.fn(env))), i.fn(env)))
            fn = lambda env, a=a: V.mark(V.from_base64(V.strip(a.fn(env))), a.fn(env))
        else:
            a = self.gen(ctx, "string", depth - 1)
            op = V.to_base64 if name == "toBase64" else V.sha1_hex
            fn = lambda env, a=a, op=op: V.mark(op(V.to_string(V.strip(a.fn(env)))), a.fn(env))
        return self.call(ctx, name, [a], T.lift(T.STRING, a.ty), fn)

    def p_info(self, ctx, want, depth):
        """stack(), project(), organization() or rootDirectory()."""
        name = self.rng.choice(["stack", "project", "organization", "rootDirectory"])
        val = self.program.info(name)
        return self.call(ctx, name, [], T.STRING, lambda env, v=val: v)

    def p_file(self, ctx, want, depth):
        """readFile, filebase64 or filebase64sha256 of a data file next to the program."""
        path, data = self.program.data_file()
        name = self.rng.choice(["readFile", "filebase64", "filebase64sha256"])
        if name == "readFile":
            val = V.nfc(data.decode("utf-8"))
        elif name == "filebase64":
            val = V.file_base64(data)
        else:
            val = V.file_base64_sha256(data)
        arg = self.make(ctx, S.quote(path, self.rng), P_PRIMARY, T.STRING, lambda env, p=path: p)
        return self.call(ctx, name, [arg], T.STRING, lambda env, v=val: v)

    # ----------------------------------------------------------- assets

    def asset(self, ctx, depth):
        """An asset or archive constructor (functions.md §4), for outputs and
        `any` resource inputs only: stringAsset, fileAsset and fileArchive of
        files and a directory next to the program, remoteAsset,
        remoteArchive, and assetArchive of those."""
        r = self.rng.random()
        if r < 0.3:
            a = self.gen(ctx, "string", depth - 1)

            def fn(env, a=a):
                v = a.fn(env)
                text = V.strip(v)
                return V.mark(V.Asset({"asset": {"text": text, "hash": V.sha256_hex(text.encode())}}),
                              v)
            return self.call(ctx, "stringAsset", [a], T.lift(T.ASSET, a.ty), fn)
        if r < 0.5:
            path, data = self.program.data_file()
            arg = self.make(ctx, S.quote(path, self.rng), P_PRIMARY, T.STRING, lambda env, p=path: p)
            enc = {"asset": {"path": path, "hash": V.sha256_hex(data)}}
            return self.call(ctx, "fileAsset", [arg], T.ASSET, lambda env, e=enc: V.Asset(e))
        if r < 0.65:
            name, kind = self.rng.choice([("remoteAsset", "asset"), ("remoteArchive", "archive")])
            uri = self.rng.choice(["https://example.com/a.txt", "http://h/x?y=1", "file:///tmp/z"])
            arg = self.make(ctx, S.quote(uri, self.rng), P_PRIMARY, T.STRING, lambda env, u=uri: u)
            enc = {kind: {"uri": uri}}
            return self.call(ctx, name, [arg], T.ASSET, lambda env, e=enc: V.Asset(e))
        if r < 0.8:
            path = self.program.data_dir()
            arg = self.make(ctx, S.quote(path, self.rng), P_PRIMARY, T.STRING, lambda env, p=path: p)
            enc = {"archive": {"path": path, "hash": V.ANY_HASH}}
            return self.call(ctx, "fileArchive", [arg], T.ASSET, lambda env, e=enc: V.Asset(e))
        items = [(self.program.fresh_key() + self.rng.choice(["", ".txt", "/x"]),
                  self.asset(ctx, depth - 1)) for _ in range(self.rng.randint(0, 3))]
        text = "{" + ", ".join(f"{S.quote(k, self.rng)} = {e.text}" for k, e in items) + "}"

        def fn(env, items=items):
            vals = [e.fn(env) for _, e in items]
            assets = {k: V.strip(v).enc for (k, _), v in zip(items, vals)}
            enc = {"archive": {"assets": assets}}
            if not remote(assets):
                enc["archive"]["hash"] = V.ANY_HASH
            return V.mark(V.Asset(enc), *vals)
        return self.make(ctx, f"assetArchive({text})", P_POST,
                         T.lift(T.ASSET, *[e.ty for _, e in items]), fn)

    # ------------------------------------------------- failing expressions

    def gen_failing(self, ctx, want, depth):
        """An expression that type-checks, may stand where want is asked
        for, and fails at run time in at least one environment."""
        for _ in range(12):
            prod = self.pick(self.failing_productions(want))
            try:
                e = prod(ctx, want, max(depth, 1))
            except Reject:
                continue
            if not e.vals or any(isinstance(v, Fail) for v in e.vals):
                return e
        return self.fail_not_implemented(ctx, want, depth)

    def failing_productions(self, want):
        """The failing productions that can stand where want is asked for."""
        table = [(3, self.fail_not_implemented), (3, self.fail_index), (2, self.fail_missing_key),
                 (1, self.fail_single), (1, self.fail_element_empty), (2, self.fail_wrapped)]
        if want in ("int", "num", "prim", "any"):
            table += [(3, self.fail_div_zero), (2, self.fail_not_number)]
        if want in ("bool", "prim", "any"):
            table += [(2, self.fail_not_bool)]
        if want in ("string", "prim", "any"):
            table += [(2, self.fail_interp), (1, self.fail_base64)]
        table += [(2, self.fail_absent_resource)]
        if want in ("list", "any"):
            table += [(1, self.fail_range)]
        if want in ("map", "any") and "duplicate-key" not in self.program.avoid:
            table += [(1, self.fail_duplicate_key)]
        return table

    def failing(self, ctx, text, prec, ty, fn):
        """A failing candidate (its values may be Fail)."""
        return self.make(ctx, text, prec, ty, fn, may_fail=True)

    def fail_not_implemented(self, ctx, want, depth):
        """notImplemented(msg), which always fails."""
        msg = self.rng.choice(["not here", "fuzz", "nope"])

        def fn(env, msg=msg):
            raise V.EvalError(msg)
        return self.failing(ctx, f'notImplemented("{msg}")', P_POST, T.DYN, fn)

    def fail_absent_resource(self, ctx, want, depth):
        """A property of a resource whose bool `range` is false: the resource
        is null, and getting an attribute of null fails (types.md §6)."""
        return self.program.absent_ref(ctx, self, want)

    def fail_div_zero(self, ctx, want, depth):
        """An int divided by zero."""
        a = self.gen(ctx, "int", depth - 1)
        z = self.rng.choice(["0", "(1 - 1)", "0.0"])
        op = self.rng.choice(["%", "/"] if want != "int" else ["%"])

        def fn(env, a=a, op=op):
            return V.arith(op, V.strip(a.fn(env)), 0)
        ty = T.INT if op == "%" and int_like(a.ty) else T.NUMBER
        return self.failing(ctx, paren(a, P_MUL) + f" {op} {z}", P_MUL, T.lift(ty, a.ty), fn)

    def fail_not_number(self, ctx, want, depth):
        """A non-numeric string, or a bool, in arithmetic."""
        word = self.rng.choice(["abc", "x", "true"])
        if word == "true" and self.chance(0.5):
            text, bad = "true", True
        else:
            text, bad = '"' + word + '"', word
        b = self.gen(ctx, "int", depth - 1)

        def fn(env, b=b, bad=bad):
            return V.arith("+", bad, V.strip(b.fn(env)))
        return self.failing(ctx, f"{text} + {paren(b, P_MUL)}", P_ADD, T.lift(T.NUMBER, b.ty), fn)

    def fail_not_bool(self, ctx, want, depth):
        """! of a string that is not "true" or "false"."""
        word = self.rng.choice(["abc", "yes", "maybe"])

        def fn(env, word=word):
            return not V.to_bool(word)
        return self.failing(ctx, f'!"{word}"', P_UNARY, T.BOOL, fn)

    def fail_interp(self, ctx, want, depth):
        """A list or null interpolated in a template."""
        if self.chance(0.5):
            lst = self.p_tuple(ctx, "list", 0)

            def fn(env, lst=lst):
                return V.to_string(V.strip(lst.fn(env)))
            return self.failing(ctx, '"x${' + lst.text + '}"', P_PRIMARY, T.lift(T.STRING, lst.ty),
                                fn)

        def fn2(env):
            raise V.EvalError("null value in a template")
        return self.failing(ctx, '"x${null}"', P_PRIMARY, T.STRING, fn2)

    def fail_base64(self, ctx, want, depth):
        """fromBase64 of invalid base64."""
        bad = self.rng.choice(["!!!!", "abc", "a=b="])

        def fn(env, bad=bad):
            return V.from_base64(bad)
        return self.failing(ctx, f'fromBase64("{bad}")', P_POST, T.STRING, fn)

    def fail_range(self, ctx, want, depth):
        """range() of a fractional number computed at run time (pclc rejects
        a fractional literal where only an int fits at compile time)."""
        def fn(env):
            return V.range_list(V.to_int(2.5))
        return self.failing(ctx, "range(5 / 2)", P_POST, T.list_of(T.INT), fn)

    def fail_duplicate_key(self, ctx, want, depth):
        """An object for expression that produces one key twice."""
        k = self.program.fresh_key()
        text = f'{{for x in ["{k}", "{k}"] : x => 1}}'

        def fn(env):
            raise V.EvalError("duplicate object key")
        return self.failing(ctx, text, P_PRIMARY, T.map_of(T.const("int", 1)), fn)

    def fail_index(self, ctx, want, depth):
        """An index past the end of a list-typed value."""
        item = self.gen(ctx, want if want not in ("prim", "any") else "string", depth - 1)
        n = self.rng.randint(1, 3)
        i = self.rng.randint(n, n + 4)
        text = f"[for v in [{', '.join([item.text] * n)}] : v][{i}]"

        def fn(env, item=item, n=n, i=i):
            lst = [item.fn(env)] * n
            return index_value(lst, i)
        return self.failing(ctx, text, P_POST, item.ty, fn)

    def fail_missing_key(self, ctx, want, depth):
        """A key missing from a map-typed value."""
        item = self.gen(ctx, want if want not in ("prim", "any") else "int", depth - 1)
        k, missing = self.program.fresh_key(), self.program.fresh_key()
        text = f'{{for v in ["{k}"] : v => {item.text}}}["{missing}"]'
        if self.chance(0.5):
            text = f'{{for v in ["{k}"] : v => {item.text}}}.{missing}'

        def fn(env, item=item, k=k, missing=missing):
            return index_value({k: item.fn(env)}, missing)
        return self.failing(ctx, text, P_POST, item.ty, fn)

    def fail_single(self, ctx, want, depth):
        """singleOrNone of two elements."""
        item = self.gen(ctx, want if want not in ("prim", "any") else "int", depth - 1)
        text = f"singleOrNone([{item.text}, {item.text}])"

        def fn(env, item=item):
            return V.single_or_none([item.fn(env), item.fn(env)])
        return self.failing(ctx, text, P_POST, T.lift(T.optional(item.ty), item.ty), fn)

    def fail_element_empty(self, ctx, want, depth):
        """element of an empty list."""
        item = self.gen(ctx, want if want not in ("prim", "any") else "int", depth - 1)
        text = f"element([for v in [{item.text}] : v if false], 0)"

        def fn(env):
            return V.element([], 0)
        return self.failing(ctx, text, P_POST, T.lift(item.ty, item.ty), fn)

    def fail_wrapped(self, ctx, want, depth):
        """A failing expression inside a larger one that does not catch."""
        inner = self.gen_failing(ctx, "int" if want in ("int", "num") else want, depth - 1)
        if want in ("int", "num") and T.shape(inner.ty) in ("prim", "dyn"):
            b = self.gen(ctx, "int", depth - 1)

            def fn(env, inner=inner, b=b):
                return V.arith("+", V.strip(inner.fn(env)), V.strip(b.fn(env)))
            ty = T.INT if int_like(inner.ty) and int_like(b.ty) else T.NUMBER
            return self.failing(ctx, paren(inner, P_ADD) + " + " + paren(b, P_MUL), P_ADD,
                                T.lift(ty, inner.ty, b.ty), fn)
        if want == "string" and T.shape(inner.ty) in ("prim", "dyn"):
            def fn2(env, inner=inner):
                return V.nfc("<" + V.to_string(V.strip(inner.fn(env))) + ">")
            return self.failing(ctx, '"<${' + inner.text + '}>"', P_PRIMARY,
                                T.lift(T.STRING, inner.ty), fn2)
        if want == "list":
            def fn3(env, inner=inner):
                return [inner.fn(env)]
            return self.failing(ctx, "[" + inner.text + "]", P_PRIMARY, T.tuple_of([inner.ty]), fn3)
        raise Reject("no wrapper")


def remote(enc):
    """Whether an asset or archive encoding holds remote contents (then an
    archive has no hash, docs/snapshot.md)."""
    if type(enc) is dict:
        return "uri" in enc or any(remote(x) for x in enc.values())
    return False


def int_like(t):
    """Whether t is an int for the arithmetic rule of D3: int, a constant
    int or a union of those (as pclc reads it), outputs looked through."""
    t = T.resolve_outputs(t)
    if t.k == "union":
        return all(m.k == "int" for m in t.es)
    return t.k == "int"


def minmax_type(types):
    """The type of min and max: number when an argument is a number (a
    constant one too, D3), else int (functions.md §2)."""
    return T.NUMBER if any(T.resolve_outputs(t).k == "number" for t in types) else T.INT


def for_type(result, coll, *parts):
    """The type of a for expression (types.md §9): wrapped in the
    collection's output, and lifted by the key and condition."""
    if coll.ty.k == "output":
        result = T.output(result)
    elif coll.ty.stand:
        result = T.standing(result)
    return T.lift(result, *[p.ty for p in parts if p is not None])


def converts(target, mine):
    """Whether converting a value of static type mine to target may change
    it (beyond a constant becoming its type, or nothing at all)."""
    target, mine = T.strip_output(target), T.strip_output(mine)
    if target == mine or target.k == "dyn":
        return False
    if target.k in T.PRIMS and mine.k in T.PRIMS:
        return T.base(mine) != target
    if target.k == "list" and mine.k in ("list", "tuple"):
        return any(converts(target.e, f) for f in (mine.es if mine.k == "tuple" else [mine.e]))
    if target.k == "map" and mine.k in ("map", "object"):
        return any(converts(target.e, f) for f in ([f for _, f in mine.fs] if mine.k == "object"
                                                   else [mine.e]))
    if target.k == "tuple" and mine.k == "tuple" and len(target.es) == len(mine.es):
        return any(converts(e, f) for e, f in zip(target.es, mine.es))
    if target.k == "object" and mine.k == "object" and \
            [n for n, _ in target.fs] == [n for n, _ in mine.fs]:
        return any(converts(e, f) for (_, e), (_, f) in zip(target.fs, mine.fs))
    return True


def signature(v):
    """The run-time type of v as cty sees it: ints and numbers are one
    type; None for null, which unifies with anything."""
    v = V.strip(v)
    k = V.kind(v)
    if k == "null":
        return None
    if k in ("int", "number", "amb"):
        return "num"
    if k == "list":
        return ("list", tuple(signature(x) for x in v))
    if k == "map":
        return ("map", tuple(sorted((key, signature(x)) for key, x in v.items())))
    return k


def conforms(v, t):
    """Whether the value v is of the static type t as it is, so that
    converting it to t changes nothing (outputs and secrets looked
    through)."""
    v, t = V.strip(v), T.strip_output(t)
    k = V.kind(v)
    if t.k in ("dyn", "asset") or k == "null":
        return True
    if t.k == "union":
        return any(conforms(v, m) for m in t.es)
    if t.k in T.PRIMS:
        return k in {"bool": ("bool",), "string": ("string",), "int": ("int",),
                     "number": ("int", "number", "amb")}[t.k]
    if t.k == "list":
        return k == "list" and all(conforms(x, t.e) for x in v)
    if t.k == "tuple":
        return k == "list" and len(v) == len(t.es) and all(conforms(x, e) for x, e in zip(v, t.es))
    if t.k == "map":
        return k == "map" and all(conforms(x, t.e) for x in v.values())
    if t.k == "object":
        fs = dict(t.fs)
        return k == "map" and all(n in fs and conforms(x, fs[n]) for n, x in v.items())
    return False


def compatible(a, b):
    """Whether run-time types a and b unify without converting the value."""
    if a is None or b is None or a == b:
        return True
    if type(a) is tuple and type(b) is tuple and a[0] == b[0] and len(a[1]) == len(b[1]):
        if a[0] == "list":
            return all(compatible(x, y) for x, y in zip(a[1], b[1]))
        return all(ka == kb and compatible(x, y) for (ka, x), (kb, y) in zip(a[1], b[1]))
    return False


def fractional_literal_to_int(e, to):
    """Whether pclc rejects e at compile time where to is expected: a
    fractional number literal where an int converts safely and a number only
    unsafely (compiler/bind/check.c, check_int_literal; the specification accepts
    the program and fails at run time, types.md §4)."""
    t = e.ty
    if not (t.is_const() and t.k == "number"):
        return False
    return T.conv(to, T.INT) == T.SAFE and T.conv(to, T.NUMBER) == T.UNSAFE


def picked(container, elem, *others):
    """An element a function (element, lookup, singleOrNone) takes out of
    container: its own secret and the container's top-level one are kept;
    whether a secret elsewhere in the container or in the other arguments
    makes it secret is not pinned down (the interpreter keeps marks per
    element and drops those of an unused default, an apply over all the
    arguments makes the result secret)."""
    state, inner = V.top(container)
    r = V.rewrap(state, elem)
    if V.top(r)[0] in V.TOP_SECRET:
        return r
    if V.secrecy(inner) != "no" or any(V.secrecy(o) != "no" for o in others):
        return V.SecretUnspec(V.strip(r))
    return r


def kinds_of_elements(v):
    """The value kinds of the elements of a list value."""
    _, inner = V.top(v)
    if type(inner) is not list:
        return {"?"}
    return {vkind(x) for x in inner}


def index_value(container, key):
    """container[key] with the container's top-level secret kept on the
    element (lowering.md §5); a missing key or index fails."""
    kstate, kinner = V.top(key)
    state, inner = V.top(container)
    if type(inner) is list:
        i = V.to_int(V.strip(kinner))
        if not 0 <= i < len(inner):
            raise V.EvalError(f"index {i} out of range")
        r = V.rewrap(state, inner[i])
    elif type(inner) is dict:
        k = V.to_string(V.strip(kinner))
        if k not in inner:
            raise V.EvalError(f"missing key {k!r}")
        r = V.rewrap(state, inner[k])
    elif inner is None:
        raise V.EvalError("attribute access on null")
    else:
        raise V.EvalError("cannot index a primitive")
    if kstate != "no":
        return V.mark(r, key)
    return r
