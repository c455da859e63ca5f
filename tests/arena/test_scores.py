"""Wins, draws and losses from each agent's side of each game, with the simulation's
Wilson intervals; the ratings, anchored on the packet, and their order."""

from __future__ import annotations

import pytest

from wasteland.arena.ratings import ANCHOR, rate_agents
from wasteland.arena.report import report
from wasteland.arena.scores import tally
from wasteland.arena.tournament import Played
from wasteland.sim.stats import wilson

from .kit import played, small


def game(a: int, b: int, winner: int | None, scenario: int = 0, ruleset: str = "pnp") -> Played:
    return Played((a, b), scenario, ruleset, 0, winner, 5)


def test_each_agent_is_scored_from_its_own_side():
    # agent 1 on side 1 wins; agent 0 on side 1 wins; a draw; agent 2 wins on side 0
    games = [game(0, 1, 1), game(1, 0, 1), game(0, 1, None), game(2, 0, 0)]
    t = tally(games, 3, ["duel"])
    m = t["matrix"]
    assert m[0][0] is None
    assert [m[0][1][k]["count"] for k in ("win", "draw", "loss")] == [1, 1, 1]
    assert [m[1][0][k]["count"] for k in ("win", "draw", "loss")] == [1, 1, 1]
    assert [m[2][0][k]["count"] for k in ("win", "draw", "loss")] == [1, 0, 0]
    assert [m[0][2][k]["count"] for k in ("win", "draw", "loss")] == [0, 0, 1]
    assert m[1][2]["games"] == 0
    assert t["overall"][0]["games"] == 4 and t["overall"][0]["win"]["count"] == 1
    lo, hi = wilson(1, 3)
    assert m[0][1]["win"]["ci"] == [lo, hi] and m[0][1]["win"]["rate"] == pytest.approx(1 / 3)


def test_the_breakdown_is_per_scenario_and_ruleset():
    games = [game(0, 1, 0, 0, "pnp"), game(0, 1, 1, 1, "pnp"), game(1, 0, 0, 1, "f2d20")]
    by = tally(games, 2, ["duel", "vault"])["by_scenario"]
    assert by["duel"]["pnp"][0]["win"]["count"] == 1 and by["duel"]["pnp"][1]["loss"]["count"] == 1
    assert by["vault"]["pnp"][1]["win"]["count"] == 1
    assert by["vault"]["f2d20"][1]["win"]["count"] == 1 and "f2d20" not in by["duel"]


def test_the_packet_is_the_anchor_and_a_draw_moves_no_one_apart():
    names = ["random", "packet"]
    r = rate_agents([game(0, 1, 0), game(1, 0, 1)], names)
    assert r["anchor"] == {"agent": "packet", "mu": ANCHOR}
    by = {x["agent"]: x for x in r["ratings"]}
    assert by["packet"]["mu"] == ANCHOR
    # random won twice: higher, but two games do not tell them apart
    assert by["random"]["mu"] > by["packet"]["mu"]
    assert by["random"]["rank"] == by["packet"]["rank"] == 1
    assert [x["agent"] for x in r["ratings"]] == ["packet", "random"]  # tied: by name
    lo, hi = by["random"]["ci"]
    assert lo < by["random"]["mu"] < hi
    assert hi - lo == pytest.approx(2 * 1.959964 * by["random"]["sigma"])
    tie = rate_agents([game(0, 1, None)], ["a", "b"])
    assert tie["anchor"] is None
    assert tie["ratings"][0]["mu"] == pytest.approx(tie["ratings"][1]["mu"])
    assert tie["ratings"][0]["mu"] == pytest.approx(25.0)


def test_the_order_is_stable_across_seeds_for_clearly_different_agents():
    orders = []
    for seed in (0, 5000):
        rep = report(played(small("random,packet,scripted", n=4, seed=seed)))
        orders.append([r["agent"] for r in rep["ratings"]])
        ratings = {r["agent"]: r for r in rep["ratings"]}
        assert ratings["packet"]["mu"] == ANCHOR
        # clearly apart: random's whole interval under the packet's rating
        assert ratings["random"]["ci"][1] < ratings["packet"]["mu"]
    assert orders[0][-1] == orders[1][-1] == "random"


def test_agents_not_told_apart_share_a_rank_listed_by_name():
    # b and c split their games; both beat a every time
    games = [game(1, 2, 0), game(2, 1, 0)] * 3 + [game(1, 0, 0), game(2, 0, 0), game(0, 1, 1),
                                                   game(0, 2, 1)] * 6
    r = rate_agents(games, ["a", "c", "b"])["ratings"]
    assert [(x["agent"], x["rank"], x["tied"]) for x in r] == [("b", 1, True), ("c", 1, True),
                                                              ("a", 3, False)]
