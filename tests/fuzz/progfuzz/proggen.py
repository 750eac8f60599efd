# proggen.py: whole random PCL programs with the values they must produce.
#
# generate(seed) returns a Program: the files to write (the program's .pp
# files, the .pp files of its local components in sub-directories, data
# files for readFile and friends, and mocks.json when invokes need answers),
# the command-line arguments of the run (names, config, secrets), the stack
# outputs the run must print, and the inputs every custom resource must be
# registered with.
#
# A program is a sequence of definitions, each using only earlier ones (so
# there are no cycles), written in a shuffled order and sometimes split over
# several files (a program is order independent, program.md §10.4):
#   config     typed or untyped, given on the command line (--config,
#              --secret) or taken from its default, sometimes secret;
#   local      any expression;
#   resource   simple, primitive, optionalprimitive or any-handled resources
#              of the conformance providers, whose inputs come from other
#              expressions and whose outputs (the embedded engine echoes the
#              inputs) feed later ones; with `range` (count, list, map, bool),
#              dependsOn, parent and __logicalName;
#   component  a local component in a sub-directory with its own config and
#              outputs, used once or with `range`;
#   invoke     any-type-function:index:dynListToDyn answered by mocks.json
#              with a value chosen here;
#   output     stack outputs of the definitions and of new expressions.
# The engine's behaviour the model relies on is docs/mocks.md and
# docs/snapshot.md: outputs echo inputs, the id is `<name>_id`, URNs are
# `urn:pulumi:<stack>::<project>::<qualified type>::<name>`.

import json
import random

from . import exprgen as X
from . import ptypes as T
from . import source as S
from . import values as V

PACKAGES = ["simple-2.0.0", "primitive-7.0.0", "optionalprimitive-34.0.0", "any-handled-42.0.0",
            "any-type-function-15.0.0"]

# Input properties of the resource types used: name -> schema type.
PRIMITIVE_PROPS = {"boolean": "bool", "float": "number", "integer": "int", "string": "string",
                   "numberArray": "list(number)", "booleanMap": "map(bool)"}
RESOURCE_TYPES = {
    "simple:index:Resource": ({"value": "bool"}, True),
    "primitive:index:Resource": (PRIMITIVE_PROPS, True),
    "optionalprimitive:index:Resource": (PRIMITIVE_PROPS, False),
    "any-handled:index:Resource": ({"value": "any"}, True),
}
INVOKE_TOKEN = "any-type-function:index:dynListToDyn"

# Names a program must not define: keywords, built-in functions (a call
# creates a dependency on a node of the same name, program.md §10.4) and
# the scope's own names.
RESERVED_NAMES = X.KEYWORDS | {
    "element", "entries", "length", "lookup", "join", "split", "range", "min", "max", "toJSON",
    "toBase64", "fromBase64", "sha1", "readFile", "filebase64", "filebase64sha256", "fileAsset",
    "stringAsset", "remoteAsset", "fileArchive", "remoteArchive", "assetArchive", "secret",
    "unsecret", "singleOrNone", "try", "can", "recover", "notImplemented", "getOutput", "stack",
    "project", "organization", "cwd", "rootDirectory", "pulumiResourceType",
    "pulumiResourceName", "invoke", "call", "pulumi", "options", "error"}

# Identifiers that stress a C emitter's naming: C keywords and library
# names, the runtime's and the generated code's prefixes, and spellings that
# collide under a careless mangling of `-`.
TRICKY_NAMES = ["int", "main", "static", "errno", "NULL", "char", "printf", "free", "exit",
                "pclu_a", "pclg_1", "pcl_main", "a__b", "a_2d_b", "a-b", "a_b", "x-", "_x",
                "self", "value", "register", "string", "default", "switch", "goto", "inline"]


class Program:
    """A generated program.  files: path -> bytes (relative to the program
    directory); entry: the path to give pclc ('main.pp' or '.'); args: the
    run's arguments; env: its PULUMI_CONFIG variables; outputs: name -> expected value; resources: (type,
    name) -> expected inputs; source_seed: the seed."""

    def __init__(self, seed):
        self.seed = seed
        self.files = {}
        self.entry = "main.pp"
        self.args = []
        self.outputs = {}
        self.resources = {}
        self.env = {}
        self.uses_mocks = False


def declaration_name(dirname):
    """The component type name of a source directory (program.md §5)."""
    words, cur = [], ""
    for c in dirname:
        if c in "-. ":
            words.append(cur)
            cur = ""
        else:
            cur += c
    words.append(cur)
    return "".join(w[:1].upper() + w[1:] for w in words if w)


class ProgramGen:
    """Generates one program from a seed.  avoid: names of features not to
    generate (known findings, see tests/fuzz/README.md)."""

    def __init__(self, seed, avoid=()):
        self.seed = seed
        self.rng = random.Random(seed)
        self.avoid = set(avoid)
        self.prog = Program(seed)
        self.names = set()
        self.counter = 0
        self.eg = X.ExprGen(self.rng, self)
        self.stack = self.rng.choice(["dev", "prod-1", "s_x", "test"])
        self.project = self.rng.choice(["fuzz", "my-proj", "p1", "proj_z"])
        self.org = self.rng.choice(["organization", "acme", "org-9"])
        self.rootdir = self.rng.choice(["/fuzz/root", "/tmp/nowhere-root"])
        self.mocks = []
        self.data_files = []
        self.resource_bindings = []
        self.config_file = {}
        self.config_env = {}
        self.secret_keys = []
        self.depth = self.rng.randint(2, 4)

    # ------------------------------------------------------------ names

    def fresh(self, style=None):
        """A new identifier, unique in the whole program."""
        while True:
            self.counter += 1
            r = self.rng.random()
            if style == "var":
                name = self.rng.choice(["x", "v", "k", "i", "e", "it", "el-"]) + str(self.counter)
            elif r < 0.6:
                name = self.rng.choice(["a", "b", "loc", "val", "my-thing", "cfg_", "z9", "data",
                                        "item-x", "Élan", "жук", "名"]) + str(self.counter)
            else:
                name = self.rng.choice(TRICKY_NAMES)
                if name in self.names:
                    name = name + str(self.counter)
            if name not in self.names and name not in RESERVED_NAMES:
                self.names.add(name)
                return name

    def fresh_var(self):
        return self.fresh("var")

    def fresh_key(self):
        self.counter += 1
        return self.rng.choice(["k", "key", "name", "a", "zz", "x_y", "with-dash"]) + str(self.counter)

    # ------------------------------------------------- run constants

    def info(self, name):
        return {"stack": self.stack, "project": self.project, "organization": self.org,
                "rootDirectory": self.rootdir}[name]

    def data_file(self):
        """A data file next to the program (path, bytes): created once, or
        one made earlier."""
        if self.data_files and self.chance(0.5):
            return self.rng.choice(self.data_files)
        self.counter += 1
        path = f"data-{self.counter}.txt"
        text = self.eg.string_text(maxlen=12) + self.rng.choice(["", "\n", "\r\nend"])
        data = text.encode("utf-8")
        self.prog.files[path] = data
        self.data_files.append((path, data))
        return path, data

    def data_dir(self):
        """A directory next to the program, holding one file (for
        fileArchive)."""
        path = "assets-dir"
        self.prog.files.setdefault(path + "/file.txt", b"archived\n")
        return path

    def chance(self, p):
        return self.rng.random() < p

    # ---------------------------------------------------------- driver

    def generate(self):
        inst = X.Inst(0, {}, "", None)
        ctx = X.Ctx([X.Env(inst)], {})
        blocks = []
        for _ in range(self.rng.randint(5, 16)):
            r = self.rng.random()
            if r < 0.4:
                blocks.append(self.local(ctx))
            elif r < 0.55:
                blocks.append(self.config(ctx, top=True))
            elif r < 0.82:
                blocks.append(self.resource(ctx))
            elif r < 0.9:
                blocks.append(self.component(ctx))
            else:
                blocks.append(self.invoke(ctx))
        blocks.extend(self.outputs(ctx, self.prog.outputs, self.rng.randint(3, 8)))
        self.write_program(blocks, "", main=True)
        if self.mocks:
            self.prog.files["mocks.json"] = json.dumps(
                {"invokes": {INVOKE_TOKEN: self.mocks}}, indent=2, ensure_ascii=False).encode()
            self.prog.uses_mocks = True
        if self.config_file:
            self.prog.files["config.json"] = json.dumps(self.config_file, ensure_ascii=False,
                                                        indent=2).encode()
            self.prog.args += ["--config-file", "config.json"]
        if self.config_env:
            self.prog.env["PULUMI_CONFIG"] = json.dumps(self.config_env, ensure_ascii=False)
        if self.secret_keys:
            self.prog.env["PULUMI_CONFIG_SECRET_KEYS"] = json.dumps(self.secret_keys)
        self.prog.args = ["--stack", self.stack, "--project", self.project,
                          "--organization", self.org, "--root-directory", self.rootdir] + \
            self.prog.args
        return self.prog

    def write_program(self, blocks, prefix, main):
        """Writes blocks as one or several .pp files under prefix."""
        if self.chance(0.6):
            self.rng.shuffle(blocks)
        nfiles = 1 if self.chance(0.6) else self.rng.randint(2, 3)
        files = [[] for _ in range(nfiles)]
        for b in blocks:
            files[self.rng.randrange(nfiles)].append(b)
        names = ["main.pp"] + [f"part{i}.pp" for i in range(1, nfiles)]
        for name, bs in zip(names, files):
            text = "".join(self.spacing() + b for b in bs)
            self.prog.files[prefix + name] = text.encode("utf-8")
        if main and nfiles > 1:
            self.prog.entry = "."

    def spacing(self):
        r = self.rng.random()
        if r < 0.7:
            return "\n"
        return self.rng.choice(["\n# a comment\n", "\n// another\n", "\n/* block\n comment */\n",
                                "\n\n"])

    # ----------------------------------------------------------- locals

    def local(self, ctx):
        name = self.fresh()
        want = self.rng.choice(["bool", "int", "num", "string", "string", "list", "list", "map",
                                "map", "any"])
        if want == "string" and self.chance(0.2):
            try:
                e = self.eg.heredoc(ctx, self.depth)
                ctx.scope[name] = X.Binding(name, "def", e.ty, e.fn)
                return f"{name} = {e.text}"
            except X.Reject:
                pass
        e = self.eg.gen(ctx, want, self.depth)
        ctx.scope[name] = X.Binding(name, "def", e.ty, e.fn)
        return f"{name} = {e.text}\n"

    # ----------------------------------------------------------- config

    def config_type(self):
        return self.rng.choice(["string", "int", "number", "bool", "list(int)", "list(string)",
                                "map(string)", "map(int)", "list(number)",
                                "object({a=int, b=string})", None])

    def config_static_type(self, label):
        prim = {"string": T.STRING, "int": T.INT, "number": T.NUMBER, "bool": T.BOOL}
        if label is None:
            return T.DYN
        if label in prim:
            return prim[label]
        if label.startswith("list("):
            return T.list_of(prim[label[5:-1]])
        if label.startswith("map("):
            return T.map_of(prim[label[4:-1]])
        return T.object_of({"a": T.optional(T.INT), "b": T.optional(T.STRING)})

    def random_config_value(self, label):
        """(command-line text, value) for a config of type label."""
        if label == "string":
            raw = self.eg.string_text(maxlen=10).replace("\x00", "")
            return raw, V.nfc(raw)
        if label == "int":
            _, v = self.eg.int_literal()
            v = -v if self.chance(0.2) else v
            return str(v), v
        if label == "number":
            if self.chance(0.5):
                i = self.rng.randint(-1000, 1000)
                return str(i), V.AmbNum(i)
            text, f = self.eg.number_literal()
            if "e" in text.lower():
                text, f = "0.125", 0.125
            return text, f
        if label == "bool":
            b = self.chance(0.5)
            forms = ["true", "True", "TRUE", "t", "T", "1"] if b else \
                ["false", "False", "FALSE", "f", "F", "0"]
            return self.rng.choice(forms), b
        if label is not None and label.startswith(("list(", "map(")):
            elem = label[label.index("(") + 1:-1]
            items = [self.random_config_value(elem) for _ in range(self.rng.randint(0, 3))]
            jitems = [self.json_of(elem, v) for _, v in items]
            if label.startswith("list("):
                return json.dumps(jitems, ensure_ascii=False), [v for _, v in items]
            keys = [self.fresh_key() for _ in items]
            return (json.dumps(dict(zip(keys, jitems)), ensure_ascii=False),
                    {k: v for k, (_, v) in zip(keys, items)})
        if label is not None:
            obj, val = {}, {"a": None, "b": None}
            keep = 1.0 if "config-object-missing" in self.avoid else 0.8
            if self.chance(keep):
                _, a = self.eg.int_literal()
                obj["a"], val["a"] = a, a
            if self.chance(keep):
                raw = self.eg.string_text(maxlen=6)
                obj["b"], val["b"] = raw, V.nfc(raw)
            return json.dumps(obj, ensure_ascii=False), val
        if self.chance(0.3):
            text = "plain text " + str(self.rng.randint(0, 9))
            return text, text
        v = self.random_value(2)
        return json.dumps(self.json_of(None, v), ensure_ascii=False), v

    def json_of(self, label, v):
        """The JSON form of a config value of type label."""
        if isinstance(v, V.AmbNum):
            return v.i
        if type(v) is list:
            return [self.json_of(None, x) for x in v]
        if type(v) is dict:
            return {k: self.json_of(None, x) for k, x in v.items()}
        return v

    def random_value(self, depth):
        """A random plain value (for untyped config and invoke results)."""
        r = self.rng.random()
        if depth <= 0 or r < 0.5:
            k = self.rng.choice(["int", "num", "string", "bool", "string"])
            if k == "int":
                return self.eg.int_literal()[1] * self.rng.choice([1, -1])
            if k == "num":
                return self.eg.number_literal()[1]
            if k == "bool":
                return self.chance(0.5)
            return V.nfc(self.eg.string_text(maxlen=6))
        if r < 0.75:
            return [self.random_value(depth - 1) for _ in range(self.rng.randint(0, 3))]
        return {self.fresh_key(): self.random_value(depth - 1) for _ in range(self.rng.randint(0, 3))}

    def config(self, ctx, top, name=None):
        """A config block.  At the top level its value comes from the
        command line or the default; returns the block text."""
        name = name or self.fresh()
        label = self.config_type()
        secret_block = self.chance(0.15)
        attrs = []
        ty = self.config_static_type(label)
        value = None
        from_cli = self.chance(0.6)
        if not from_cli:
            default, dval = self.config_default(ctx, label)
            attrs.append(f"default = {default}")
            value = dval
        logical = name
        if self.chance(0.1):
            logical = self.fresh()
            attrs.append(f"__logicalName = {S.label(logical, self.rng)}")
        if from_cli:
            text, value = self.random_config_value(label)
            secret_cli = self.chance(0.2)
            self.pass_config(logical, text, secret_cli)
            if secret_cli:
                value = V.Secret(value)
        if self.chance(0.3):
            attrs.append(f"description = {S.label('config ' + name, self.rng)}")
        if secret_block:
            attrs.append("secret = true")
            ty = T.output(ty)
            if not isinstance(value, V.Secret):
                value = V.Secret(value)
        # pclc computes every config eventual: the run may make it secret.
        ty = T.standing(ty)
        ctx.scope[name] = X.Binding(name, "def", ty, lambda env, v=value: v)
        head = f"config {self.block_name(name)}" + (f" {S.label(label, self.rng)}" if label else "")
        if self.chance(0.3) and len(attrs) <= 1 and all("\n" not in a for a in attrs):
            return head + " { " + "".join(attrs) + " }\n"
        return head + " {\n" + "".join("  " + a + "\n" for a in attrs) + "}\n"

    def pass_config(self, name, text, secret):
        """Gives the run the config value text for name, through a flag
        (--config, --secret), the config file or PULUMI_CONFIG
        (docs/program-cli.md)."""
        r = self.rng.random()
        full = f"{self.project}:{name}"
        if r < 0.6:
            key = name if self.chance(0.7) else full
            self.prog.args += ["--secret" if secret else "--config", f"{key}={text}"]
        elif r < 0.8:
            entry = {"value": text, "secret": True} if secret else text
            self.config_file[full] = entry
        else:
            self.config_env[full] = text
            if secret:
                self.secret_keys.append(full)

    def block_name(self, name):
        return name if self.chance(0.6) else S.label(name, self.rng)

    def config_default(self, ctx, label):
        """(source, value) of a default for a config of type label, from an
        expression of the program converted to the declared type."""
        if label in ("string", "int", "number", "bool"):
            want = {"string": "string", "int": "int", "number": "num", "bool": "bool"}[label]
            for _ in range(5):
                e = self.eg.gen(ctx, want, self.depth - 1)
                try:
                    return e.text, V.convert(e.vals[0], label)
                except V.Ambiguous:
                    continue
            return self.simple_literal(label)
        if label is None:
            e = self.eg.gen(ctx, "any", self.depth - 1)
            return e.text, e.vals[0]
        if label.startswith(("list(", "map(")):
            elem = label[label.index("(") + 1:-1]
            want = {"string": "string", "int": "int", "number": "num", "bool": "bool"}[elem]
            items, vals = [], []
            for _ in range(self.rng.randint(0, 3)):
                e = self.eg.gen(ctx, want, 1)
                try:
                    vals.append(V.convert(e.vals[0], elem))
                    items.append(e)
                except V.Ambiguous:
                    continue
            if label.startswith("list("):
                return "[" + ", ".join(i.text for i in items) + "]", vals
            keys = [self.fresh_key() for _ in items]
            return ("{" + ", ".join(f"{k} = {i.text}" for k, i in zip(keys, items)) + "}",
                    dict(zip(keys, vals)))
        a = self.eg.gen(ctx, "int", 1)
        b = self.eg.gen(ctx, "string", 1)
        return f"{{a = {a.text}, b = {b.text}}}", {"a": a.vals[0], "b": b.vals[0]}

    def simple_literal(self, label):
        """(source, value) of a small literal of the primitive type label."""
        if label == "string":
            return '"s"', "s"
        if label == "bool":
            return "true", True
        n = self.rng.randint(0, 9)
        return str(n), (V.AmbNum(n) if label == "number" else n)

    # ------------------------------------------------------- resources

    def input_expr(self, ctx, ptype):
        """(source, per-env converted values) of a resource input of schema
        type ptype."""
        eg = self.eg
        if ptype == "any":
            e = eg.asset(ctx, self.depth) if self.chance(0.1) else eg.gen(ctx, "any", self.depth)
            return e, [v for v in e.vals]
        if ptype in ("bool", "int", "number", "string"):
            if ptype == "string" and self.chance(0.2):
                e = eg.gen(ctx, self.rng.choice(["int", "bool"]), self.depth)
            elif ptype == "bool" and self.chance(0.1):
                b = self.chance(0.5)
                e = eg.make(ctx, '"true"' if b else '"false"', X.P_PRIMARY, T.STRING,
                            lambda env, b=b: "true" if b else "false")
            else:
                e = eg.gen(ctx, {"bool": "bool", "int": "int", "number": "num",
                                 "string": "string"}[ptype], self.depth)
            if T.shape(e.ty) not in ("prim", "dyn"):
                raise X.Reject("input is not primitive")
            converted = [V.convert(v, ptype) for v in e.vals]
            if not self.conversion_ok(e, converted):
                raise X.Reject("conversion of a value not typed as a primitive (known finding)")
            return e, converted
        elem = ptype[ptype.index("(") + 1:-1]
        want = "num" if elem == "number" else "bool"
        if ptype.startswith("list("):
            e = self.list_of(ctx, want)
            return e, [convert_items(v, elem) for v in e.vals]
        e = self.map_of(ctx, want)
        return e, [convert_items(v, elem) for v in e.vals]

    def conversion_ok(self, e, converted):
        """Whether the program may rely on converting e's values to
        `converted` at a typed location.  pclc converts only what its static
        type says is a primitive (known finding dynamic-conversion); as the
        generator's types can be less precise than pclc's (pclc may find a
        union where the generator finds a number), it then converts only
        literals, references and templates whose values have the kind their
        static type says, on which the two agree."""
        if "dynamic-conversion" not in self.avoid:
            return True
        if all(V.kind(V.strip(c)) == V.kind(V.strip(v)) for c, v in zip(converted, e.vals)):
            return True
        static = T.strip_output(e.ty).k
        kinds = {"bool": ("bool",), "string": ("string",), "int": ("int",),
                 "number": ("number", "amb", "int")}.get(static, ())
        return e.prec == X.P_PRIMARY and not e.text.startswith("(") and \
            all(V.kind(V.strip(v)) in kinds for v in e.vals)

    def list_of(self, ctx, want):
        eg = self.eg
        if self.chance(0.5):
            items = [eg.gen(ctx, want, self.depth - 1) for _ in range(self.rng.randint(0, 3))]
            if any(T.shape(i.ty) != "prim" for i in items):
                raise X.Reject("element not primitive")
            return eg.make(ctx, "[" + ", ".join(i.text for i in items) + "]", X.P_PRIMARY,
                           T.tuple_of([i.ty for i in items]),
                           lambda env, items=items: [i.fn(env) for i in items])
        coll = eg.collection(ctx, self.depth - 1, "list")
        kt, vt, _ = T.collection_types(coll.ty)
        valname = self.fresh_var()
        envs, binds = eg.loop_envs(ctx, coll, None, valname, kt, vt)
        body = eg.gen(ctx.with_vars(envs, binds), want, self.depth - 1)
        if T.shape(body.ty) != "prim":
            raise X.Reject("element not primitive")
        fn = eg.for_fn(coll, None, valname, body, None, None, False)
        return eg.make(ctx, f"[for {valname} in {coll.text} : {body.text}]", X.P_PRIMARY,
                       T.list_of(body.ty), fn)

    def map_of(self, ctx, want):
        eg = self.eg
        items = [(self.fresh_key(), eg.gen(ctx, want, self.depth - 1))
                 for _ in range(self.rng.randint(0, 3))]
        if any(T.shape(i.ty) != "prim" for _, i in items):
            raise X.Reject("value not primitive")
        return eg.make(ctx, "{" + ", ".join(f"{k} = {i.text}" for k, i in items) + "}", X.P_PRIMARY,
                       T.object_of({k: i.ty for k, i in items}),
                       lambda env, items=items: {k: i.fn(env) for k, i in items})

    def resource_static_type(self, rtype):
        props, required = RESOURCE_TYPES[rtype]
        fields = {"id": T.output(T.STRING), "urn": T.output(T.STRING)}
        for p, pt in props.items():
            if pt == "any":
                t = T.DYN
            elif pt.startswith("list("):
                t = T.list_of(T.NUMBER)
            elif pt.startswith("map("):
                t = T.map_of(T.BOOL)
            else:
                t = {"bool": T.BOOL, "int": T.INT, "number": T.NUMBER, "string": T.STRING}[pt]
            fields[p] = T.output(t if required else T.optional(t))
        return T.object_of(fields)

    def range_option(self, ctx):
        """(kind, expression) of a `range` option, or (None, None)."""
        r = self.rng.random()
        eg = self.eg
        for _ in range(6):
            try:
                if r < 0.3:
                    e = eg.gen(ctx, "int", 1)
                    if all(0 <= V.strip(v) <= 3 for v in e.vals) and \
                            T.conv(T.NUMBER, T.resolve_outputs(e.ty)) == T.SAFE and \
                            all(V.secrecy(v) == "no" for v in e.vals):
                        return "count", e
                elif r < 0.55:
                    e = eg.gen(ctx, "list", 2)
                    if all(len(V.strip(v)) <= 3 for v in e.vals) and self.collection_range_ok(e):
                        return "list", e
                elif r < 0.8:
                    e = eg.gen(ctx, "map", 2)
                    if all(len(V.strip(v)) <= 3 for v in e.vals) and self.collection_range_ok(e):
                        return "map", e
                else:
                    e = eg.gen(ctx, "bool", 1)
                    if T.conv(T.BOOL, T.resolve_outputs(e.ty)) == T.SAFE and \
                            all(V.secrecy(v) == "no" for v in e.vals):
                        return "bool", e
            except X.Reject:
                pass
            r = self.rng.random()
        return None, None

    def collection_range_ok(self, e):
        t = T.resolve_outputs(e.ty)
        if T.conv(T.BOOL, t) == T.SAFE or T.conv(T.NUMBER, t) == T.SAFE:
            return False
        if T.collection_types(e.ty) is None or T.shape(e.ty) == "dyn":
            return False
        return all(V.secrecy(v) == "no" for v in e.vals)

    def resource(self, ctx):
        rtype = self.rng.choice(sorted(RESOURCE_TYPES))
        props, required = RESOURCE_TYPES[rtype]
        name = self.fresh()
        logical = name
        lines = []
        if self.chance(0.1):
            logical = self.fresh() + self.rng.choice(["", " with space", ".dot"])
            lines.append(f"__logicalName = {S.label(logical, self.rng)}")
        rkind, rexpr = (None, None)
        if self.chance(0.35):
            rkind, rexpr = self.range_option(ctx)
        # The instances of the resource in each environment of ctx: a list
        # of (suffix, range value) per environment.
        inst_ctx_envs, inst_keys = [], []
        for i, env in enumerate(ctx.envs):
            insts = self.range_instances(rkind, V.strip(rexpr.vals[i]) if rexpr else None)
            for suffix, rv in insts:
                inst_keys.append((i, suffix))
                inst_ctx_envs.append(env.bind({"range": rv}) if rv is not None else env)
        rctx = X.Ctx(inst_ctx_envs, dict(ctx.scope))
        self.bind_range(rctx, rkind, rexpr)
        inputs = {}
        for p, pt in props.items():
            if not required and self.chance(0.3):
                continue
            for _ in range(4):
                try:
                    e, vals = self.input_expr(rctx, pt)
                    break
                except (X.Reject, V.Ambiguous):
                    continue
            else:
                e = self.fallback_input(rctx, pt)
                vals = [V.convert(v, pt) if pt in ("bool", "int", "number", "string") else v
                        for v in e.vals]
            inputs[p] = (e, vals)
            lines.append(f"{p} = {e.text}")
        options = []
        if rexpr is not None:
            options.append(f"range = {rexpr.text}")
        deps = [b for b in self.resource_bindings if b.info["rkind"] is None]
        if deps and self.chance(0.2):
            chosen = self.rng.sample(deps, min(len(deps), self.rng.randint(1, 2)))
            options.append("dependsOn = [" + ", ".join(b.name for b in chosen) + "]")
        parent = None
        if deps and self.chance(0.15) and len(ctx.envs) == 1 and ctx.envs[0].inst.ident == 0:
            parent = self.rng.choice(deps)
            options.append(f"parent = {parent.name}")
        if options:
            lines.append("options {\n" + "".join("    " + o + "\n" for o in options) + "  }")
        # Values: per environment of ctx, the resource object(s).
        per_env = {}
        for idx, (ei, suffix) in enumerate(inst_keys):
            env = inst_ctx_envs[idx]
            inst = env.inst
            lname = inst.prefix + logical + (f"-{suffix}" if suffix is not None else "")
            qual = rtype
            if parent is not None:
                qual = parent.info["qual"] + "$" + rtype
            elif inst.parent_type:
                qual = inst.parent_type + "$" + rtype
            ins = {p: vals[idx] for p, (e, vals) in inputs.items()}
            self.prog.resources[(rtype, lname)] = ins
            obj = {"id": lname + "_id",
                   "urn": f"urn:pulumi:{self.stack}::{self.project}::{qual}::{lname}"}
            for p in props:
                obj[p] = V.through_engine(ins[p]) if p in ins else None
            per_env.setdefault(ei, []).append((suffix, obj))
        values = []
        for i in range(len(ctx.envs)):
            objs = per_env.get(i, [])
            if rkind is None:
                values.append(objs[0][1])
            elif rkind == "bool":
                values.append(objs[0][1] if objs else None)
            elif rkind == "map":
                values.append({s: o for s, o in objs})
            else:
                values.append([o for _, o in objs])
        sty = ranged_type(T.standing(self.resource_static_type(rtype)), rkind, rexpr)
        envs = list(ctx.envs)
        b = X.Binding(name, "resource", sty,
                      lambda env, envs=envs, values=values: values[_env_index(envs, env)],
                      {"rkind": rkind, "type": rtype, "props": props, "required": required,
                       "qual": rtype if parent is None else parent.info["qual"] + "$" + rtype,
                       "values": values, "envs": envs})
        ctx.scope[name] = b
        self.resource_bindings.append(b)
        body = "".join("  " + line + "\n" for line in lines)
        return f"resource {self.block_name(name)} {S.label(rtype, self.rng)} {{\n{body}}}\n"

    def bind_range(self, ctx, rkind, rexpr):
        """Puts the `range` variable of a ranged block in ctx's scope: an
        object with `value` (count) or `key` and `value` (collections); a
        bool range binds nothing (program.md §3.5)."""
        if rkind in (None, "bool"):
            return
        if rkind == "count":
            rty = T.object_of({"value": T.INT})
        else:
            kt, vt, _ = T.collection_types(rexpr.ty)
            # The instances are made once the range settles at the top: the
            # elements of a range that stands eventual stand eventual too.
            if T.eventual_top(rexpr.ty):
                vt = T.standing(vt)
            rty = T.object_of({"key": kt, "value": vt})
        ctx.scope["range"] = X.Binding("range", "range", rty, lambda env: env.vars["range"])

    def fallback_input(self, ctx, ptype):
        eg = self.eg
        if ptype in ("bool", "int", "number", "string", "any"):
            text, v = self.simple_literal("string" if ptype == "any" else ptype)
            ty = {"bool": T.BOOL, "string": T.STRING, "any": T.STRING}.get(ptype, T.INT)
            return eg.make(ctx, text, X.P_PRIMARY, ty, lambda env, v=v: v)
        return eg.make(ctx, "[]" if ptype.startswith("list(") else "{}", X.P_PRIMARY,
                       T.tuple_of([]) if ptype.startswith("list(") else T.object_of({}),
                       lambda env, l=ptype.startswith("list("): [] if l else {})

    def range_instances(self, rkind, rv):
        """(name suffix, value bound to `range`) of each instance."""
        if rkind is None:
            return [(None, None)]
        if rkind == "bool":
            return [(None, None)] if V.to_bool(rv) else []
        if rkind == "count":
            return [(str(i), {"value": i}) for i in range(rv)]
        if rkind == "list":
            return [(str(i), {"key": i, "value": v}) for i, v in enumerate(rv)]
        return [(k, {"key": k, "value": rv[k]}) for k in V.sorted_keys(rv)]

    # ---------------------------------------------- references to nodes

    def output_ref(self, ctx, want, eg):
        """A reference into a resource or component: r.prop, r[0].id,
        r["k"].value, c.out, ... of kind want, or Reject."""
        cands = [b for b in ctx.scope.values() if b.kind in ("resource", "component")]
        if not cands:
            raise X.Reject("no resource in scope")
        b = self.rng.choice(cands)
        base = eg.make(ctx, b.name, X.P_PRIMARY, b.ty, b.fn)
        rkind = b.info["rkind"]
        if rkind in ("count", "list", "map"):
            base = eg.step(ctx, base, "map", 2)
        elif rkind == "bool":
            if not all(v is not None for v in base.vals):
                raise X.Reject("conditional resource absent")
        if b.kind == "resource" and want == "string" and self.chance(0.2) and rkind is None:
            fname = self.rng.choice(["pulumiResourceName", "pulumiResourceType"])

            def fn(env, base=base, fname=fname, b=b):
                r = base.fn(env)
                o = V.strip(r)
                v = b.info["type"] if fname == "pulumiResourceType" else \
                    o["urn"].rsplit("::", 1)[1]
                # The function reads only the resource's name or type, but
                # its argument is the whole resource: whether the secrets of
                # its outputs reach the result (functions.md §11: functions
                # propagate their arguments' secrets) is not pinned down.
                return V.SecretUnspec(v) if V.secrecy(r) != "no" else v
            return eg.call(ctx, fname, [base], T.STRING, fn)
        fields = b.info["fields"] if b.kind == "component" else \
            ["id", "urn"] + sorted(b.info["props"])
        name = self.rng.choice(fields)
        if rkind == "bool":
            if b.kind == "component":
                fty = b.info["ftypes"][name]
            else:
                fty = self.resource_static_type(b.info["type"]).field(name)
            e = eg.make(ctx, f"{b.name}.{name}", X.P_POST, T.optional(fty),
                        lambda env, base=base, name=name: X.index_value(base.fn(env), name))
        else:
            e = self.attr(ctx, eg, base, name)
        if not X.fits(e, want):
            raise X.Reject("reference of another kind")
        return e

    def absent_ref(self, ctx, eg, want):
        """r.prop of kind want for a resource or component whose bool range
        is false in some environment (it fails there), or Reject."""
        cands = [b for b in ctx.scope.values() if b.kind in ("resource", "component") and
                 b.info["rkind"] == "bool" and any(b.fn(env) is None for env in ctx.envs)]
        if not cands:
            raise X.Reject("no absent resource")
        b = self.rng.choice(cands)
        base = eg.make(ctx, b.name, X.P_PRIMARY, b.ty, b.fn)
        fields = b.info["fields"] if b.kind == "component" else ["id", "urn"] + sorted(b.info["props"])

        def field_type(name):
            if b.kind == "component":
                return b.info["ftypes"][name]
            return self.resource_static_type(b.info["type"]).field(name)
        # The checker takes the attribute where want is asked for only when
        # its type is of that kind (an && operand must be a bool).
        fields = [n for n in fields if static_kind_fits(field_type(n), want)]
        if not fields:
            raise X.Reject("no attribute of the kind asked for")
        name = self.rng.choice(fields)
        fty = field_type(name)
        return eg.make(ctx, f"{b.name}.{name}", X.P_POST, T.optional(fty),
                       lambda env, base=base, name=name: X.index_value(base.fn(env), name),
                       may_fail=True)

    def attr(self, ctx, eg, base, name):
        ty = T.traverse(base.ty, ("attr", name))
        if ty is None:
            raise X.Reject("no such attribute")
        return eg.make(ctx, X.paren(base, X.P_POST) + "." + name, X.P_POST, ty,
                       lambda env, base=base, name=name: X.index_value(base.fn(env), name))

    # ------------------------------------------------------ components

    def component(self, ctx):
        """A local component in its own directory, used once or with
        range, in the top-level program."""
        dirname = self.rng.choice(["comp", "my-comp", "web.server", "child_mod", "x"]) + \
            str(self.counter + 1)
        self.counter += 1
        qual = "components:index:" + declaration_name(dirname)
        name = self.fresh()
        rkind, rexpr = (None, None)
        if self.chance(0.4):
            rkind, rexpr = self.range_option(ctx)
        env0 = ctx.envs[0]
        insts_def = self.range_instances(rkind, V.strip(rexpr.vals[0]) if rexpr else None)
        # The component's configs: (name, label, default source, default value).
        configs = []
        for _ in range(self.rng.randint(1, 3)):
            cname = self.fresh()
            label = self.rng.choice(["string", "int", "number", "bool", "list(int)", "map(string)",
                                     None])
            dflt = None
            if self.chance(0.4):
                empty = X.Ctx([X.Env(X.Inst(-1, {}, "", None))], {})
                dflt = self.config_default(empty, label)
            configs.append((cname, label, dflt))
        # The inputs given by the parent, evaluated per instance.
        rctx_envs = [env0.bind({"range": rv}) if rv is not None else env0 for _, rv in insts_def]
        rctx = X.Ctx(rctx_envs, dict(ctx.scope))
        self.bind_range(rctx, rkind, rexpr)
        lines, given = [], {}
        for cname, label, dflt in configs:
            if dflt is not None and self.chance(0.5):
                continue
            want = {"string": "string", "int": "int", "number": "num", "bool": "bool",
                    None: "any"}.get(label, "list" if label and label.startswith("list") else "map")
            for _ in range(4):
                try:
                    if label in ("list(int)",):
                        e = self.list_of(rctx, "int")
                    elif label == "map(string)":
                        e = self.map_of(rctx, "string")
                    else:
                        e = self.eg.gen(rctx, want, self.depth - 1)
                    vals = [convert_config(v, label) for v in e.vals]
                    break
                except (X.Reject, V.Ambiguous):
                    continue
            else:
                e = self.eg.p_literal(rctx, "string" if want in ("any",) else want, 0) \
                    if want not in ("list", "map") else \
                    self.eg.make(rctx, "[]" if want == "list" else "{}", X.P_PRIMARY,
                                 T.tuple_of([]) if want == "list" else T.object_of({}),
                                 lambda env, w=want: [] if w == "list" else {})
                vals = [convert_config(v, label) for v in e.vals]
            given[cname] = vals
            lines.append(f"{cname} = {e.text}")
        if rexpr is not None:
            lines.append(f"options {{\n    range = {rexpr.text}\n  }}")
        # The instances.
        insts = []
        for i, (suffix, _) in enumerate(insts_def):
            iname = name + (f"-{suffix}" if suffix is not None else "")
            cfg = {}
            for cname, label, dflt in configs:
                cfg[cname] = given[cname][i] if cname in given else dflt[1]
            self.counter += 1
            insts.append(X.Inst(self.counter, cfg, iname + "-", qual))
        # The component's own program, evaluated in every instance.
        cctx = X.Ctx([X.Env(inst) for inst in insts], {})
        blocks = []
        for cname, label, dflt in configs:
            ty = T.standing(self.config_static_type(label))
            cctx.scope[cname] = X.Binding(cname, "def", ty,
                                          lambda env, n=cname: env.inst.config[n])
            head = f"config {cname}" + (f" {S.label(label, self.rng)}" if label else "")
            blocks.append(head + (f" {{\n  default = {dflt[0]}\n}}\n" if dflt else " {}\n"))
        saved = self.resource_bindings
        self.resource_bindings = []
        for _ in range(self.rng.randint(1, 4)):
            if self.chance(0.5):
                blocks.append(self.resource(cctx))
            else:
                blocks.append(self.local(cctx))
        self.resource_bindings = saved
        outs = {}
        blocks.extend(self.outputs(cctx, outs, self.rng.randint(1, 3), per_instance=True))
        self.write_program(blocks, dirname + "/", main=False)
        fields = sorted(outs)
        ofields = {n: T.output(outs[n][0]) for n in fields}
        per_inst = [{n: V.through_engine(outs[n][1][i]) for n in fields} for i in range(len(insts))]
        if rkind is None:
            value = per_inst[0]
        elif rkind == "bool":
            value = per_inst[0] if per_inst else None
        elif rkind == "map":
            value = {s: per_inst[i] for i, (s, _) in enumerate(insts_def)}
        else:
            value = per_inst
        sty = ranged_type(T.standing(T.object_of(ofields)), rkind, rexpr)
        b = X.Binding(name, "component", sty, lambda env, v=value: v,
                      {"rkind": rkind, "fields": fields, "ftypes": ofields})
        ctx.scope[name] = b
        body = "".join("  " + line + "\n" for line in lines)
        return f"component {name} {S.label('./' + dirname, self.rng)} {{\n{body}}}\n"

    # ---------------------------------------------------------- invokes

    def invoke(self, ctx):
        """name = invoke(dynListToDyn, {inputs = [...]}), answered by a mock
        whose args are the inputs' values."""
        name = self.fresh()
        self.counter += 1
        tag = f"invoke-{self.counter}"
        items = []
        for _ in range(self.rng.randint(0, 2)):
            e = self.eg.gen(ctx, self.rng.choice(["int", "string", "bool", "list"]), self.depth - 1)
            if V.secrecy(e.vals[0]) != "no" or has_amb(e.vals[0]) or T.shape(e.ty) == "opaque":
                continue
            if has_float(e.vals[0]):
                # A mock's JSON holds a double as text that may read back as
                # an int (1e+19); only ints, strings and bools match surely.
                continue
            items.append(e)
        result = self.random_value(2)
        if self.chance(0.2):
            result = V.Secret(result)
        args = [tag] + [V.strip(i.vals[0]) for i in items]
        self.mocks.append({"args": {"inputs": args},
                           "result": {"result": encode_value(result)}})
        value = {"result": V.through_engine(result)}
        text = f'invoke("{INVOKE_TOKEN}", {{inputs = ["{tag}"' + \
            "".join(", " + i.text for i in items) + "]})"
        ctx.scope[name] = X.Binding(name, "def", T.output(T.object_of({"result": T.DYN})),
                                    lambda env, v=value: v)
        return f"{name} = {text}\n"

    # ---------------------------------------------------------- outputs

    def outputs(self, ctx, store, n, per_instance=False):
        """n output blocks: references to definitions and new expressions.
        store receives exported name -> value, or -> (type, values) for the
        outputs of a component (per_instance)."""
        blocks = []
        defs = [b for b in ctx.scope.values() if b.kind == "def"]
        for _ in range(n):
            name = self.fresh()
            if defs and self.chance(0.5):
                e = self.eg.make_ref(ctx, self.rng.choice(defs))
            elif self.chance(0.1):
                e = self.eg.asset(ctx, self.depth)
            else:
                e = self.eg.gen(ctx, self.rng.choice(["bool", "int", "num", "string", "list",
                                                      "map", "any"]), self.depth)
            if any(V.strip(v) is None for v in e.vals):
                continue
            label, ty, vals = self.output_type(e)
            exported, attrs = name, []
            if not per_instance and self.chance(0.1):
                exported = self.fresh()
                attrs.append(f"__logicalName = {S.label(exported, self.rng)}")
            attrs.append(f"value = {e.text}")
            store[exported] = (ty, vals) if per_instance else vals[0]
            head = f"output {self.block_name(name)}" + (f" {S.label(label, self.rng)}" if label else "")
            if len(attrs) == 1 and "\n" not in e.text and self.chance(0.5):
                blocks.append(f"{head} {{ {attrs[0]} }}\n")
            else:
                blocks.append(head + " {\n" + "".join(f"  {a}\n" for a in attrs) + "}\n")
        return blocks

    def output_type(self, e):
        """(type label or None, static type, values) of an output of e:
        sometimes typed "string" or "number", its values converted."""
        if self.chance(0.15) and T.shape(e.ty) == "prim":
            label = self.rng.choice(["string", "number"])
            try:
                vals = [V.convert(v, label) for v in e.vals]
            except (V.Ambiguous, V.EvalError):
                return None, e.ty, e.vals
            if self.conversion_ok(e, vals):
                return label, self.config_static_type(label), vals
        return None, e.ty, e.vals


def static_kind_fits(t, want):
    """Whether a value of static type t (seen through outputs and null) is
    of the kind want by its type, as the checker sees it (dynamic fits any)."""
    u = T.resolve_outputs(t)
    members = [m for m in (u.es if u.k == "union" else [u]) if m.k != "none"]
    if want == "any" or any(m.k == "dyn" for m in members):
        return True
    kinds = {"bool": ("bool",), "int": ("int",), "num": ("int", "number"), "string": ("string",),
             "prim": T.PRIMS, "list": ("list", "tuple"), "map": ("map", "object")}[want]
    return bool(members) and all(m.k in kinds for m in members)


def ranged_type(t, rkind, rexpr):
    """The type of a resource or component of instance type t with a range
    of kind rkind (None: no range): pclc makes the instances once the range
    expression rexpr settles, so the whole stands eventual when it does."""
    if rkind is None:
        return t
    if rkind == "bool":
        # An optional resource stands eventual as the resource does.
        return T.standing(T.optional(t))
    if rkind == "map":
        r = T.map_of(t)
    else:
        r = T.list_of(t)
    return T.standing(r) if T.eventual_top(rexpr.ty) else r


def _env_index(envs, env):
    """The index of the environment of envs whose instance env runs in."""
    for i, e in enumerate(envs):
        if e.inst is env.inst:
            return i
    raise KeyError("environment of another instance")


def convert_items(v, elem):
    """A list or map value with each element converted to elem."""
    state, inner = V.top(v)
    if type(inner) is list:
        out = [V.convert(x, elem) for x in inner]
    else:
        out = {k: V.convert(x, elem) for k, x in inner.items()}
    return V.rewrap(state, out) if state != "no" else out


def convert_config(v, label):
    """A component input converted to its config type."""
    if label is None:
        return v
    if label in ("string", "int", "number", "bool"):
        return V.convert(v, label)
    return convert_items(v, label[label.index("(") + 1:-1])


def has_amb(v):
    v = V.strip(v)
    if isinstance(v, V.AmbNum):
        return True
    if type(v) is list:
        return any(has_amb(x) for x in v)
    if type(v) is dict:
        return any(has_amb(x) for x in v.values())
    return False


def has_float(v):
    v = V.strip(v)
    if type(v) is float:
        return True
    if type(v) is list:
        return any(has_float(x) for x in v)
    if type(v) is dict:
        return any(has_float(x) for x in v.values())
    return False


def encode_value(v):
    """v in the snapshot value encoding (docs/snapshot.md), for mocks."""
    if isinstance(v, V.Secret):
        return {"secret": encode_value(v.v)}
    if type(v) is list:
        return [encode_value(x) for x in v]
    if type(v) is dict:
        return {k: encode_value(x) for k, x in v.items()}
    return v


def generate(seed, avoid=()):
    return ProgramGen(seed, avoid).generate()
