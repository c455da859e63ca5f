"""benchmarks/benchmark_table.py run: --seats picks seats, and each seat's row is saved as
soon as it is played, merged with the rows already in the results file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .kit import bench_module


def _run(bt, results: Path, *extra: str) -> None:
    bt.main(["run", "radscorpions", "simple", "--agents", "random", "-n", "2", "--jobs", "1",
             "--results", str(results), *extra])


def test_seats_are_played_one_by_one_and_merged(tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    seats = [s[1].id for s in bt.seats_of("radscorpions", "simple")]
    first, second = seats[0], seats[1]
    results = tmp_path / "r.json"
    _run(bt, results, "--seats", first)
    rows = json.loads(results.read_text())["rows"]
    assert [(r["agent"], r["seat"], r["fights"]) for r in rows] == [("random", first, 2)]
    _run(bt, results, "--seats", second)
    rows = json.loads(results.read_text())["rows"]
    assert sorted(r["seat"] for r in rows) == sorted([first, second])
    # the same seat again replaces its row, it does not add a second one
    _run(bt, results, "--seats", f"{first},{second}")
    rows = json.loads(results.read_text())["rows"]
    assert sorted(r["seat"] for r in rows) == sorted([first, second])


@pytest.mark.parametrize("seats", ["no_such_seat", ",", "radscorpions_duel_simple,nope"])
def test_an_unknown_seat_is_a_one_line_error(tmp_path: Path, seats: str) -> None:
    bt = bench_module("benchmark_table")
    results = tmp_path / "r.json"
    with pytest.raises(SystemExit) as e:
        _run(bt, results, "--seats", seats)
    msg = str(e.value)
    assert "--seats: unknown seat" in msg and "radscorpions_duel_simple" in msg
    assert "\n" not in msg
    assert not results.exists()


def test_a_learned_row_shows_its_labels_and_the_wall_time_of_its_checkpoint(tmp_path: Path
                                                                            ) -> None:
    """An expert-iteration policy exported at its step-0 checkpoint: the row counts the
    teacher's labels (rounds x states) and the wall time when that checkpoint was written,
    not the whole run's."""
    pytest.importorskip("sb3_contrib")
    from training.kit import random_policy

    from wasteland.training.export import write_policy

    bt = bench_module("benchmark_table")
    pol = random_policy("distilled")
    pol.manifest.update(steps=0, checkpoint_wall_s=375.0, training={"wall_s": 742.5},
                        config={"algorithm": "expert_iteration", "seed": 0,
                                "expert": {"iterations": 6, "decisions": 60000}})
    npz, _ = write_policy(pol, tmp_path)
    tr = bt.training_of(f"policy:{npz}")
    assert tr == {"steps": 0, "wall_s": 375.0, "algorithm": "expert_iteration", "seed": 0,
                  "labels": 360000}
    assert bt.trained_text(tr) == "expert_iteration seed 0: 360,000 labels + 0 steps, 6 min"
    # a PPO run exported at its end: no labels, the run's wall time
    pol.manifest.update(steps=800000, config={"algorithm": "ppo", "seed": 1})
    del pol.manifest["checkpoint_wall_s"]
    npz, _ = write_policy(pol, tmp_path)
    assert bt.trained_text(bt.training_of(f"policy:{npz}")) == "ppo seed 1: 800,000 steps, 12 min"


@pytest.mark.parametrize("bad", ["x", None, -5, 1e300, True, [3]])
def test_a_hand_edited_manifest_number_does_not_break_the_table(bad, tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from training.kit import random_policy

    from wasteland.training.export import write_policy

    bt = bench_module("benchmark_table")
    pol = random_policy("edited")
    pol.manifest.update(steps=bad, checkpoint_wall_s=bad,
                        config={"algorithm": "expert_iteration", "seed": 0,
                                "expert": {"iterations": bad, "decisions": 60000}})
    npz, _ = write_policy(pol, tmp_path)
    tr = bt.training_of(f"policy:{npz}")
    assert (tr["steps"], tr["wall_s"], tr["labels"]) == (0, 0, 0)
    assert bt.trained_text(tr) == "expert_iteration seed 0: 0 steps, 0 min"


def test_the_page_names_the_seats_a_standard_agent_has_not_played(tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    seats = [s[1].id for s in bt.seats_of("radscorpions", "simple")]
    row = {"test": "seat", "fights": 10, "wins": 5, "losses": 5, "draws": 0}
    rows = [dict(row, agent=a, seat=s) for a in bt.STANDARD_AGENTS for s in seats
            if not (a == "hard" and s == seats[-1])]
    results = tmp_path / "radscorpions_simple.json"
    results.write_text(json.dumps({"family": "radscorpions", "ruleset": "simple",
                                   "rows": rows}))
    page = tmp_path / "b.md"
    bt.main(["write", str(results), "--out", str(page)])
    missing = [line for line in page.read_text().splitlines() if line.startswith("Not played")]
    assert missing == [f"Not played yet: hard in {seats[-1]}."]
    # every standard agent in every seat: no such line
    results.write_text(json.dumps({"family": "radscorpions", "ruleset": "simple",
                                   "rows": rows + [dict(row, agent="hard", seat=seats[-1])]}))
    bt.main(["write", str(results), "--out", str(page)])
    assert "Not played" not in page.read_text()


def _chunk_failing_at_seed_2(args):
    """benchmark_table._chunk, but the block from seed 2 stops the run (a session ending)."""
    import sys

    if args[5] == 2:
        raise RuntimeError("stopped")
    return sys.modules[_chunk_failing_at_seed_2.module]._real_chunk(args)


def test_a_stopped_seat_resumes_from_its_last_block_to_the_same_row(tmp_path: Path,
                                                                    monkeypatch, capsys) -> None:
    """Blocks are saved as they are played; run again, the seat plays only the blocks it
    lacks, and its row is the row of an unbroken run on the same seeds."""
    bt = bench_module("benchmark_table")
    monkeypatch.setattr(bt, "BLOCK", 1)
    seat_id = bt.seats_of("radscorpions", "simple")[0][1].id
    args = ["run", "radscorpions", "simple", "--agents", "random", "-n", "4", "--jobs", "1",
            "--seats", seat_id]
    whole = tmp_path / "whole.json"
    bt.main([*args, "--results", str(whole)])
    want = json.loads(whole.read_text())["rows"][0]

    stopped = tmp_path / "stopped.json"
    bt._real_chunk = bt._chunk
    _chunk_failing_at_seed_2.module = bt.__name__
    monkeypatch.setattr(bt, "_chunk", _chunk_failing_at_seed_2)
    with pytest.raises(RuntimeError, match="stopped"):
        bt.main([*args, "--results", str(stopped)])
    data = json.loads(stopped.read_text())
    assert data["rows"] == []
    part = data["partial"][f"random|{seat_id}"]
    assert part["spec"] == "random" and part["fights"] == 4 and "2" not in part["blocks"]
    assert {"0", "1"} <= set(part["blocks"])

    monkeypatch.setattr(bt, "_chunk", bt._real_chunk)
    capsys.readouterr()
    bt.main([*args, "--results", str(stopped)])
    assert "resuming" in capsys.readouterr().out
    data = json.loads(stopped.read_text())
    assert "partial" not in data
    got = data["rows"][0]
    assert {k: got[k] for k in ("fights", "wins", "losses", "draws", "win_rate")} == \
        {k: want[k] for k in ("fights", "wins", "losses", "draws", "win_rate")}


@pytest.mark.parametrize("partial", [
    {"spec": "scripted", "fights": 4, "seconds": 1, "blocks": {"0": {"fights": 1, "wins": 1,
                                                                     "losses": 0, "draws": 0}}},
    {"spec": "random", "fights": 40, "seconds": 1, "blocks": {"0": {"fights": 1, "wins": 1,
                                                                    "losses": 0, "draws": 0}}},
    {"spec": "random", "fights": 4, "seconds": 1, "blocks": {"0": {"fights": 9, "wins": 9,
                                                                   "losses": 0, "draws": 0}}},
])
def test_a_partial_seat_of_another_run_or_a_crafted_one_is_not_taken(partial, tmp_path: Path,
                                                                      monkeypatch, capsys):
    bt = bench_module("benchmark_table")
    monkeypatch.setattr(bt, "BLOCK", 1)
    seat_id = bt.seats_of("radscorpions", "simple")[0][1].id
    results = tmp_path / "r.json"
    results.write_text(json.dumps({"family": "radscorpions", "ruleset": "simple", "rows": [],
                                   "partial": {f"random|{seat_id}": partial}}))
    bt.main(["run", "radscorpions", "simple", "--agents", "random", "-n", "4", "--jobs", "1",
             "--seats", seat_id, "--results", str(results)])
    assert "resuming" not in capsys.readouterr().out
    row = json.loads(results.read_text())["rows"][0]
    assert row["fights"] == 4 and row["wins"] + row["losses"] + row["draws"] == 4


def test_the_page_names_the_seats_left_partly_played(tmp_path: Path) -> None:
    """A seat a stopped run left partly played is named under its section with how far it
    got (a crafted partial entry is refused in one line: test_benchmark_table_files.py)."""
    bt = bench_module("benchmark_table")
    block = {"fights": bt.BLOCK, "wins": 10, "losses": bt.BLOCK - 10, "draws": 0}
    results = tmp_path / "r.json"
    results.write_text(json.dumps({"family": "radscorpions", "ruleset": "simple", "rows": [],
                                   "partial": {
                                       "hard|radscorpions_duel_simple": {
                                           "spec": "hard", "fights": 1000, "seconds": 5,
                                           "blocks": {"0": block, str(bt.BLOCK): block}}}}))
    out = tmp_path / "page.md"
    bt.main(["write", str(results), "--out", str(out)])
    page = out.read_text()
    line = [ln for ln in page.splitlines() if ln.startswith("Partly played")]
    assert line == [f"Partly played (the same `run` command resumes them): hard in "
                    f"radscorpions_duel_simple ({2 * bt.BLOCK:,} of 1,000 fights)."]


def test_a_row_is_compared_with_the_packet_on_its_own_seeds(tmp_path: Path) -> None:
    """A slow agent's 200 fights are set against the packet's 200 (a `packet#packet_200`
    row, seeds 0..199), never against the packet's 1,000 on other seeds."""
    bt = bench_module("benchmark_table")
    seat = bt.seats_of("radscorpions", "simple")[0][1].id
    row = {"test": "seat", "seat": seat, "draws": 0}
    rows = [dict(row, agent="packet", spec="packet", fights=1000, wins=500, losses=500),
            dict(row, agent="deadly", spec="deadly", fights=200, wins=150, losses=50)]
    results = tmp_path / "radscorpions_simple.json"
    page = tmp_path / "b.md"

    def line_of(agent: str) -> str:
        results.write_text(json.dumps({"family": "radscorpions", "ruleset": "simple",
                                       "rows": rows}))
        bt.main(["write", str(results), "--out", str(page)])
        return next(x for x in page.read_text().splitlines() if x.startswith(f"| {agent} |"))

    assert "no packet row on the same seeds" in line_of("deadly")
    rows.append(dict(row, agent="packet_200", spec="packet", fights=200, wins=90, losses=110))
    assert "| +30.0 [" in line_of("deadly")  # 75% against the packet's 45% on its seeds
    assert line_of("packet_200").split("|")[6].strip() == "-"
    assert line_of("packet").split("|")[6].strip() == "-"


def _search_run(tmp_path: Path, rows: list[dict]) -> Path:
    p = tmp_path / "search.json"
    p.write_text(json.dumps({"agent": "search:level=deadly,turn=0", "rows": rows}))
    return p


def test_a_search_runs_rows_are_imported_beside_the_packet_on_the_same_seeds(
        tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    seat = bt.seats_of("radscorpions", "simple")[0][1].id
    results = tmp_path / "radscorpions_simple.json"
    packet = {"agent": "packet_200", "spec": "packet", "test": "seat", "seat": seat,
              "fights": 200, "wins": 90, "losses": 100, "draws": 10}
    results.write_text(json.dumps({"family": "radscorpions", "ruleset": "simple",
                                   "rows": [packet]}))
    run = _search_run(tmp_path, [
        {"seat": seat, "fights": 200, "packet": 0.45, "agent": 0.6, "decided": 190,
         "mean_s": 0.05, "mirror": False},
        {"seat": "radscorpions_mirror_simple", "fights": 200, "packet": 0.5, "agent": 0.55,
         "decided": 196, "mirror": True}])
    bt.main(["import-search", str(run), "radscorpions", "simple", "--results", str(results)])
    rows = {r["seat"]: r for r in json.loads(results.read_text())["rows"] if r["agent"] == "deadly"}
    assert (rows[seat]["wins"], rows[seat]["losses"], rows[seat]["draws"]) == (120, 70, 10)
    assert rows[seat]["test"] == "seat" and rows[seat]["spec"] == "search:level=deadly,turn=0"
    m = rows["radscorpions_mirror_simple"]
    assert (m["test"], m["wins"], m["losses"], m["draws"]) == ("mirror", 110, 86, 4)
    page = tmp_path / "b.md"
    bt.main(["write", str(results), "--out", str(page)])
    line = next(x for x in page.read_text().splitlines() if x.startswith("| deadly | seat |"))
    assert "| +15.0 [" in line  # 60% against the packet's 45% on the same 200 seeds


@pytest.mark.parametrize("packet_wins, missing, want", [
    (91, False, "its packet won 90 of 200, the packet's row 91: not the same fights"),
    (90, True, "has no packet row of 200 fights"),
])
def test_a_search_run_on_other_fights_is_refused_in_one_line(
        tmp_path: Path, packet_wins: int, missing: bool, want: str) -> None:
    bt = bench_module("benchmark_table")
    seat = bt.seats_of("radscorpions", "simple")[0][1].id
    results = tmp_path / "radscorpions_simple.json"
    rows = [] if missing else [{"agent": "packet_200", "spec": "packet", "test": "seat",
                                "seat": seat, "fights": 200, "wins": packet_wins,
                                "losses": 200 - packet_wins, "draws": 0}]
    results.write_text(json.dumps({"family": "radscorpions", "ruleset": "simple",
                                   "rows": rows}))
    before = results.read_text()
    run = _search_run(tmp_path, [{"seat": seat, "fights": 200, "packet": 0.45, "agent": 0.6,
                                  "decided": 190}])
    with pytest.raises(SystemExit) as e:
        bt.main(["import-search", str(run), "radscorpions", "simple", "--results",
                 str(results)])
    assert want in str(e.value) and "\n" not in str(e.value)
    assert results.read_text() == before


@pytest.mark.parametrize("row, want", [
    ({"decided": 100}, "decided 100 must be from the agent's wins (120) to fights (200)"),
    ({"agent": 0.6001}, "agent 0.6001 is not a whole number of 200 fights"),
    ({"seat": "no_such_seat"}, "seat no_such_seat is not one of radscorpions's"),
    ({"fights": "200"}, "rows[0].fights"),
])
def test_a_bad_search_run_is_one_line(tmp_path: Path, row: dict, want: str) -> None:
    bt = bench_module("benchmark_table")
    seat = bt.seats_of("radscorpions", "simple")[0][1].id
    results = tmp_path / "radscorpions_simple.json"
    results.write_text(json.dumps({"family": "radscorpions", "ruleset": "simple", "rows": [
        {"agent": "packet_200", "spec": "packet", "test": "seat", "seat": seat,
         "fights": 200, "wins": 90, "losses": 110, "draws": 0}]}))
    run = _search_run(tmp_path, [{"seat": seat, "fights": 200, "packet": 0.45, "agent": 0.6,
                                  "decided": 190, **row}])
    with pytest.raises(SystemExit) as e:
        bt.main(["import-search", str(run), "radscorpions", "simple", "--results",
                 str(results)])
    assert want in str(e.value) and "\n" not in str(e.value)


def test_a_mirror_seat_is_played_by_run_as_a_mirror_row(tmp_path: Path) -> None:
    """`run` plays a family's mirror seat too (issue 40, item 8: every seat at every level),
    as the agent against the packet on the same creatures, and the page reads it as one."""
    bt = bench_module("benchmark_table")
    mirrors = [sc.id for test, sc, side, _ in bt.seats_of("robots", "simple")
               if test == "mirror"]
    assert mirrors == ["robots_mirror_simple"]
    assert [side for test, _, side, _ in bt.seats_of("robots", "simple")
            if test == "mirror"] == [None]
    results = tmp_path / "robots_simple.json"
    bt.main(["run", "robots", "simple", "--agents", "random", "-n", "2", "--jobs", "1",
             "--results", str(results), "--seats", "robots_mirror_simple"])
    rows = json.loads(results.read_text())["rows"]
    assert [(r["agent"], r["test"], r["seat"], r["fights"]) for r in rows] == [
        ("random", "mirror", "robots_mirror_simple", 2)]
    page = tmp_path / "b.md"
    bt.main(["write", str(results), "--out", str(page)])
    line = next(x for x in page.read_text().splitlines() if x.startswith("| random |"))
    assert "mirror:" in line and "decided" in line


def test_the_packet_is_not_asked_for_in_its_own_mirror(tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    seats = [(sc.id, test) for test, sc, _, _ in bt.seats_of("robots", "simple")]
    row = {"fights": 10, "wins": 5, "losses": 5, "draws": 0}
    rows = [dict(row, agent=a, seat=s, test=t) for a in bt.STANDARD_AGENTS for s, t in seats
            if not (a == "packet" and t == "mirror")]
    results = tmp_path / "robots_simple.json"
    results.write_text(json.dumps({"family": "robots", "ruleset": "simple", "rows": rows}))
    page = tmp_path / "b.md"
    bt.main(["write", str(results), "--out", str(page)])
    assert "Not played" not in page.read_text()
    # a level missing in the mirror is named
    rows = [r for r in rows if not (r["agent"] == "deadly" and r["test"] == "mirror")]
    results.write_text(json.dumps({"family": "robots", "ruleset": "simple", "rows": rows}))
    bt.main(["write", str(results), "--out", str(page)])
    missing = [x for x in page.read_text().splitlines() if x.startswith("Not played")]
    assert missing == ["Not played yet: deadly in robots_mirror_simple."]
