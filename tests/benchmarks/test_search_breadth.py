"""benchmarks/search_breadth.py counts a guided agent's choices against its policy's
ranking: the policy itself plays its most likely action every time, the packet does not."""

from __future__ import annotations

import re

from .kit import bench_module

SEAT = "radscorpions_duel_f2d20"


def _counts(capsys, agent: str) -> tuple[int, dict[str, int]]:
    mod = bench_module("search_breadth")
    assert mod.main([SEAT, agent, "--fights", "2"]) == 0
    out = capsys.readouterr().out
    n = int(re.search(r"; (\d+) decisions", out).group(1))
    return n, {m.group(1): int(m.group(2)) for m in re.finditer(r"  (.+): (\d+) \(", out)}


def test_the_policy_plays_its_most_likely_action_and_the_packet_does_not(capsys) -> None:
    n, counts = _counts(capsys, "policy:radscorpion_f2d20")
    assert n > 0 and counts == {"the policy's most likely": n}
    n, counts = _counts(capsys, "packet")
    assert n > 0 and counts.get("the policy's most likely", 0) < n


def test_an_unknown_seat_is_one_line(capsys) -> None:
    assert bench_module("search_breadth").main(["nope", "packet"]) == 2
    assert capsys.readouterr().err.startswith("unknown seat 'nope'; known: ")


def test_a_seed_past_the_limit_is_one_line(capsys) -> None:
    mod = bench_module("search_breadth")
    assert mod.main([SEAT, "packet", "--first-seed", str(2**63)]) == 2
    assert capsys.readouterr().err.startswith("--first-seed is 0 to ")
    assert mod.main([SEAT, "packet", "--first-seed", "-1"]) == 2
