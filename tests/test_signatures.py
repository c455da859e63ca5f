"""No long parameter lists (issue 43): a call with many arguments is carried by a value type
named for what it holds (cli/simulate's SimulateRequest, f2d20 damage's Hurt, ...).

How parameters are counted: every named parameter, positional or keyword-only, except the
``self`` or ``cls`` of a method; ``*args`` and ``**kwargs`` count one each. More than
``MOST`` fails. More than ``PLAIN`` is allowed only with a reason, written as a comment
``# params: <why>`` on a line of the signature (from ``def`` to the colon), or as a line
``params: <why>`` in the docstring. Sources are read with ast, nothing is imported."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import wasteland

PACKAGE = Path(wasteland.__file__).resolve().parent
PLAIN = 8  # parameters a function may take without saying why
MOST = 10  # and with a reason
REASON = re.compile(r"#\s*params:\s*\S")
DOC_REASON = re.compile(r"^\s*params:\s*\S", re.MULTILINE)

Def = ast.FunctionDef | ast.AsyncFunctionDef


def count(fn: Def, method: bool) -> int:
    a = fn.args
    names = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)
    if method and not static and names and names[0] in ("self", "cls"):
        names = names[1:]
    return len(names) + (a.vararg is not None) + (a.kwarg is not None)


def reasoned(fn: Def, lines: list[str]) -> bool:
    """Whether ``fn`` says why it takes so many: a ``# params:`` comment in its signature
    or a ``params:`` line in its docstring."""
    end = max(fn.lineno, fn.body[0].lineno - 1)
    if any(REASON.search(line) for line in lines[fn.lineno - 1:end]):
        return True
    doc = ast.get_docstring(fn)
    return bool(doc and DOC_REASON.search(doc))


def long_signatures(source: str) -> list[tuple[int, str, int, bool]]:
    """(line, name, parameters, says why) of each function over PLAIN parameters."""
    tree = ast.parse(source)
    lines = source.splitlines()
    methods = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
               for f in c.body if isinstance(f, Def)}
    out = []
    for fn in ast.walk(tree):
        if isinstance(fn, Def):
            n = count(fn, id(fn) in methods)
            if n > PLAIN:
                out.append((fn.lineno, fn.name, n, reasoned(fn, lines)))
    return out


def test_no_function_takes_too_many_parameters() -> None:
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE.parent)
        for line, name, n, why in long_signatures(path.read_text(encoding="utf-8")):
            if n > MOST:
                bad.append(f"{where}:{line} {name} takes {n} parameters (at most {MOST})")
            elif not why:
                bad.append(f"{where}:{line} {name} takes {n} parameters with no "
                           f"'# params: <why>' on its signature")
    assert not bad, "\n".join(bad)


def test_the_counting_rule() -> None:
    src = '''
def nine(a, b, c, d, e, f, g, h, i): pass
def nine_why(a, b, c, d, e, f, g, h,
             i):  # params: one per flag of the command
    pass
def nine_doc(a, b, c, d, e, f, g, h, i):
    """Docs.

    params: the fields of the form, each its own
    """
def eight_and_stars(a, b, c, d, e, f, *args, **kw): pass
def eleven(a, b, c, d, e, f, g, h, i, j, k):  # params: too many anyway
    pass
class C:
    def m(self, a, b, c, d, e, f, g, h): pass
    @staticmethod
    def s(self, a, b, c, d, e, f, g, h): pass
'''
    got = {name: (n, why) for _line, name, n, why in long_signatures(src)}
    assert got == {"nine": (9, False), "nine_why": (9, True), "nine_doc": (9, True),
                   "eleven": (11, True), "s": (9, False)}


def test_the_packet_is_no_chain() -> None:
    """The packet agent is a few classes by concern, composed (issue 43), not a chain of
    subclasses: no class in agents/packets derives from another one there."""
    names: dict[str, list[str]] = {}
    for path in sorted((PACKAGE / "agents" / "packets").glob("*.py")):
        for c in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(c, ast.ClassDef):
                names[c.name] = [b.id for b in c.bases if isinstance(b, ast.Name)]
    derived = {c: [b for b in bases if b in names] for c, bases in names.items()}
    assert not {c: b for c, b in derived.items() if b}
