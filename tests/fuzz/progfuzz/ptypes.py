# ptypes.py: the static types of PCL's checker, as far as the generator needs
# them to build only programs that type-check.
#
# A type is a Ty: a primitive (bool, int, number, string), none, dynamic, a
# constant (the type of a literal: const(int 1)), list, map, tuple, object,
# union or output.  Construction normalises unions and outputs as types.md
# §1.1 says; conversion kinds (§4), unification (§5), traversal (§6) and
# iteration (§7) follow the specification's algorithms for this subset (no
# sets, promises, enums or opaque types: the generator never makes them).
#
# The generator asks three questions of a type: what shape it has (`shape`:
# 'prim' for primitives and unions of them, 'list', 'map', 'tuple',
# 'object', 'dyn', or 'opaque' for anything it does not take apart), what a
# traversal step gives, and what iterating over it gives.
#
# A type also says whether pclc computes the value eventual at the top though
# the checker's type is not (`stand`, pclc's stand type, docs/codegen.md §3):
# a config (the run can make any config secret), try(), can(), a resource
# or component, and what operations lift from them.  Where pclc then needs
# the value, it does so through an apply, as it does for an output; the
# flag plays no part in checking, conversion or unification.

NONE, UNSAFE, SAFE = 0, 1, 2
NOCONST = object()
PRIMS = ("bool", "int", "number", "string")


class Ty:
    """A static type.  k is the kind; const the constant value of a const
    type (else NOCONST); e the element type (list, map, output); es the
    element types (tuple) or members (union); fs the (name, type) pairs of an
    object, sorted by name; stand whether pclc's stand type is eventual at
    the top (see the file header; not part of the type's identity)."""
    __slots__ = ("k", "const", "e", "es", "fs", "stand", "_key")

    def __init__(self, k, const=NOCONST, e=None, es=(), fs=(), stand=False):
        self.k, self.const, self.e, self.es, self.fs = k, const, e, tuple(es), tuple(fs)
        self.stand = stand
        self._key = None

    def key(self):
        """A canonical text of the type: equal types have equal keys."""
        if self._key is None:
            if self.const is not NOCONST:
                self._key = f"const({self.k} {self.const!r}:{type(self.const).__name__})"
            elif self.k in ("list", "map", "output"):
                self._key = f"{self.k}({self.e.key()})"
            elif self.k in ("tuple", "union"):
                self._key = f"{self.k}({', '.join(t.key() for t in self.es)})"
            elif self.k == "object":
                self._key = "object({" + ", ".join(f"{n}={t.key()}" for n, t in self.fs) + "})"
            else:
                self._key = self.k
        return self._key

    def __eq__(self, other):
        return isinstance(other, Ty) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return self.key()

    def is_const(self):
        return self.const is not NOCONST

    def field(self, name):
        for n, t in self.fs:
            if n == name:
                return t
        return None


BOOL, INT, NUMBER, STRING = Ty("bool"), Ty("int"), Ty("number"), Ty("string")
NONE_T, DYN = Ty("none"), Ty("dyn")
# Assets and archives (opaque to the generator; the checker's union(Archive,
# Asset) and Archive accept each other's constructors where they are used).
ASSET = Ty("asset")


def const(k, v):
    return Ty(k, const=v)


def list_of(e):
    return Ty("list", e=e)


def map_of(e):
    return Ty("map", e=e)


def tuple_of(es):
    return Ty("tuple", es=es)


def object_of(fields):
    return Ty("object", fs=sorted(fields.items()))


def resolve_outputs(t):
    """t with every output removed, at any depth."""
    if t.k == "output":
        return resolve_outputs(t.e)
    if t.k in ("list", "map"):
        return Ty(t.k, e=resolve_outputs(t.e))
    if t.k in ("tuple", "union"):
        es = [resolve_outputs(x) for x in t.es]
        return union(es) if t.k == "union" else tuple_of(es)
    if t.k == "object":
        return Ty("object", fs=[(n, resolve_outputs(x)) for n, x in t.fs])
    return t


def output(t):
    return Ty("output", e=resolve_outputs(t))


def contains_output(t):
    return resolve_outputs(t) != t


def standing(t):
    """t as pclc computes it: eventual at the top (an output already is)."""
    if t.k == "output" or t.stand:
        return t
    return Ty(t.k, const=t.const, e=t.e, es=t.es, fs=t.fs, stand=True)


def eventual_top(t):
    """Whether pclc computes a value of type t eventual at the top."""
    return t.k == "output" or t.stand


def contains_stand(t):
    """Whether pclc computes some part of a value of type t eventual though
    the checker's type is plain there."""
    if t.stand:
        return True
    if t.k in ("list", "map"):
        return contains_stand(t.e)
    if t.k in ("tuple", "union"):
        return any(contains_stand(x) for x in t.es)
    if t.k == "object":
        return any(contains_stand(x) for _, x in t.fs)
    return False


def union(ts):
    """The union of ts, normalised: flattened, sorted, deduplicated; one
    member is that member."""
    flat = []
    for t in ts:
        flat.extend(t.es if t.k == "union" else [t])
    uniq = {}
    for t in flat:
        uniq.setdefault(t.key(), t)
    members = [uniq[k] for k in sorted(uniq)]
    if len(members) == 1:
        return members[0]
    return Ty("union", es=members)


def optional(t):
    return union([t, NONE_T])


def base(t):
    """The underlying type of a const type."""
    return Ty(t.k) if t.is_const() else t


# -------------------------------------------------------------- conversion

_PRIM_TABLE = {
    "number": {"int": SAFE, "string": UNSAFE, "bool": UNSAFE},
    "int": {"number": UNSAFE, "string": UNSAFE, "bool": UNSAFE},
    "string": {"bool": SAFE, "int": SAFE, "number": SAFE},
    "bool": {"string": UNSAFE, "int": UNSAFE, "number": UNSAFE},
}


def conv(dst, src, unifying=False):
    """The conversion kind from src to dst (types.md §4)."""
    if dst == src or dst.k == "dyn":
        return SAFE
    if src.k == "union":
        kinds = [conv(dst, s, unifying) for s in src.es]
        if all(k == SAFE for k in kinds):
            return SAFE
        if any(k != NONE for k in kinds):
            return UNSAFE
        return NONE
    if src.is_const():
        return conv(dst, base(src), unifying)
    if src.k == "dyn":
        return UNSAFE
    if dst.is_const():
        return UNSAFE if conv(base(dst), src, unifying) != NONE else NONE
    k = dst.k
    if k in PRIMS:
        return _PRIM_TABLE[k].get(src.k, NONE)
    if k in ("none", "asset"):
        return NONE
    if k == "list":
        if src.k == "list":
            return conv(dst.e, src.e, unifying)
        if src.k == "tuple":
            return min([SAFE] + [conv(dst.e, s, unifying) for s in src.es])
        return NONE
    if k == "map":
        if src.k == "map":
            return conv(dst.e, src.e, unifying)
        if src.k == "object":
            return min([SAFE] + [conv(dst.e, s, unifying) for _, s in src.fs])
        return NONE
    if k == "tuple":
        if src.k == "tuple":
            if unifying:
                return _unify_tuples(dst, src)[1]
            if len(dst.es) != len(src.es):
                return NONE
            return min([SAFE] + [conv(d, s, unifying) for d, s in zip(dst.es, src.es)])
        if src.k == "list":
            return min([UNSAFE] + [conv(d, src.e, unifying) for d in dst.es])
        return NONE
    if k == "object":
        if src.k == "object":
            if unifying:
                return _unify_objects(dst, src)[1]
            srcf = dict(src.fs)
            return min([SAFE] + [conv(d, srcf.get(n, NONE_T), unifying) for n, d in dst.fs])
        if src.k == "map":
            return min([UNSAFE] + [conv(d, src.e, unifying) for _, d in dst.fs])
        return NONE
    if k == "union":
        if any(m == src for m in dst.es):
            return SAFE
        return max(conv(m, src, unifying) for m in dst.es)
    if k == "output":
        if src.k == "output":
            return conv(dst.e, src.e, unifying)
        return conv(dst.e, src, unifying)
    raise ValueError(f"conversion to {dst}")


# ------------------------------------------------------------- unification

def _fold(types, start):
    acc, kind = types[0], start
    for t in types[1:]:
        acc, k = unify(acc, t)
        kind = min(kind, k)
    return acc, kind


def _unify_tuples(a, b):
    n = max(len(a.es), len(b.es))
    es, kind = [], SAFE
    for i in range(n):
        if i < len(a.es) and i < len(b.es):
            t, k = unify(a.es[i], b.es[i])
            kind = min(kind, k)
        else:
            t = optional(a.es[i] if i < len(a.es) else b.es[i])
        es.append(t)
    return tuple_of(es), kind


def _unify_objects(a, b):
    af, bf = dict(a.fs), dict(b.fs)
    fields, kind = {}, SAFE
    for n in set(af) | set(bf):
        if n in af and n in bf:
            t, k = unify(af[n], bf[n])
            kind = min(kind, k)
        else:
            t = optional(af.get(n) or bf.get(n))
        fields[n] = t
    return object_of(fields), kind


def _union_unify_to(a, b):
    if b.k == "union":
        return union(list(a.es) + list(b.es)), SAFE
    results = [unify(m, b) for m in a.es]
    return union([r[0] for r in results]), min(r[1] for r in results)


def unify(a, b):
    """The pairwise unification of a and b: (type, kind) (types.md §5.1)."""
    if a.k == "dyn":
        a, b = b, a
    if a == b:
        return a, SAFE
    if b.k == "dyn":
        return a, UNSAFE
    cf, ct = conv(a, b, True), conv(b, a, True)
    if cf < ct:
        return b, ct
    if cf > ct:
        return a, cf
    if cf == NONE:
        return union([a, b]), SAFE
    if b.k == "union":
        return _union_unify_to(b, a)
    if a.is_const():
        return a, conv(b, a, True)
    k = a.k
    if k in PRIMS:
        for p in ("string", "number", "int", "bool"):
            winner = Ty(p)
            if a == winner or b == winner:
                other = b if a == winner else a
                return winner, conv(winner, other, True)
    if k == "none":
        return NONE_T, conv(b, NONE_T, True)
    if k == "union":
        return _union_unify_to(a, b)
    if k == "output":
        if b.k == "output":
            t, kk = unify(a.e, b.e)
            return output(t), kk
        return a, conv(a, b, True)
    if k == "list":
        if b.k == "tuple":
            return (lambda r: (list_of(r[0]), r[1]))(_fold([a.e] + list(b.es), SAFE))
        if b.k == "list":
            t, kk = unify(a.e, b.e)
            return list_of(t), kk
        return a, cf
    if k == "tuple":
        if b.k == "tuple":
            return _unify_tuples(a, b)
        if b.k == "list":
            return (lambda r: (list_of(r[0]), r[1]))(_fold([b.e] + list(a.es), SAFE))
        return a, cf
    if k == "map":
        if b.k == "map":
            t, kk = unify(a.e, b.e)
            return map_of(t), kk
        if b.k == "object":
            return (lambda r: (map_of(r[0]), r[1]))(_fold([a.e] + [t for _, t in b.fs], SAFE))
        return a, cf
    if k == "object":
        if b.k == "map":
            return (lambda r: (map_of(r[0]), r[1]))(_fold([b.e] + [t for _, t in a.fs], SAFE))
        if b.k == "object":
            return _unify_objects(a, b)
        return a, cf
    return a, cf


def unify_types(types):
    """The safe result of UnifyTypes (types.md §5.2): what conditionals,
    try and iteration over tuples and objects use."""
    if not types:
        return NONE_T
    acc = types[0]
    for t in types[1:]:
        r, k = unify(acc, t)
        acc = r if k == SAFE else union([acc, t])
    return acc


def input_type(t):
    """InputType(t) (types.md §12): what a location of type t accepts,
    outputs at every level of lists, maps, objects and unions (not inside
    tuples)."""
    if t.k in ("dyn", "none", "output"):
        return t
    if t.k in ("list", "map"):
        src = Ty(t.k, e=input_type(t.e))
    elif t.k == "union":
        src = union([input_type(m) for m in t.es])
    elif t.k == "object":
        src = Ty("object", fs=[(n, input_type(x)) for n, x in t.fs])
    else:
        src = t
    return union([src, output(src)])


# ------------------------------------------------------------------ shapes

def strip_output(t):
    while t.k == "output":
        t = t.e
    return t


def shape(t):
    """What the generator may do with a value of type t: 'prim', 'list',
    'map', 'tuple', 'object', 'dyn' or 'opaque'."""
    t = strip_output(t)
    if t.k in PRIMS:
        return "prim"
    if t.k == "union":
        if all(strip_output(m).k in PRIMS for m in t.es):
            return "prim"
        return "opaque"
    if t.k in ("list", "map", "tuple", "object", "dyn"):
        return t.k
    return "opaque"


def lift(result, *parts):
    """result wrapped in output when a part's type holds an output, made
    standing when a part stands eventual somewhere in pclc."""
    if any(contains_output(p) for p in parts):
        return output(result)
    if any(contains_stand(p) for p in parts):
        return standing(result)
    return result


def traverse(t, step):
    """The type of one traversal step on t (types.md §6), or None when the
    generator must not take it.  step is ('attr', name), ('index', literal
    int) or ('key', None) for an index known only by its type."""
    ev = t.k == "output"
    u = strip_output(t)
    r = None
    if u.k == "dyn":
        r = DYN
    elif u.k == "list":
        if step[0] in ("index", "key"):
            r = u.e
    elif u.k == "map":
        if step[0] in ("attr", "key"):
            r = u.e
    elif u.k == "tuple":
        if step[0] == "index" and 0 <= step[1] < len(u.es):
            r = u.es[step[1]]
    elif u.k == "object":
        if step[0] == "attr":
            r = u.field(step[1])
    if r is None:
        return None
    if ev:
        return output(r)
    return standing(r) if t.stand else r


def collection_types(t):
    """(key type, value type) of iterating over t (types.md §7), or None
    when t is not iterable for the checker."""
    ev = contains_output(t) and t.k == "output"
    u = strip_output(t)
    if u.k == "list":
        return INT, u.e, ev
    if u.k == "map":
        return STRING, u.e, ev
    if u.k == "tuple":
        return INT, unified_elements(list(u.es)), ev
    if u.k == "object":
        return STRING, unified_elements([x for _, x in u.fs]), ev
    if u.k == "dyn":
        return DYN, DYN, ev
    return None


def unified_elements(types):
    """The element type of iterating over a tuple or object of the element
    types: their unification, standing when one of them stands."""
    t = unify_types(types)
    return standing(t) if any(x.stand for x in types) else t
