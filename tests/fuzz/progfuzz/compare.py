# compare.py: the comparison of what a run printed with what the generator
# expects, and the JSON form of expectations.
#
# A run's stack outputs (stdout with --show-secrets) and its snapshot are
# read with every number kept as its text (Raw), so that an int must be
# printed with all its digits and a number as the shortest decimal that
# reads back as the same double, without exponent (DECISIONS.md D3).  A
# secret prints as {"secret": v}.  The expected side uses the wrappers of
# values.py: Secret must be exactly there; SecretSW needs some secret in the
# value, anywhere; SecretUnspec ignores secrets; AmbNum accepts its int's
# digits.

import json
import unicodedata

from . import values as V


class Raw:
    """A JSON number as its text."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def loads(text):
    return json.loads(text, parse_int=Raw, parse_float=Raw)


def is_secret_wrapper(a):
    return type(a) is dict and len(a) == 1 and "secret" in a


def strip_actual(a):
    """The actual value without secret wrappers, and whether it had any."""
    if is_secret_wrapper(a):
        v, _ = strip_actual(a["secret"])
        return v, True
    if type(a) is list:
        items = [strip_actual(x) for x in a]
        return [x for x, _ in items], any(s for _, s in items)
    if type(a) is dict:
        items = {k: strip_actual(x) for k, x in a.items()}
        return {k: x for k, (x, _) in items.items()}, any(s for _, s in items.values())
    return a, False


def show(v):
    """A short readable form of an expected or actual value; combining
    marks and invisible characters are escaped, so that strings that differ
    only in their normalisation look different."""
    text = _dump(to_json(v), -1) if not isinstance(v, Raw) else v.text
    text = "".join("\\u%04x" % ord(c) if unicodedata.category(c)[0] in "MCZ" and c != " " else c
                   for c in text)
    return text if len(text) <= 300 else text[:297] + "..."


def diff(exp, act, path="$"):
    """The differences between the expected value exp and the actual act,
    as a list of 'path: expected X, got Y' lines."""
    if isinstance(exp, V.Secret):
        if not is_secret_wrapper(act):
            return [f"{path}: expected a secret {show(exp.v)}, got {show(act)}"]
        return diff(exp.v, act["secret"], path + ".secret")
    if isinstance(exp, V.SecretSW):
        plain, had = strip_actual(act)
        out = diff(exp.v, plain, path)
        if not had:
            out.append(f"{path}: expected a secret somewhere in {show(act)}")
        return out
    if isinstance(exp, V.SecretUnspec):
        plain, _ = strip_actual(act)
        return diff(exp.v, plain, path)
    if isinstance(exp, V.Asset):
        return diff(exp.enc, act, path)
    if exp is V.ANY_HASH:
        if type(act) is not str or len(act) != 64 or any(c not in "0123456789abcdef" for c in act):
            return [f"{path}: expected a SHA-256 in hex, got {show(act)}"]
        return []
    if is_secret_wrapper(act) and not (type(exp) is dict and set(exp) == {"secret"}):
        return [f"{path}: expected {show(exp)} (not secret), got secret {show(act['secret'])}"]
    if exp is None or type(exp) is bool or type(exp) is str:
        if type(act) is not type(exp) or act != exp:
            return [f"{path}: expected {show(exp)}, got {show(act)}"]
        return []
    if type(exp) is int or type(exp) is float or isinstance(exp, V.AmbNum):
        want = number_text(exp)
        if not isinstance(act, Raw) or act.text != want:
            return [f"{path}: expected {want}, got {show(act)}"]
        return []
    if type(exp) is list:
        if type(act) is not list:
            return [f"{path}: expected a list {show(exp)}, got {show(act)}"]
        if len(act) != len(exp):
            return [f"{path}: expected {len(exp)} elements {show(exp)}, got {len(act)}: {show(act)}"]
        out = []
        for i, (e, a) in enumerate(zip(exp, act)):
            out += diff(e, a, f"{path}[{i}]")
        return out
    if type(exp) is dict:
        if type(act) is not dict:
            return [f"{path}: expected a map {show(exp)}, got {show(act)}"]
        out = []
        for k in sorted(set(exp) | set(act)):
            p = f"{path}[{json.dumps(k, ensure_ascii=False)}]"
            if k not in act:
                out.append(f"{p}: missing (expected {show(exp[k])})")
            elif k not in exp:
                out.append(f"{p}: unexpected {show(act[k])}")
            else:
                out += diff(exp[k], act[k], p)
        return out
    raise TypeError(f"unexpected expected value {exp!r}")


def number_text(v):
    if isinstance(v, V.AmbNum):
        return str(v.i)
    if type(v) is int:
        return str(v)
    return V.fmt_number(v)


def to_json(v):
    """An expected value as JSON data: numbers as their text (Raw), the
    wrappers as {"secret": v}, {"$secret_somewhere": v} and
    {"$secret_unspecified": v}."""
    if isinstance(v, V.Secret):
        return {"secret": to_json(v.v)}
    if isinstance(v, V.SecretSW):
        return {"$secret_somewhere": to_json(v.v)}
    if isinstance(v, V.SecretUnspec):
        return {"$secret_unspecified": to_json(v.v)}
    if isinstance(v, V.Asset):
        return to_json(v.enc)
    if v is V.ANY_HASH:
        return "$any_sha256"
    if type(v) is list:
        return [to_json(x) for x in v]
    if type(v) is dict:
        return {k: to_json(x) for k, x in v.items()}
    if type(v) in (int, float) or isinstance(v, V.AmbNum):
        return Raw(number_text(v))
    return v


def from_json(v):
    """The expected value that to_json wrote (numbers read as Raw)."""
    if v == "$any_sha256":
        return V.ANY_HASH
    if isinstance(v, Raw):
        return float(v.text) if any(c in v.text for c in ".eE") else int(v.text)
    if type(v) is list:
        return [from_json(x) for x in v]
    if type(v) is dict:
        if len(v) == 1:
            (k, x), = v.items()
            wrap = {"secret": V.Secret, "$secret_somewhere": V.SecretSW,
                    "$secret_unspecified": V.SecretUnspec}.get(k)
            if wrap is not None:
                return wrap(from_json(x) if wrap is V.Secret else V.strip(from_json(x)))
        return {k: from_json(x) for k, x in v.items()}
    return v


def dumps(v):
    """Pretty JSON of an expected value, numbers written exactly."""
    return _dump(to_json(v), 0)


def _dump(v, indent):
    """v as JSON text, indented from indent, or on one line when indent
    is negative."""
    if indent < 0:
        if isinstance(v, Raw):
            return v.text
        if type(v) is list:
            return "[" + ", ".join(_dump(x, -1) for x in v) + "]"
        if type(v) is dict:
            return "{" + ", ".join(json.dumps(k, ensure_ascii=False) + ": " + _dump(x, -1)
                                   for k, x in v.items()) + "}"
        return json.dumps(v, ensure_ascii=False)
    pad = "  " * (indent + 1)
    if isinstance(v, Raw):
        return v.text
    if type(v) is list:
        if not v:
            return "[]"
        return "[\n" + ",\n".join(pad + _dump(x, indent + 1) for x in v) + "\n" + "  " * indent + "]"
    if type(v) is dict:
        if not v:
            return "{}"
        keys = sorted(v, key=lambda k: k.encode("utf-8"))
        return "{\n" + ",\n".join(pad + json.dumps(k, ensure_ascii=False) + ": " +
                                  _dump(v[k], indent + 1) for k in keys) + "\n" + "  " * indent + "}"
    return json.dumps(v, ensure_ascii=False)
