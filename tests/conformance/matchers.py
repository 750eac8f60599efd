# matchers.py: compares values of a run's snapshot with the expectations of
# a conformance expected.json (../shared/conformance/README.md, "Value
# encoding" and "Matchers").
#
# Takes an expected value (plain JSON with the corpus's wrappers and `$`
# matchers) and an actual value (the snapshot encoding of docs/snapshot.md,
# the same wrappers); produces None when they match, else a Mismatch naming
# the JSON path of the first difference and both sides.
#
# Invariants: numbers compare as doubles (Pulumi has only doubles), booleans
# never equal numbers, object key order never matters.

import base64
import json
import math
import os

WRAPPERS = ("secret", "unknown", "asset", "archive", "resource_ref")
UNKNOWN_SENTINEL = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"


class Mismatch(Exception):
    """The first difference between an expected and an actual value."""

    def __init__(self, path, message):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


class Context:
    """What some matchers need beyond the two values.

    project_dir: the directory holding the project (for `$path`);
    resources: the snapshot's resource list (for `$urn_of`, `$same_as`);
    field: a function (resource, field name) -> value, for `$same_as`;
    inputs: the inputs of the resource being checked (`$same_as_inputs`).
    """

    def __init__(self, project_dir, resources=None, field=None, inputs=None):
        self.project_dir = project_dir
        self.resources = resources or []
        self.field = field
        self.inputs = inputs

    def with_inputs(self, inputs):
        return Context(self.project_dir, self.resources, self.field, inputs)


def show(v, limit=200):
    """A short JSON rendering of v for messages."""
    try:
        s = json.dumps(v, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        s = repr(v)
    if len(s) > limit:
        s = s[:limit] + f"... ({len(s)} chars)"
    return s


def is_matcher(v):
    return isinstance(v, dict) and len(v) == 1 and next(iter(v)).startswith("$")


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def as_double(v):
    """The double a JSON number stands for (huge ints become infinite)."""
    if isinstance(v, float):
        return v
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def numbers_equal(a, b):
    return as_double(a) == as_double(b)


def is_secret(v):
    return isinstance(v, dict) and len(v) == 1 and "secret" in v


def is_unknown(v):
    return (isinstance(v, dict) and len(v) == 1 and v.get("unknown") is True) or v == UNKNOWN_SENTINEL


def strip_secrets(v):
    """v with every secret wrapper replaced by its plaintext."""
    if is_secret(v):
        return strip_secrets(v["secret"])
    if isinstance(v, dict):
        return {k: strip_secrets(x) for k, x in v.items()}
    if isinstance(v, list):
        return [strip_secrets(x) for x in v]
    return v


def contains(v, pred):
    """Whether pred holds for v or any value nested in it."""
    if pred(v):
        return True
    if isinstance(v, dict):
        return any(contains(x, pred) for x in v.values())
    if isinstance(v, list):
        return any(contains(x, pred) for x in v)
    return False


def parse_property_path(text):
    """Segments of a Pulumi property path: keys as str, indices as int,
    wildcards as "*".  Raises ValueError on a malformed path."""
    segs = []
    i, n = 0, len(text)
    expect_key = True
    while i < n:
        c = text[i]
        if c == "[":
            j = i + 1
            if j < n and text[j] == '"':
                j += 1
                buf = []
                while j < n and text[j] != '"':
                    if text[j] == "\\" and j + 1 < n:
                        j += 1
                    buf.append(text[j])
                    j += 1
                if j + 1 >= n or text[j + 1] != "]":
                    raise ValueError(f"bad quoted key in {text!r}")
                segs.append("".join(buf))
                i = j + 2
            else:
                k = text.find("]", j)
                if k < 0:
                    raise ValueError(f"missing ] in {text!r}")
                inner = text[j:k]
                if inner == "*":
                    segs.append("*")
                elif inner.isdigit():
                    segs.append(int(inner))
                else:
                    raise ValueError(f"bad index {inner!r} in {text!r}")
                i = k + 1
            expect_key = False
        elif c == ".":
            i += 1
            expect_key = True
        else:
            if not expect_key and segs:
                raise ValueError(f"unexpected {c!r} in {text!r}")
            j = i
            while j < n and text[j] not in ".[":
                j += 1
            segs.append(text[i:j])
            i = j
            expect_key = False
    return segs


def type_name(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if is_number(v):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    return "object"


TYPE_ALIASES = {"boolean": "bool", "array": "list", "map": "object", "integer": "number",
                "int": "number", "float": "number"}


def match(exp, act, path, ctx):
    """Raises Mismatch when act does not match exp."""
    if is_matcher(exp):
        match_matcher(next(iter(exp)), next(iter(exp.values())), act, path, ctx)
        return
    if exp is None:
        if act is not None:
            raise Mismatch(path, f"expected null, got {show(act)}")
        return
    if isinstance(exp, bool):
        if not isinstance(act, bool) or act != exp:
            raise Mismatch(path, f"expected {show(exp)}, got {show(act)}")
        return
    if is_number(exp):
        if not is_number(act) or not numbers_equal(exp, act):
            raise Mismatch(path, f"expected {show(exp)}, got {show(act)}")
        return
    if isinstance(exp, str):
        if act != exp:
            raise Mismatch(path, f"expected {show(exp)}, got {show(act)}")
        return
    if isinstance(exp, list):
        if not isinstance(act, list):
            raise Mismatch(path, f"expected a list {show(exp)}, got {show(act)}")
        if len(act) != len(exp):
            raise Mismatch(path, f"expected {len(exp)} elements {show(exp)}, got {len(act)}: {show(act)}")
        for i, (e, a) in enumerate(zip(exp, act)):
            match(e, a, f"{path}[{i}]", ctx)
        return
    if isinstance(exp, dict):
        if not isinstance(act, dict):
            raise Mismatch(path, f"expected {show(exp)}, got {show(act)}")
        wrapper = len(exp) == 1 and next(iter(exp)) in WRAPPERS
        if wrapper and not (len(act) == 1 and next(iter(act)) == next(iter(exp))):
            raise Mismatch(path, f"expected {show(exp)}, got {show(act)}")
        match_object(exp, act, path, ctx, partial=False)
        return
    raise Mismatch(path, f"unsupported expected value {exp!r}")


def key_path(path, k):
    if k.isidentifier():
        return f"{path}.{k}"
    return f"{path}[{json.dumps(k, ensure_ascii=False)}]"


def match_object(exp, act, path, ctx, partial):
    for k, e in exp.items():
        kp = key_path(path, k)
        if k not in act:
            if is_matcher(e) and next(iter(e)) == "$absent_or_unknown":
                continue
            raise Mismatch(kp, f"missing (expected {show(e)})")
        match(e, act[k], kp, ctx)
    if not partial:
        extra = sorted(k for k in act if k not in exp)
        if extra:
            raise Mismatch(key_path(path, extra[0]), f"unexpected key (value {show(act[extra[0]])})")


def matches(exp, act, path, ctx):
    try:
        match(exp, act, path, ctx)
        return True
    except Mismatch:
        return False


def multiset_match(exp, act, path, ctx):
    """Whether the lists exp and act are equal up to order (each expected
    item may be a matcher): a bipartite matching."""
    if len(exp) != len(act):
        return False
    ok = [[matches(e, a, path, ctx) for a in act] for e in exp]
    owner = [-1] * len(act)

    def augment(i, seen):
        for j in range(len(act)):
            if ok[i][j] and not seen[j]:
                seen[j] = True
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(augment(i, [False] * len(act)) for i in range(len(exp)))


def resolve_path(p):
    try:
        return os.path.realpath(p)
    except OSError:
        return p


def match_matcher(name, arg, act, path, ctx):
    def fail(msg):
        raise Mismatch(path, msg)

    if name == "$one_of":
        for alt in arg:
            if matches(alt, act, path, ctx):
                return
        fail(f"expected one of {show(arg)}, got {show(act)}")
    elif name == "$json":
        if not isinstance(act, str):
            fail(f"expected a JSON string equal to {show(arg)}, got {show(act)}")
        try:
            parsed = json.loads(act)
        except ValueError as e:
            fail(f"expected JSON text, got {show(act)} ({e})")
        match(arg, parsed, path + "<json>", ctx)
    elif name == "$path":
        want = arg.replace("<PROJECT_DIR>", ctx.project_dir)
        if not isinstance(act, str):
            fail(f"expected the path {want}, got {show(act)}")
        if act != want and resolve_path(act) != resolve_path(want):
            fail(f"expected the path {want}, got {show(act)}")
    elif name == "$any":
        return
    elif name == "$type":
        want = TYPE_ALIASES.get(arg, arg)
        if type_name(act) != want:
            fail(f"expected a value of type {arg}, got {show(act)}")
    elif name == "$partial":
        if not isinstance(act, dict):
            fail(f"expected an object with at least {show(arg)}, got {show(act)}")
        match_object(arg, act, path, ctx, partial=True)
    elif name == "$contains":
        if not isinstance(act, str) or arg not in act:
            fail(f"expected a string containing {show(arg)}, got {show(act)}")
    elif name == "$prefix":
        if not isinstance(act, str) or not act.startswith(arg):
            fail(f"expected a string starting with {show(arg)}, got {show(act)}")
    elif name == "$not":
        if matches(arg, act, path, ctx):
            fail(f"expected anything but {show(arg)}, got {show(act)}")
    elif name == "$all":
        for m in arg:
            match(m, act, path, ctx)
    elif name == "$len":
        if not isinstance(act, list) or len(act) != arg:
            fail(f"expected a list of length {arg}, got {show(act)}")
    elif name == "$set":
        if not isinstance(act, list) or not multiset_match(arg, act, path, ctx):
            fail(f"expected the elements {show(arg)} in any order, got {show(act)}")
    elif name == "$contains_item":
        if not isinstance(act, list) or not any(matches(arg, a, path, ctx) for a in act):
            fail(f"expected a list containing {show(arg)}, got {show(act)}")
    elif name == "$all_empty":
        if not isinstance(act, dict) or any(v != [] for v in act.values()):
            fail(f"expected an object whose values are all empty lists, got {show(act)}")
    elif name == "$has_secret":
        if not contains(act, is_secret):
            fail(f"expected a value holding a secret, got {show(act)}")
        match(arg, strip_secrets(act), path + "<plaintext>", ctx)
    elif name == "$has_unknown":
        if not contains(act, is_unknown):
            fail(f"expected a value holding an unknown, got {show(act)}")
    elif name == "$absent_or_unknown":
        if not is_unknown(act):
            fail(f"expected absent or unknown, got {show(act)}")
    elif name == "$nest":
        v = arg["leaf"]
        for _ in range(arg["depth"]):
            v = {arg["key"]: v}
        match(v, act, path, ctx)
    elif name == "$repeat":
        text, count = arg["text"], arg["count"]
        if not isinstance(act, str):
            fail(f"expected {show(text)} repeated {count} times, got {show(act)}")
        if len(act) != len(text) * count or act != text * count:
            fail(f"expected {show(text)} repeated {count} times ({len(text) * count} chars), "
                 f"got {show(act)}")
    elif name == "$bytes_base64":
        want = base64.b64decode(arg)
        if not isinstance(act, str):
            fail(f"expected a string of the bytes {arg} (base64), got {show(act)}")
        got = act.encode("utf-8", "surrogateescape")
        if got != want:
            fail(f"expected a string of the bytes {arg} (base64), got the bytes "
                 f"{base64.b64encode(got).decode()} (base64)")
    elif name == "$glob_paths":
        if not isinstance(act, list):
            fail(f"expected property paths {show(arg)}, got {show(act)}")
        try:
            got = [parse_property_path(p) if isinstance(p, str) else p for p in act]
        except ValueError as e:
            fail(f"property paths {show(act)} do not parse: {e}")
        if got != arg:
            fail(f"expected property paths {show(arg)}, got {show(act)} (segments {show(got)})")
    elif name == "$same_as":
        if ctx.field is None:
            fail(f"$same_as used outside a resource field")
        want = ctx.field(arg)
        match(want, act, path, ctx)
    elif name == "$urn_of":
        t = arg["type"]
        urns = [r["urn"] for r in ctx.resources if r.get("type") == t]
        if len(urns) != 1:
            fail(f"$urn_of: expected exactly one resource of type {t}, found {len(urns)}")
        if act != urns[0]:
            fail(f"expected the URN of the {t} ({urns[0]}), got {show(act)}")
    elif name == "$same_as_inputs":
        match(ctx.inputs, act, path, ctx)
    elif name == "$gte":
        if not is_number(act) or as_double(act) < as_double(arg):
            fail(f"expected a number >= {arg}, got {show(act)}")
    else:
        fail(f"unknown matcher {name}")
