# values.py: the run-time value model of PCL as the generator predicts it.
#
# A value is one of: None (null), bool, int (an exact PCL int of any size),
# float (a PCL number, an IEEE double), str (always in NFC, DECISIONS.md D9),
# list (lists and tuples), dict (maps and objects), or one of the wrappers
# below.  Every operation of this module takes values and returns a value, or
# raises:
#   EvalError  the program itself fails there at run time (the generator
#              uses such expressions only where the failure is caught: an
#              alternative of try(), the argument of can(), the branch of a
#              conditional that is not taken, the side of && or || that does
#              not decide the result);
#   Ambiguous  the specification does not pin the result down (or the result
#              would leave what the model follows exactly: infinities, -0,
#              numbers too large to handle); the generator never builds such an
#              expression.
#
# Wrappers:
#   Secret(v)        the value is secret at this level; v may hold wrappers;
#   SecretSW(v)      a secret is somewhere in v, at the top or inside, but the
#                    specification does not say where (v holds no wrapper);
#   SecretUnspec(v)  the specification does not say whether anything in v is
#                    secret (v holds no wrapper);
#   AmbNum(i)        a number that the specification lets be either the int i
#                    or the double float(i) (both have the same value; only
#                    later arithmetic could tell them apart, and the
#                    arithmetic below refuses results that depend on it).
#
# Secrets follow lowering.md §5 and DECISIONS.md D2, D10: an operation that
# consumes values (an operator, a template, a function over their contents)
# is secret when any input is; constructors keep secrets where they are;
# traversals keep the element's own secret and add the container's.

import base64
import hashlib
import math
import re
import unicodedata
from decimal import Decimal
from fractions import Fraction


class EvalError(Exception):
    """The PCL program fails at run time here."""


class Ambiguous(Exception):
    """The specification does not pin this result down; never generate it."""


class Secret:
    """A value that is secret at this level."""
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f"Secret({self.v!r})"


class SecretSW:
    """A plain value with a secret somewhere in it, placement not pinned."""
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f"SecretSW({self.v!r})"


class SecretUnspec:
    """A plain value whose secretness the specification leaves open."""
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f"SecretUnspec({self.v!r})"


class AmbNum:
    """A number that may be the int i or the double float(i)."""
    __slots__ = ("i",)

    def __init__(self, i):
        self.i = i

    def __repr__(self):
        return f"AmbNum({self.i})"

    def __eq__(self, other):
        return isinstance(other, AmbNum) and other.i == self.i

    def __hash__(self):
        return hash(("amb", self.i))


class Asset:
    """An asset or archive (functions.md §4), as the program prints it: its
    snapshot encoding (docs/snapshot.md), e.g. {"asset": {"text": "x",
    "hash": ...}}.  Nothing but constructors and secret() takes it."""
    __slots__ = ("enc",)

    def __init__(self, enc):
        self.enc = enc

    def __repr__(self):
        return f"Asset({self.enc!r})"


class AnyHash:
    """The hash of a directory or asset archive: the SHA-256 of the tar
    stream the engine would hash (docs/snapshot.md), which the model does
    not rebuild; any SHA-256 in hex matches it."""

    def __repr__(self):
        return "AnyHash"


ANY_HASH = AnyHash()


WRAPPERS = (Secret, SecretSW, SecretUnspec)

# Ints above this magnitude are refused (Ambiguous) so that programs stay
# small; it is still far beyond 64 bits.
INT_LIMIT = 10 ** 120

# The largest int that converts to a double exactly whatever the rounding.
EXACT_DOUBLE = 2 ** 53


# ------------------------------------------------------------------ kinds

def kind(v):
    """The run-time kind of a plain value."""
    if v is None:
        return "null"
    if type(v) is bool:
        return "bool"
    if type(v) is int:
        return "int"
    if type(v) is float:
        return "number"
    if isinstance(v, AmbNum):
        return "amb"
    if type(v) is str:
        return "string"
    if type(v) is list:
        return "list"
    if type(v) is dict:
        return "map"
    if isinstance(v, Asset):
        return "asset"
    raise TypeError(f"not a plain value: {v!r}")


def is_num(v):
    return kind(v) in ("int", "number", "amb")


# ---------------------------------------------------------------- secrets

def strip(v):
    """v without any wrapper, at any depth."""
    while isinstance(v, WRAPPERS):
        v = v.v
    if type(v) is list:
        return [strip(x) for x in v]
    if type(v) is dict:
        return {k: strip(x) for k, x in v.items()}
    return v


def secrecy(v):
    """'yes' when a secret is certainly somewhere in v, 'maybe' when only
    unpinned secretness is, else 'no'."""
    if isinstance(v, (Secret, SecretSW)):
        return "yes"
    best = "no"
    if isinstance(v, SecretUnspec):
        best = "maybe"
        v = v.v
    if type(v) is list:
        items = v
    elif type(v) is dict:
        items = v.values()
    else:
        items = ()
    for x in items:
        s = secrecy(x)
        if s == "yes":
            return "yes"
        if s == "maybe":
            best = "maybe"
    return best


def make_secret(v):
    """secret(v): v made secret at the top.  Secrets already inside v may be
    kept or dropped by the implementation (not pinned)."""
    while isinstance(v, Secret):
        v = v.v
    if secrecy(v) != "no":
        return Secret(SecretUnspec(strip(v)))
    return Secret(v)


def mark(result, *inputs):
    """The result of an operation that consumes its inputs' contents: secret
    when an input holds a secret (lowering.md §5)."""
    s = max((secrecy(x) for x in inputs), key=("no", "maybe", "yes").index, default="no")
    if s == "yes":
        return make_secret(result)
    if s == "maybe":
        return SecretUnspec(strip(result))
    return result


TOP_SECRET = ("yes", "yes~")


def top(v):
    """Splits v into (state, inner) where inner holds no wrapper at its top:
    state is 'yes' for a value secret at the top, 'yes~' when it is and
    whether its parts are is not pinned, 'sw' or 'maybe' when the top's
    secretness is not pinned, else 'no'."""
    seen = set()
    while isinstance(v, WRAPPERS):
        seen.add(type(v))
        v = v.v
    if not seen:
        return "no", v
    if Secret in seen:
        return ("yes" if seen == {Secret} else "yes~"), v
    if SecretSW in seen:
        return "sw", v
    return "maybe", v


def rewrap(state, v):
    """Puts the top state of a container back on a part taken from it."""
    if state == "yes":
        return make_secret(v)
    if state == "yes~":
        return make_secret(SecretUnspec(strip(v)))
    if state in ("sw", "maybe"):
        return SecretUnspec(strip(v))
    return v


def unsecret(v):
    """unsecret(v): removes the top-level secret only (functions.md §5)."""
    state, inner = top(v)
    if state == "yes":
        return inner
    if state != "no":
        return SecretUnspec(strip(inner))
    return v


def through_engine(v):
    """v as a resource output echoing the input v: a top-level secret stays
    secret; where nested secrets end up is not pinned."""
    state, inner = top(v)
    if state in TOP_SECRET:
        if state == "yes~" or secrecy(inner) != "no":
            return Secret(SecretUnspec(strip(inner)))
        return v
    s = secrecy(v)
    if s == "yes":
        return SecretSW(strip(v))
    if s == "maybe":
        return SecretUnspec(strip(v))
    return v


# ---------------------------------------------------------------- strings

def nfc(s):
    return unicodedata.normalize("NFC", s)


def graphemes(s):
    """The number of grapheme clusters of s (D5).  Exact for the characters
    the generator uses (UAX #29): a cluster is a character with the
    combining marks that follow it, except after a control (line and
    paragraph separators included), and CR LF is one cluster."""
    n = 0
    prev = None
    for c in s:
        if prev is not None and (unicodedata.category(c) in ("Mn", "Me") and
                                 unicodedata.category(prev) not in ("Cc", "Zl", "Zp")
                                 or prev == "\r" and c == "\n"):
            prev = c
            continue
        n += 1
        prev = c
    return n


def fmt_number(f):
    """A double as PCL writes it: the shortest decimal that reads back as the
    same double, without exponent (D3)."""
    if math.isinf(f) or math.isnan(f):
        raise Ambiguous("infinite or NaN number")
    if f == 0:
        if math.copysign(1.0, f) < 0:
            raise Ambiguous("negative zero")
        return "0"
    s = format(Decimal(repr(f)), "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


NUMERIC = re.compile(r"-?[0-9]+(\.[0-9]+)?")
# Strings that certainly are not numbers, bools or infinities.
WORDY = re.compile(r"[a-zA-Z][a-zA-Z ]*")
NOT_NUMBER_WORDS = {"inf", "infinity", "nan"}
BOOL_WORDS = {"t", "f", "true", "false", "1", "0"}


def to_string(v):
    """v converted to a string (a template part, a string parameter)."""
    k = kind(v)
    if k == "string":
        return v
    if k == "int":
        return str(v)
    if k == "amb":
        return str(v.i)
    if k == "number":
        return fmt_number(v)
    if k == "bool":
        return "true" if v else "false"
    raise EvalError(f"cannot convert {k} to string")


def to_number(v):
    """v converted to a number for arithmetic: ints stay exact (D3)."""
    k = kind(v)
    if k in ("int", "number", "amb"):
        return v
    if k == "string":
        if NUMERIC.fullmatch(v):
            d = Decimal(v)
            if d == d.to_integral_value():
                i = int(d)
                if abs(i) > EXACT_DOUBLE:
                    raise Ambiguous("large numeric string")
                return AmbNum(i)
            return float(v)
        if WORDY.fullmatch(v) and v.strip().lower() not in NOT_NUMBER_WORDS:
            raise EvalError(f"a number is required, got {v!r}")
        raise Ambiguous(f"string {v!r} as a number")
    raise EvalError(f"a number is required, got {k}")


def to_int(v):
    """v converted to an int parameter (range, element): number -> int and
    string -> int are unsafe and fail unless exact (D3)."""
    k = kind(v)
    if k == "int":
        return v
    if k == "amb":
        return v.i
    if k == "number":
        if v != math.floor(v):
            raise EvalError(f"cannot convert {v} to int: not an integer")
        return int(v)
    if k == "string":
        if NUMERIC.fullmatch(v):
            d = Decimal(v)
            if d != d.to_integral_value():
                raise EvalError(f"cannot convert {v!r} to int: not an integer")
            return int(d)
        if WORDY.fullmatch(v) and v.strip().lower() not in NOT_NUMBER_WORDS:
            raise EvalError(f"cannot convert {v!r} to int")
        raise Ambiguous(f"string {v!r} as an int")
    raise EvalError(f"an int is required, got {k}")


def to_bool(v):
    """v converted to a bool (conditions, !, && and ||)."""
    k = kind(v)
    if k == "bool":
        return v
    if k == "string":
        if v in ("true", "false"):
            return v == "true"
        if WORDY.fullmatch(v) and v.lower() not in BOOL_WORDS:
            raise EvalError(f"a bool is required, got {v!r}")
        raise Ambiguous(f"string {v!r} as a bool")
    if k == "null":
        raise EvalError("null condition")
    if k in ("int", "number", "amb"):
        raise EvalError("a number does not convert to bool")
    raise EvalError(f"a bool is required, got {k}")


# ------------------------------------------------------------- arithmetic

def _interpretations(x):
    if isinstance(x, AmbNum):
        return [x.i, float(x.i)]
    return [x]


def _checked_float(x):
    try:
        return float(x)
    except OverflowError as e:
        raise Ambiguous("int too large for a double") from e


def _trunc_mod(a, b):
    """a % b for ints, truncated toward zero (D3)."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def _concrete(op, a, b):
    if type(a) is int and type(b) is int:
        if op in ("/", "%") and b == 0:
            raise EvalError("division by zero")
        if op == "+":
            r = a + b
        elif op == "-":
            r = a - b
        elif op == "*":
            r = a * b
        elif op == "%":
            r = _trunc_mod(a, b)
        else:
            try:
                r = a / b
            except OverflowError as e:
                raise Ambiguous("quotient too large") from e
            return _checked_result(r)
        if abs(r) > INT_LIMIT:
            raise Ambiguous("int result too large")
        return r
    fa, fb = _checked_float(a), _checked_float(b)
    if op in ("/", "%") and fb == 0:
        raise Ambiguous("number divided by zero")
    if type(a) is not type(b):
        return _mixed(op, a, b, fa, fb)
    if op == "+":
        r = fa + fb
    elif op == "-":
        r = fa - fb
    elif op == "*":
        r = fa * fb
    elif op == "/":
        r = fa / fb
    else:
        r = math.fmod(fa, fb)
    return _checked_result(r)


def _mixed(op, a, b, fa, fb):
    """An int and a number: the exact result rounded once to a double (D3:
    "where an int becomes a double ... the exact value rounded")."""
    x, y = Fraction(a), Fraction(b)
    if op == "+":
        r = x + y
    elif op == "-":
        r = x - y
    elif op == "*":
        r = x * y
    elif op == "/":
        r = x / y
    else:
        q = x / y
        r = x - y * (math.floor(q) if q >= 0 else math.ceil(q))
    try:
        d = float(r)
    except OverflowError as e:
        raise Ambiguous("result beyond the double range") from e
    if d == 0:
        # An exact zero takes its sign from the double operation, which may
        # be negative after rounding the int; the model refuses -0.
        raise Ambiguous("zero result of mixed arithmetic")
    return _checked_result(d)


def _checked_result(r):
    if math.isinf(r) or math.isnan(r):
        raise Ambiguous("infinite result")
    if r == 0 and math.copysign(1.0, r) < 0:
        raise Ambiguous("negative zero")
    return r


def _agree(results):
    """One value out of the results of every interpretation, or Ambiguous."""
    first = results[0]
    for r in results[1:]:
        if r != first:
            raise Ambiguous("result depends on int/number interpretation")
    kinds = {type(r) for r in results}
    if kinds == {int} or kinds == {float}:
        return first
    return AmbNum(int(first))


def arith(op, a, b):
    """a op b for + - * / %: ints exact, / real division, % truncated, mixed
    int and number computed in doubles (D3)."""
    a, b = to_number(a), to_number(b)
    outcomes = []
    for x in _interpretations(a):
        for y in _interpretations(b):
            try:
                outcomes.append(("ok", _concrete(op, x, y)))
            except EvalError as e:
                outcomes.append(("err", str(e)))
    if all(o[0] == "err" for o in outcomes):
        raise EvalError(outcomes[0][1])
    if any(o[0] == "err" for o in outcomes):
        raise Ambiguous("error depends on int/number interpretation")
    return _agree([o[1] for o in outcomes])


def negate(a):
    a = to_number(a)
    if isinstance(a, AmbNum):
        if a.i == 0:
            raise Ambiguous("negating an ambiguous zero")
        return AmbNum(-a.i)
    if type(a) is float:
        return _checked_result(-a)
    return -a


def _num_value(x):
    return x.i if isinstance(x, AmbNum) else x


def compare(op, a, b):
    """a op b for < <= > >=: exact, also between ints and numbers (D3)."""
    x, y = _num_value(to_number(a)), _num_value(to_number(b))
    if op == "<":
        return x < y
    if op == "<=":
        return x <= y
    if op == ">":
        return x > y
    return x >= y


def equal(a, b):
    """a == b on plain primitive values: type and value (types.md §10);
    collections are not generated."""
    ka, kb = kind(a), kind(b)
    if ka in ("list", "map") or kb in ("list", "map"):
        raise Ambiguous("collection equality")
    if ka == "null" or kb == "null":
        return ka == kb
    if is_num(a) and is_num(b):
        return _num_value(a) == _num_value(b)
    if ka != kb:
        return False
    return a == b


def minmax(fn, args):
    """min or max: the first minimal (maximal) argument (functions.md §2)."""
    if not args:
        raise EvalError("min/max needs an argument")
    nums = [to_number(a) for a in args]
    best = nums[0]
    for x in nums[1:]:
        if (fn == "min" and _num_value(x) < _num_value(best)) or \
           (fn == "max" and _num_value(x) > _num_value(best)):
            best = x
    return best


# ------------------------------------------------------------ collections

def length(v):
    k = kind(v)
    if k == "string":
        return graphemes(v)
    if k in ("list", "map"):
        return len(v)
    raise Ambiguous(f"length of {k}")


def sorted_keys(m):
    """Map keys in PCL order: by their UTF-8 bytes."""
    return sorted(m, key=lambda k: k.encode("utf-8"))


def element(lst, i):
    """element(lst, i): i wraps around the length; cty reads it as a Go int,
    so an index outside 64 bits fails (functions.md §2)."""
    if not -2 ** 63 <= i < 2 ** 63:
        raise EvalError("invalid index: value must be a whole number in 64 bits")
    if not lst:
        raise EvalError("cannot use element function with an empty list")
    return lst[i % len(lst)]


def single_or_none(lst):
    if len(lst) > 1:
        raise EvalError("expected list to have at most one element")
    return lst[0] if lst else None


def split(sep, s):
    """Go strings.Split (functions.md §2)."""
    if sep == "":
        return [nfc(c) for c in s]
    return [nfc(p) for p in s.split(sep)]


def range_list(a, b=None):
    if b is None:
        a, b = 0, a
    if b - a > 1000:
        raise Ambiguous("range too long")
    return list(range(a, b))


# --------------------------------------------------------------- encoding

def go_json_string(s):
    out = ['"']
    for c in s:
        o = ord(c)
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif o in (0x08, 0x0C):
            raise Ambiguous("\\b and \\f escapes differ between Go versions")
        elif o < 0x20 or c in "<>&" or o in (0x2028, 0x2029):
            out.append("\\u%04x" % o)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def to_json(v):
    """toJSON(v): compact, keys sorted by bytes, Go escaping, numbers without
    exponent (functions.md §3)."""
    k = kind(v)
    if k == "asset":
        raise EvalError("assets and archives are not serialisable")
    if k == "null":
        return "null"
    if k == "bool":
        return "true" if v else "false"
    if k == "int":
        return str(v)
    if k == "amb":
        return str(v.i)
    if k == "number":
        return fmt_number(v)
    if k == "string":
        return go_json_string(v)
    if k == "list":
        return "[" + ",".join(to_json(x) for x in v) + "]"
    return "{" + ",".join(go_json_string(key) + ":" + to_json(v[key])
                          for key in sorted_keys(v)) + "}"


def to_base64(s):
    return base64.b64encode(s.encode("utf-8")).decode("ascii")


def from_base64(s):
    try:
        raw = base64.b64decode(s.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as e:
        raise EvalError("invalid base64 data") from e
    try:
        return nfc(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise Ambiguous("decoded bytes are not UTF-8") from e


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def sha1_hex(s):
    return hashlib.sha1(s.encode("utf-8")).hexdigest()


def file_base64(data):
    return base64.b64encode(data).decode("ascii")


def file_base64_sha256(data):
    return base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


# ---------------------------------------------------- schema conversions

def convert(v, ty):
    """v converted to the primitive schema or config type ty ('bool', 'int',
    'number', 'string'), as a resource input or typed value receives it
    (program.md §3.7, types.md §4.5).  Converting an int to 'number' may keep
    it exact or make it a double: the result is an AmbNum then."""
    state, inner = top(v)
    if state != "no":
        return rewrap(state, convert(inner, ty))
    k = kind(v)
    if ty == "string":
        return to_string(v)
    if ty == "bool":
        if k == "bool":
            return v
        if k == "string" and v in ("true", "false"):
            return v == "true"
        raise Ambiguous(f"{k} to bool")
    if ty == "int":
        if k == "int":
            return v
        if k == "amb":
            return v.i
        if k == "string" and re.fullmatch(r"-?[1-9][0-9]{0,15}|0", v):
            return int(v)
        raise Ambiguous(f"{k} to int")
    if ty == "number":
        if k == "number" or k == "amb":
            return v
        if k == "int":
            if abs(v) > EXACT_DOUBLE:
                raise Ambiguous("large int to number")
            return AmbNum(v)
        if k == "string" and NUMERIC.fullmatch(v):
            return to_number(v)
        raise Ambiguous(f"{k} to number")
    raise ValueError(ty)
