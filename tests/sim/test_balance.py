"""`simulate --balance`: the enemy lists it tries, how it picks, and the command."""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace

import pytest

from wasteland.rules.errors import WastelandError
from wasteland.sim.balance import BAND_MIDDLE, Candidate, enemies_text, enemy_lists, pick, search
from wasteland.sim.encounter import creature_ids

from .kit import cli
from .kit import closet as kit_closet


def test_enemy_lists_grow_one_creature_at_a_time():
    base = ["super_mutant", "radscorpion", "raider"]
    assert list(enemy_lists(base, None, 4)) == [
        ["super_mutant"], ["super_mutant", "radscorpion"],
        ["super_mutant", "radscorpion", "raider"],
        ["super_mutant", "radscorpion", "raider", "super_mutant"]]
    assert list(enemy_lists(base, "radscorpion", 5)) == [
        ["super_mutant", "radscorpion", "raider"],
        ["super_mutant", "radscorpion", "radscorpion", "raider"],
        ["super_mutant", "radscorpion", "radscorpion", "radscorpion", "raider"]]


def test_enemies_text_gives_back_the_same_list():
    for foes in (["raider", "super_mutant", "raider"], ["radscorpion"] * 3 + ["raider"],
                 ["raider"]):
        assert creature_ids(enemies_text(foes), "--enemies") == foes
    assert enemies_text(["raider", "raider", "super_mutant"]) == "2 raider, super_mutant"


def test_band_middles():
    assert BAND_MIDDLE == pytest.approx({"trivial": 0.99, "easy": 0.965, "medium": 0.90,
                                         "hard": 0.725, "deadly": 0.30})


def fake(verdict: str, win: float) -> SimpleNamespace:
    """A finished simulation with this verdict and party win rate."""
    tally = SimpleNamespace(verdict=lambda: verdict, outcomes=Counter(win=round(100 * win)),
                            n=100)
    return SimpleNamespace(tally=tally, interrupted=False)


def cands(*rows: tuple[str, float]) -> list[Candidate]:
    return [Candidate(i + 1, ["raider"] * (i + 1), fake(v, w))  # type: ignore[arg-type]
            for i, (v, w) in enumerate(rows)]


def test_pick_the_target_then_the_nearest_rung_then_the_middle_of_the_band():
    two_hard = cands(("easy", 0.96), ("hard", 0.84), ("hard", 0.70), ("deadly", 0.4))
    assert pick(two_hard, "hard") == 2  # 70% is nearer 72.5% than 84% is
    no_medium = cands(("easy", 0.97), ("hard", 0.84), ("deadly", 0.5))
    assert pick(no_medium, "medium") == 1  # both one rung away; 84% is nearer 90% than 97%
    assert pick(cands(("easy", 0.95), ("hard", 0.84)), "medium") == 0  # 95% is nearer
    assert pick(no_medium, "trivial") == 0
    too_easy = cands(("trivial", 1.0), ("trivial", 1.0))
    assert pick(too_easy, "hard") == 1 and pick(too_easy, "trivial") == 0
    assert pick(no_medium, "deadly") == 2


def test_search_stops_past_the_target_or_when_the_map_is_full():
    table = {1: ("trivial", 1.0), 2: ("medium", 0.9), 3: ("hard", 0.7), 4: ("deadly", 0.3)}
    tried: list[int] = []

    def fight(foes: list[str]) -> SimpleNamespace:
        tried.append(len(foes))
        if len(foes) > 4:
            raise WastelandError("no free square left for raider on closet")
        return fake(*table[len(foes)])

    lists = enemy_lists(["raider"], None, 9)
    found, best, stopped = search(lists, fight, "medium")  # type: ignore[arg-type]
    assert tried == [1, 2, 3] and best == 1 and stopped is None
    tried.clear()
    found, best, stopped = search(enemy_lists(["raider"], None, 9), fight,  # type: ignore[arg-type]
                                  "deadly")
    assert tried == [1, 2, 3, 4] and best == 3  # the first deadly count: none is past it
    table[4] = ("hard", 0.65)
    tried.clear()
    found, best, stopped = search(enemy_lists(["raider"], None, 9), fight,  # type: ignore[arg-type]
                                  "deadly")
    assert tried == [1, 2, 3, 4, 5] and best == 3 and stopped == (
        "no free square left for raider on closet")


def test_balance_finds_four_radscorpions_hard(capsys, monkeypatch):
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", "ruined_street",
                         "--party", "brawler,wastelander", "--enemies", "radscorpion",
                         "--balance", "enemies", "--target", "hard", "-n", "40", "--jobs", "2",
                         "--json")
    assert code == 0, err
    bal = json.loads(out)["balance"]
    assert [(c["enemies"], c["verdict"]) for c in bal["candidates"]] == [
        ("radscorpion", "trivial"), ("2 radscorpion", "trivial"), ("3 radscorpion", "medium"),
        ("4 radscorpion", "hard"), ("5 radscorpion", "deadly")]
    assert bal["best"] == 3 and bal["enemies"] == "4 radscorpion" and bal["stopped"] is None
    assert all(c["seeds"] == [0, 39] for c in bal["candidates"])  # the same seeds each
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", "ruined_street",
                         "--party", "brawler,wastelander", "--enemies", "4 radscorpion",
                         "-n", "40", "--jobs", "1", "--json")
    assert json.loads(out)["outcome"] == bal["candidates"][3]["outcome"]


def test_balance_in_the_terminal_names_the_enemies_to_use(capsys, monkeypatch):
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "--balance",
                         "young_radscorpion", "--target", "deadly", "-n", "20", "--jobs", "1")
    assert code == 0, err
    lines = out.rstrip().splitlines()
    assert lines[-2].startswith('closest to deadly: --enemies "')
    assert lines[-1].split(":")[0] in ("trivial", "easy", "medium", "hard", "deadly")


def test_balance_says_when_no_harder_encounter_fits(capsys, monkeypatch, tmp_path):
    closet = tmp_path / "closet.yaml"
    closet.write_text(kit_closet("super_mutant_brute", "feral_ghoul"), encoding="utf-8")
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", str(closet),
                         "--balance", "enemies", "--target", "deadly", "-n", "10", "--jobs", "1")
    assert code == 0, err
    assert "no harder encounter fits: no free square left for feral_ghoul on closet" in out
    assert 'closest to deadly: --enemies "2 feral_ghoul"' in out


@pytest.mark.parametrize(("args", "answer"), [
    (["--target", "hard"], "--target needs --balance"),
    (["--balance", "ghoul"], "--balance 'ghoul': not among the enemies (radscorpion, "
                             "radscorpion)"),
    (["--balance", "enemies", "--target", "brutal"], "--target must be one of trivial, easy, "
                                                     "medium, hard, deadly"),
])
def test_bad_balance_input_is_one_line(capsys, monkeypatch, args, answer):
    code, out, err = cli(capsys, monkeypatch, "simulate", "-n", "5", *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and answer in err, err
