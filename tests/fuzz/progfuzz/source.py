# source.py: PCL source text for literals and templates, and the value of a
# template given the values of its interpolations.
#
# A template is a list of parts:
#   Lit(text)                          literal text, as a value (escapes are
#                                      chosen when it is written);
#   Interp(expr, strip_l, strip_r)     ${expr}, with ${~ and ~} markers;
#   If(cond, then, els, strips)        %{if}...%{else}...%{endif};
#   For(key, val, coll, body, strips)  %{for k, v in coll}...%{endfor}.
# `expr`, `cond` and `coll` are the generator's expressions (exprgen.E): an
# object with `text` and with `fn(env)` giving its value.
#
# Strip markers act on the one literal token next to them (syntax.md §2.8,
# §3.2): in a heredoc every line break ends a token; in a quoted template a
# literal is one token as long as it holds no lone `$` or `%`, which the
# generator guarantees for literals next to a strip marker.  Flush heredocs
# (`<<-`) remove the smallest indentation of the line-leading literals
# (syntax.md §2.7); the generator writes them without directives.

from . import values as V

# Go's unicode.IsSpace, which decides what a strip marker removes.
GO_SPACE = set("\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
               "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def go_lstrip(s):
    i = 0
    while i < len(s) and s[i] in GO_SPACE:
        i += 1
    return s[i:]


def go_rstrip(s):
    i = len(s)
    while i > 0 and s[i - 1] in GO_SPACE:
        i -= 1
    return s[:i]


class Lit:
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


class Interp:
    __slots__ = ("expr", "strip_l", "strip_r")

    def __init__(self, expr, strip_l=False, strip_r=False):
        self.expr, self.strip_l, self.strip_r = expr, strip_l, strip_r


class If:
    """strips: (if_l, if_r, else_l, else_r, end_l, end_r)."""
    __slots__ = ("cond", "then", "els", "strips")

    def __init__(self, cond, then, els, strips):
        self.cond, self.then, self.els, self.strips = cond, then, els, strips


class For:
    """strips: (for_l, for_r, end_l, end_r)."""
    __slots__ = ("key", "val", "coll", "body", "strips")

    def __init__(self, key, val, coll, body, strips):
        self.key, self.val, self.coll, self.body, self.strips = key, val, coll, body, strips


def _opens_strip(p):
    """Whether part p strips the literal before it."""
    if isinstance(p, Interp):
        return p.strip_l
    if isinstance(p, If):
        return p.strips[0]
    if isinstance(p, For):
        return p.strips[0]
    return False


def _closes_strip(p):
    """Whether part p strips the literal after it."""
    if isinstance(p, Interp):
        return p.strip_r
    if isinstance(p, If):
        return p.strips[5]
    if isinstance(p, For):
        return p.strips[3]
    return False


def expressions(parts):
    """Every expression of a template: interpolations, directive conditions
    and collections, at any depth (they all lift its type, types.md §9)."""
    out = []
    for p in parts:
        if isinstance(p, Interp):
            out.append(p.expr)
        elif isinstance(p, If):
            out.append(p.cond)
            out += expressions(p.then) + (expressions(p.els) if p.els else [])
        elif isinstance(p, For):
            out.append(p.coll)
            out += expressions(p.body)
    return out


# ----------------------------------------------------------------- tokens

def tokens(text, heredoc):
    """The literal tokens the lexer makes of text (syntax.md §2.8)."""
    if not heredoc:
        return [text]
    out, cur = [], []
    for c in text:
        cur.append(c)
        if c == "\n":
            out.append("".join(cur))
            cur = []
    if cur or not out:
        out.append("".join(cur))
    return out


# ------------------------------------------------------------------ values

class TemplateValue:
    """Accumulates a template's text and the values it consumed (for the
    secret rule)."""

    def __init__(self):
        self.pieces = []
        self.consumed = []


def evaluate(parts, env, heredoc, lead=False, trail=False, acc=None):
    """The text of parts under env.  lead and trail say whether the marker
    just before (after) the parts strips their first (last) literal token."""
    acc = acc or TemplateValue()
    n = len(parts)
    for i, p in enumerate(parts):
        if isinstance(p, Lit):
            toks = tokens(p.text, heredoc)
            if (i == 0 and lead) or (i > 0 and _closes_strip(parts[i - 1])):
                toks[0] = go_lstrip(toks[0])
            if (i == n - 1 and trail) or (i < n - 1 and _opens_strip(parts[i + 1])):
                toks[-1] = go_rstrip(toks[-1])
            acc.pieces.append("".join(toks))
        elif isinstance(p, Interp):
            v = p.expr.fn(env)
            acc.consumed.append(v)
            acc.pieces.append(V.to_string(V.strip(_unsecret_top(v))))
        elif isinstance(p, If):
            c = p.cond.fn(env)
            acc.consumed.append(c)
            if V.to_bool(V.strip(c)):
                end_strip = p.strips[2] if p.els is not None else p.strips[4]
                evaluate(p.then, env, heredoc, p.strips[1], end_strip, acc)
            elif p.els is not None:
                evaluate(p.els, env, heredoc, p.strips[3], p.strips[4], acc)
        else:
            coll = p.coll.fn(env)
            acc.consumed.append(_top_only(coll))
            state, inner = V.top(coll)
            for k, v in iterate(inner):
                env2 = env.bind({p.val: V.rewrap(state, v)} if p.key is None else
                                {p.key: k, p.val: V.rewrap(state, v)})
                evaluate(p.body, env2, heredoc, p.strips[1], p.strips[2], acc)
    return acc


def _unsecret_top(v):
    state, inner = V.top(v)
    return inner


def _top_only(v):
    """What a collection contributes to the secret rule of the template:
    its top-level secret (elements count when they are interpolated)."""
    state, _ = V.top(v)
    if state in V.TOP_SECRET:
        return V.Secret(None)
    if state in ("sw", "maybe"):
        return V.SecretUnspec(None)
    return None


def iterate(coll):
    """(key, value) pairs of a list or map, in PCL order."""
    if type(coll) is list:
        return list(enumerate(coll))
    if type(coll) is dict:
        return [(k, coll[k]) for k in V.sorted_keys(coll)]
    raise V.EvalError("cannot iterate over a non-collection")


def flush(lines):
    """Applies flush-heredoc trimming to lines, each a list of parts ending
    with a literal that ends in a newline (syntax.md §2.7)."""
    counts = []
    for line in lines:
        first = line[0]
        if isinstance(first, Lit):
            t = first.text
            if t.strip(" \t\n") == "" and t.endswith("\n"):
                continue
            counts.append(len(t) - len(t.lstrip(" \t")))
        else:
            counts.append(0)
    m = min(counts) if counts else 0
    out = []
    for line in lines:
        first = line[0]
        if isinstance(first, Lit) and not (first.text.strip(" \t\n") == "" and first.text.endswith("\n")):
            out.append([Lit(first.text[m:])] + line[1:])
        else:
            out.append(line)
    return [p for line in out for p in line]


# ------------------------------------------------------------------ writing

def _escape_char(c, rng, allow_raw_unicode=True):
    o = ord(c)
    if c == '"':
        return '\\"'
    if c == "\\":
        return "\\\\"
    if c == "\n":
        return "\\n"
    if c == "\r":
        return "\\r"
    if c == "\t":
        return rng.choice(["\\t", "\t"])
    if o < 0x20 or o == 0x7F:
        return "\\u%04x" % o
    if o < 0x80:
        return c
    r = rng.random()
    if allow_raw_unicode and r < 0.6:
        return c
    if o <= 0xFFFF:
        return rng.choice(["\\u%04x", "\\u%04X"]) % o
    return "\\U%08x" % o


def quote_body(text, rng, template):
    """The body of a quoted string for the literal text.  In a template,
    `${` and `%{` are doubled; in a plain string literal (block labels) the
    generator never puts them."""
    out = []
    i = 0
    while i < len(text):
        if template and text[i] in "$%" and i + 1 < len(text) and text[i + 1] == "{":
            out.append(text[i] * 2 + "{")
            i += 2
            continue
        out.append(_escape_char(text[i], rng))
        i += 1
    return "".join(out)


def quote(text, rng):
    """A quoted string literal whose value is text."""
    return '"' + quote_body(text, rng, True) + '"'


def label(text, rng):
    """A block label (a plain string literal: no template sequences)."""
    return '"' + quote_body(text, rng, False) + '"'


def _strip_l(flag):
    return "~" if flag else ""


def render_parts(parts, rng, heredoc):
    out = []
    for p in parts:
        if isinstance(p, Lit):
            if heredoc:
                out.append(p.text.replace("${", "$${").replace("%{", "%%{"))
            else:
                out.append(quote_body(p.text, rng, True))
        elif isinstance(p, Interp):
            out.append("${" + _strip_l(p.strip_l) + p.expr.text + _strip_l(p.strip_r) + "}")
        elif isinstance(p, If):
            s = p.strips
            out.append("%{" + _strip_l(s[0]) + " if " + p.cond.text + " " + _strip_l(s[1]) + "}")
            out.append(render_parts(p.then, rng, heredoc))
            if p.els is not None:
                out.append("%{" + _strip_l(s[2]) + " else " + _strip_l(s[3]) + "}")
                out.append(render_parts(p.els, rng, heredoc))
            out.append("%{" + _strip_l(s[4]) + " endif " + _strip_l(s[5]) + "}")
        else:
            s = p.strips
            names = p.val if p.key is None else f"{p.key}, {p.val}"
            out.append("%{" + _strip_l(s[0]) + f" for {names} in {p.coll.text} " + _strip_l(s[1]) + "}")
            out.append(render_parts(p.body, rng, heredoc))
            out.append("%{" + _strip_l(s[2]) + " endfor " + _strip_l(s[3]) + "}")
    return "".join(out)


def render_quoted(parts, rng):
    return '"' + render_parts(parts, rng, False) + '"'


def render_heredoc(parts, rng, marker, flush_form, indent=""):
    """A heredoc whose content is parts (ending with a newline).  The text
    ends with the closing marker line's newline."""
    body = render_parts(parts, rng, True)
    intro = "<<-" if flush_form else "<<"
    return f"{intro}{marker}\n{body}{indent}{marker}\n"


def safe_literal_alphabet():
    """Characters a literal next to a strip marker may hold."""
    return "abcxyz019 _-.,:;!?()[]<>=+*/'é中😀"

