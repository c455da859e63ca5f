"""The answer to a SimRequest (request.py) in each of its modes: one encounter; --balance,
the enemy count closest to a difficulty; --chain, encounters in a row (chain.py); --from,
the rest of a saved fight (branch.py). Each is a report the command prints or draws."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from wasteland.rules.errors import WastelandError

from .request import Progress, SimRequest

if TYPE_CHECKING:
    from .runner import Backend
    from .simulate import Simulation
    from .spec import SimSpec


def answer(req: SimRequest, progress: Progress | None = None) -> dict[str, Any]:
    """The report ``req`` asks for, with where its fights ran. Raises WastelandError
    for a bad request, before any fight; KeyboardInterrupt for a Ctrl-C before the
    first fight was tallied."""
    backend = req.check()
    if req.mode == "from":
        from .branch import run_from

        rep = run_from(req, backend, progress)
    elif req.mode == "chain":
        from .chain import run_chain

        rep = run_chain(req, backend)
    elif req.mode == "balance":
        rep = run_balance(req, backend, progress)
    else:
        rep = run_encounter(req, backend, progress)
    # the local pool's size means nothing on Ray
    rep.update({"backend": req.backend, "address": req.address,
                "jobs": rep["jobs"] if req.backend == "local" else None})
    return rep


def build_spec(req: SimRequest) -> SimSpec:
    """The encounter ``req`` describes, checked by building its first battle, so that
    anything wrong is one line before a single fight."""
    from wasteland.rules.rulesets import get_ruleset
    from wasteland.sim.encounter import encounter

    from .spec import SimSpec, side_agents

    rs = get_ruleset(req.ruleset)
    sc, me = encounter(req.scenario, req.side_text, req.party, req.enemies,
                       options=("--party", "--enemies"))
    spec = SimSpec(req.ruleset, sc, side_agents(sc, req.agent_names, req.ruleset), me)
    rs.new_battle(sc, req.seed, keep_log=False)
    return spec


def run_encounter(req: SimRequest, backend: Backend | None,
                  progress: Progress | None = None) -> dict[str, Any]:
    from .simulate import fight_all, report_of

    req.check_numbers()
    spec = build_spec(req)
    start = time.perf_counter()
    sim = fight_all(spec, req, backend, progress)
    return report_of(sim, req.procs, start)


def run_balance(req: SimRequest, backend: Backend | None,
                progress: Progress | None = None) -> dict[str, Any]:
    """The enemy counts fought in turn until one is past the target, and the pick."""
    from wasteland.rules.actions import MAX_COMBATANTS
    from wasteland.sim.encounter import creature_ids, encounter

    from .balance import enemies_text, enemy_lists, search
    from .simulate import fight_all
    from .verdict import VERDICTS

    req.check_numbers()
    vary, target = str(req.balance), req.target
    if target not in VERDICTS:
        raise WastelandError(f"--target must be one of {', '.join(VERDICTS)}, got {target!r}")
    spec = build_spec(req)
    sc, me = encounter(req.scenario, req.side_text, req.party, req.enemies,
                       options=("--party", "--enemies"))
    foe = 1 if me == 0 else 0
    base = [p.creature for p in sc.sides[foe].combatants]
    if vary != "enemies" and vary not in base:
        raise WastelandError(f"--balance {vary!r}: not among the enemies ({', '.join(base)}); "
                             f"give 'enemies' or one of them")
    others = sum(len(s.combatants) for i, s in enumerate(sc.sides) if i != foe)
    lists = enemy_lists(base, None if vary == "enemies" else vary, MAX_COMBATANTS - others)
    start = time.perf_counter()

    def fight(foes: list[str]) -> Simulation:
        text = enemies_text(foes)
        creature_ids(text, "--enemies")
        one = build_spec(replace(req, enemies=text))
        return fight_all(one, req, backend, progress, text)

    cands, best, stopped = search(lists, fight, target)
    if cands[-1].sim.interrupted and cands[-1].sim.tally.n == 0:
        cands.pop()
        if not cands:
            raise KeyboardInterrupt
        best = min(best, len(cands) - 1)
    reports = []
    for c in cands:
        rep = c.sim.report()
        rep["enemies"] = enemies_text(c.enemies)
        reports.append(rep)
    return {"balance": {"target": target, "vary": vary, "agents": dict(zip(spec.side_names,
                                                                         spec.agents)),
                        "best": best, "enemies": reports[best]["enemies"],
                        "stopped": stopped, "interrupted": cands[-1].sim.interrupted,
                        "candidates": reports},
            "jobs": req.procs, "seconds": time.perf_counter() - start}
