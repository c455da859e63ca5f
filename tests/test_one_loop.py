"""One fight loop (issue 43): agents are asked in turn and their choices applied in
wasteland/agents/loop.py only; everything else that lets agents fight calls its `play`.

The check reads the source (ast), so it plays no fight. A loop over deciders is a `for`
or `while` whose own code (nested functions and lambdas are their own code, looked at on
their own) both
- asks an agent: calls an agent's `.act(...)` or makes its view (`view_of(...)`, `View(...)`),
- and plays the answer: calls `.apply(...)` (a ruleset's) or `.step(...)` (an env's).

Its limits: a loop that hides either half behind a call of its own (a helper that asks,
another that applies) is not seen, nor one that uses other names for them: the game's
and the GM's prompt loops were of that kind (their turns were helpers). A loop that only
replays moves already chosen (a save's history, the moves an agent program is told, a
proposal the GM accepted) asks nobody, so it is not one. The loops that feed one agent's
choices to a Gymnasium env, where the env finds who decides and plays the others through
`play`, are the env's clients (ENV_CLIENTS), not fight loops of their own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import wasteland

PACKAGE = Path(wasteland.__file__).resolve().parent
HOME = "agents/loop.py"  # the one loop
ASKS = frozenset({"act", "view_of", "View"})
PLAYS = frozenset({"apply", "step"})
# (file, function): the learner's seat of a Gymnasium env played by an agent, to evaluate
# it or to record its choices; the env itself finds the decider and plays the others
ENV_CLIENTS = frozenset({("training/train.py", "evaluate"), ("training/imitation.py", "collect")})


def called(node: ast.AST) -> set[str]:
    """The names of what ``node``'s own code calls (``x.apply(...)``: apply), not
    counting nested functions, lambdas and classes."""
    out: set[str] = set()
    todo = list(ast.iter_child_nodes(node))
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute):
                out.add(f.attr)
            elif isinstance(f, ast.Name):
                out.add(f.id)
        todo.extend(ast.iter_child_nodes(n))
    return out


def loops_over_deciders(source: str) -> list[tuple[str, int]]:
    """(enclosing function, line) of each loop in ``source`` that asks an agent and plays
    its answer."""
    found: list[tuple[str, int]] = []
    if not (any(w in source for w in (".act(", "view_of(", "View(")) and (
            ".apply(" in source or ".step(" in source)):
        return found  # neither half named anywhere: no parse needed
    tree = ast.parse(source)
    owners: list[tuple[str, ast.AST]] = [("", tree)]
    owners += [(n.name, n) for n in ast.walk(tree)
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for name, owner in owners:
        todo = list(ast.iter_child_nodes(owner))
        while todo:  # this function's own loops; a nested function is its own owner
            n = todo.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(n, (ast.For, ast.While, ast.AsyncFor)):
                c = called(n)
                if c & ASKS and c & PLAYS:
                    found.append((name, n.lineno))
            todo.extend(ast.iter_child_nodes(n))
    return sorted(set(found), key=lambda x: x[1])


def test_no_fight_loop_outside_the_loop_module():
    found = []
    for p in sorted(PACKAGE.rglob("*.py")):
        rel = p.relative_to(PACKAGE).as_posix()
        if rel == HOME:
            continue
        found += [f"wasteland/{rel}:{line} ({func or 'module'})"
                  for func, line in loops_over_deciders(p.read_text(encoding="utf-8"))
                  if (rel, func) not in ENV_CLIENTS]
    assert not found, ("a loop over deciders outside wasteland/" + HOME + " (use its play, "
                       "with hooks for what the caller needs): " + ", ".join(found))


def test_the_env_clients_are_still_there():
    """Each listed client still holds its loop, so the list never excuses a new one."""
    for rel, func in sorted(ENV_CLIENTS):
        loops = loops_over_deciders((PACKAGE / rel).read_text(encoding="utf-8"))
        assert func in {f for f, _ in loops}, f"{rel}: no env loop in {func} any more"


def test_the_loop_module_is_seen():
    """The check finds the loop where it is, so an empty answer elsewhere means something."""
    assert loops_over_deciders((PACKAGE / HOME).read_text(encoding="utf-8"))


def test_what_counts():
    hand_written = """
while not b.over:
    v = view_of(rs, b)
    rs.apply(b, agents[v.decision.combatant].act(v))
"""
    stepping = """
def others():
    for _ in range(9):
        dec = R.decider(b)
        env.step(to_ego(agents[dec.combatant].act(View(b, R, dec, ids))))
"""
    replay = """
for move in history:
    rs.apply(b, parse(move, rs.decider(b).combatant))
"""
    hidden = """
def play_one():
    rs.apply(b, agent.act(view_of(rs, b)))
while not b.over:
    play_one()
"""
    assert loops_over_deciders(hand_written) == [("", 2)]
    assert loops_over_deciders(stepping) == [("others", 3)]
    assert loops_over_deciders(replay) == []
    assert loops_over_deciders(hidden) == []  # a limit: the helper's call hides it
