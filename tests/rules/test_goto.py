"""Moving to a chosen square (issue 13, item 2): `goto X Y` reaches what the ruleset's own
moves reach, spends what they spend, is refused in one line elsewhere, and is carried by
notation, history and replay. The RL action table is untouched (it keeps relative moves)."""

from __future__ import annotations

import random

import pytest

from wasteland.bestiary.loader import load_scenario, scenario_names
from wasteland.rules import saves
from wasteland.rules.actions import ACTION_INDEX, Action, parse_action
from wasteland.rules.errors import IllegalActionError, NotationError
from wasteland.rules.goto import distances, goto, next_step, reach, step_on
from wasteland.rules.hexes import hexes_for
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.zones import zones_for


def battle(ruleset: str, scenario: str = "duel", seed: int = 4):
    rs = get_ruleset(ruleset)
    return rs, rs.new_battle(load_scenario(scenario), seed)


def xy(b, cell):
    return b.grid.xs[cell], b.grid.ys[cell]


def test_notation_round_trips_and_stays_out_of_the_action_table():
    a = parse_action("goto 3 4", ["ted"])
    assert a == goto(3, 4) and a.text() == "goto 3 4"
    assert a not in ACTION_INDEX
    for bad in ("goto 3", "goto x 4", "goto 3 4 5"):
        with pytest.raises(NotationError, match="'goto' needs a square: 'goto X Y'"):
            parse_action(bad, ["ted"])


def test_reach_walks_around_blocked_squares_and_counts_steps():
    # a 1-wide corridor 0-1-2-3 with 1 blocked: 2 and 3 are out of reach
    line = [(1,), (0, 2), (1, 3), (2,)]
    assert reach(0, 5, line, {}) == {1: 1, 2: 2, 3: 3}
    assert reach(0, 2, line, {}) == {1: 1, 2: 2}
    assert reach(0, 5, line, {1: 4}) == {}


def test_pnp_goto_is_a_small_action_move_of_up_to_speed_squares():
    """Seed 000 (Small Action): moving up to the character's speed."""
    rs, b = battle("pnp")
    ted = b.combatants[0]
    speed = ted.creature.pnp.speed
    can = rs.destinations(b)
    g = b.grid
    assert can and max(can.values()) <= speed
    assert all(g.passable[c] and c not in b.occupied for c in can)
    far = max(can, key=lambda c: (can[c], c))
    events = rs.apply(b, goto(*xy(b, far)))
    assert ted.pos == far and b.occupied[far] == 0
    assert any(f"-> {xy(b, far)}" in e.text() for e in events)
    assert rs.decider(b).slot == "large"  # the Small action is spent
    # and the Large one may move again, from the new square
    assert rs.destinations(b)
    assert b.history == [f"ted: goto {far % g.width} {far // g.width}"]
    again = saves.replay("pnp", b.scenario, b.seed, b.history)
    assert again.state() == b.state()


def test_pnp_goto_out_of_reach_is_one_line_and_changes_nothing():
    rs, b = battle("pnp")
    before = b.state()
    scorp = b.combatants[1]
    for x, y, words in [(9, 9, "is off the map"), (0, 0, "cannot be reached now"),
                        (*xy(b, scorp.pos), "cannot be reached now")]:
        with pytest.raises(IllegalActionError) as e:
            rs.apply(b, goto(x, y))
        assert words in str(e.value) and "\n" not in str(e.value)
    assert b.state() == before and b.history == []


def test_pnp_goto_past_a_melee_enemy_offers_its_attack_of_opportunity():
    """Seed 000, Attack of Opportunity (Movement): leaving a square next to a melee
    enemy lets it roll initiative for a free attack; the move goes on after."""
    rs, b = battle("pnp")
    ted, scorp = b.combatants
    rs.apply(b, Action("end"))  # ted waits; the radscorpion closes in
    while rs.decider(b).combatant == 1:
        rs.apply(b, Action("move", 0, "toward"))
    assert b.grid.dist(ted.pos, scorp.pos) <= 1
    can = rs.destinations(b)
    assert scorp.pos not in can  # nobody ends a move on someone else's square
    away = max(can, key=lambda c: (b.grid.dist(c, scorp.pos), c))
    rs.apply(b, goto(*xy(b, away)))
    assert b.reactions and b.reactions[0].kind == "opportunity"
    assert b.pending_move is not None and b.pending_move[1] == "to"
    rs.apply(b, Action("end"))  # the radscorpion lets it pass
    assert ted.pos == away and b.pending_move is None


def test_simple_goto_walks_by_stance_and_a_longer_one_is_a_run():
    """Seed 001, Move Phase: a standing move covers 4 hexes, a run 8 and forfeits the
    charge and action phases; crouched, 2."""
    rs, b = battle("simple")
    ted = b.combatants[0]
    assert rs.decider(b) == (0, "move", None, None)
    can = rs.destinations(b)
    assert max(can.values()) == 8
    h = hexes_for(b.grid)
    near = min(c for c in can if can[c] == 4)
    far = min(c for c in can if can[c] == 6)
    rs2, b2 = battle("simple")
    rs.apply(b, goto(*xy(b, near)))
    assert ted.pos == near and not ted.cond.get("forfeit")
    rs2.apply(b2, goto(*xy(b2, far)))
    assert b2.combatants[0].pos == far and b2.combatants[0].cond.get("forfeit") == b2.round
    assert rs.destinations(b) == {}  # the move phase's one move is made
    rs3, b3 = battle("simple")
    b3.combatants[0].cond["stance"] = "crouch"
    crouched = rs3.destinations(b3)
    assert crouched and max(crouched.values()) == 2
    assert all(h.dist(b3.combatants[0].pos, c) <= 2 for c in crouched)


def test_f2d20_goto_is_a_move_to_the_next_zone_or_a_sprint_two_zones_off():
    """Seed 002: a move reaches this zone or the next (a minor action); Sprint, a major
    action: up to two zones, anywhere within Long range."""
    rs, b = battle("f2d20", "ruined_street")
    me = rs.decider(b).combatant
    c = b.combatants[me]
    z = zones_for(b.grid)
    can = rs.destinations(b)
    assert set(can.values()) == {0, 1, 2}
    assert all(z.zone_band(z.zone_of[c.pos], z.zone_of[cell]) == hops
               for cell, hops in can.items())
    one = min(cell for cell in can if can[cell] == 1)
    rs.apply(b, goto(*xy(b, one)))
    assert c.pos == one and b.book.minor == 1 and b.book.major == 0
    assert rs.destinations(b) == {}  # one movement a turn
    rs, b = battle("f2d20", "ruined_street")
    c = b.combatants[me]
    two = min(cell for cell in rs.destinations(b) if rs.destinations(b)[cell] == 2)
    rs.apply(b, goto(*xy(b, two)))
    assert c.pos == two and b.book.major == 1 and b.book.minor == 0


def test_goto_at_a_sprint_parses_and_prints():
    """`goto X Y sprint`: the pace a stale `sprint toward` keeps (observe/fog.py)."""
    a = parse_action("goto 3 4 sprint", ["ted"])
    assert a == goto(3, 4, sprint=True) and a.text() == "goto 3 4 sprint"
    with pytest.raises(NotationError, match="'goto' needs a square"):
        parse_action("goto 3 4 run", ["ted"])


def test_f2d20_goto_at_a_sprint_is_a_major_action_however_near():
    """Seed 002, Sprint: a major action; a goto at a sprint costs one even one zone off."""
    rs, b = battle("f2d20", "ruined_street")
    c = b.combatants[rs.decider(b).combatant]
    one = min(cell for cell, hops in rs.destinations(b).items() if hops == 1)
    assert one in rs.destinations(b, sprint=True)
    rs.apply(b, goto(*xy(b, one), sprint=True))
    assert c.pos == one and b.book.major == 1 and b.book.minor == 0


def test_simple_goto_at_a_sprint_is_a_run_however_near_and_none_when_crouched():
    """Seed 001, Move Phase: a run forfeits the charge and action phases."""
    rs, b = battle("simple")
    ted = b.combatants[0]
    near = min(c for c, n in rs.destinations(b).items() if n == 2)
    rs.apply(b, goto(*xy(b, near), sprint=True))
    assert ted.pos == near and ted.cond.get("forfeit") == b.round
    rs2, b2 = battle("simple")
    b2.combatants[0].cond["stance"] = "crouch"  # no run from a crouch
    assert rs2.destinations(b2, sprint=True) == {}


def test_pnp_goto_in_a_five_foot_step_is_a_step_to_a_chosen_free_square():
    """Seed 000, Free Actions (5-ft step): one square, the free action spent."""
    rs, b = battle("pnp", "vault_corridor")
    for _ in range(200):
        if b.over or (b.reactions and b.reactions[0].kind == "step"):
            break
        legal = rs.legal_actions(b)
        moves = [a for a in legal if a.kind == "move" and a.option == "toward"]
        rs.apply(b, moves[0] if moves else legal[0])
    assert b.reactions and b.reactions[0].kind == "step"
    me = b.combatants[b.reactions[0].reactor]
    can = rs.destinations(b)
    assert can and all(b.grid.dist(me.pos, c) == 1 and c not in b.occupied for c in can)
    assert rs.destinations(b, sprint=True) == {}
    far = next(c for c in range(b.grid.n_cells) if b.grid.dist(me.pos, c) == 2
               and b.grid.passable[c])
    with pytest.raises(IllegalActionError, match="cannot be reached now"):
        rs.apply(b, goto(*xy(b, far)))
    there = min(can)
    rs.apply(b, goto(*xy(b, there)))
    assert me.pos == there and me.free_used
    again = saves.replay("pnp", b.scenario, b.seed, b.history)
    assert again.state() == b.state()


def _fresh_step(cur: int, goal: int, nbrs, occ: dict[int, int]) -> int | None:
    """A shortest path's first step, searched in full from the goal back: the neighbour
    nearer the goal by one, the first in the map's order (no early stop, nothing kept)."""
    if cur == goal:
        return None
    d = {goal: 0}
    todo = [goal]
    for c in todo:
        for n in nbrs[c]:
            if n not in d and (n == cur or n not in occ):
                d[n] = d[c] + 1
                todo.append(n)
    if cur not in d:
        return None
    return next((n for n in nbrs[cur] if d.get(n) == d[cur] - 1
                 and (n == goal or n not in occ)), None)


@pytest.mark.parametrize("walker_moves", [False, True])
@pytest.mark.parametrize("ruleset", ["pnp", "simple"])
def test_a_walk_by_distances_found_once_takes_the_steps_of_a_search_at_each(
        ruleset: str, walker_moves: bool) -> None:
    """A walk to a square follows ``distances`` found at its start (PnP's walk, where the
    walker's square stays its own until the walk ends; Simple's, where it moves a hex at a
    time): every step is the one ``next_step`` searching afresh would take, on every map,
    others standing at random."""
    rng = random.Random(11)
    walks = 0
    for name in scenario_names():
        b = get_ruleset(ruleset).new_battle(load_scenario(name), 1)
        g = b.grid
        nbrs = hexes_for(g).neighbors if ruleset == "simple" else g.step_cells
        open_cells = [i for i in range(g.n_cells) if g.passable[i]]
        for _ in range(40):
            start, goal, *others = rng.sample(open_cells, 2 + rng.randint(0, 8))
            occ = {p: k + 1 for k, p in enumerate(others)}
            occ[start] = 0
            dist = distances(start, goal, nbrs, occ)
            cur, fresh_occ = start, dict(occ)
            for _step in range(30):
                want = _fresh_step(cur, goal, nbrs, fresh_occ)
                assert next_step(cur, goal, nbrs, fresh_occ) == want
                got = step_on(dist, cur, goal, nbrs, occ if not walker_moves else fresh_occ)
                assert got == want, (name, start, goal, cur)
                if want is None:
                    break
                if walker_moves:
                    del fresh_occ[cur]
                    fresh_occ[want] = 0
                cur = want
            walks += 1
    assert walks == 40 * len(scenario_names())


def _fresh_reach(start: int, steps: int, nbrs, occ) -> dict[int, int]:
    """``reach`` worked out from scratch: breadth first over free squares."""
    seen, frontier = {start: 0}, [start]
    for d in range(1, steps + 1):
        nxt = []
        for cur in frontier:
            for n in nbrs[cur]:
                if n not in seen and n not in occ:
                    seen[n] = d
                    nxt.append(n)
        frontier = nxt
    del seen[start]
    return seen


def test_reach_answers_each_board_as_if_asked_first():
    """``reach`` keeps its last answer (a stale move asks it three times of one board): a
    question on another map, from another square, of other steps or with anyone moved
    gets its own answer, and what a caller does to an answer changes no later one."""
    rng = random.Random(3)
    maps = []
    for name in ("ruined_street", "robot_depot"):
        g = battle("simple", name)[1].grid
        maps.append(hexes_for(g).neighbors)
        maps.append(g.step_cells)
    free = [i for i, ns in enumerate(maps[0]) if ns]
    asked = 0
    for _ in range(300):
        nbrs = rng.choice(maps)
        start = rng.choice(free) % len(nbrs)
        steps = rng.choice((1, 3, 6))
        occ = {rng.randrange(len(nbrs)): k for k in range(rng.choice((0, 2, 5)))}
        for _again in range(rng.choice((1, 2, 3))):  # asked again, as a stale move does
            got = reach(start, steps, nbrs, occ)
            assert got == _fresh_reach(start, steps, nbrs, occ)
            got[-1] = 99  # the caller's own dict
            got.clear()
            asked += 1
        if rng.random() < 0.5:  # someone moves: the same question, another board
            occ[rng.randrange(len(nbrs))] = 9
            assert reach(start, steps, nbrs, occ) == _fresh_reach(start, steps, nbrs, occ)
    assert asked > 300
    for nbrs in maps:  # the same square, steps and nobody about, map after map
        assert reach(free[0], 4, nbrs, {}) == _fresh_reach(free[0], 4, nbrs, {})
