"""The line game's commands beside the full-screen game's (issue 26, item 5): undo, the
hint, help for one action, and no second copy of a line typed at a terminal; and the
GM's round in fewer lines (item 3): the proposal first, the alternatives on ? or alts,
an NPC's turn accepted up to its next roll with one Enter."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.cli.prompt import TerminalLines, echoes
from wasteland.rules import saves
from wasteland.rules.actions import Action


def play(tmp_path: Path, lines, ruleset: str = "pnp", resume: Path | None = None) -> str:
    con = Console(file=io.StringIO(), width=240)
    start(GameSetup(ruleset, "duel", "0", 3, resume=resume, save_to=tmp_path / "p.json"), con,
          lines)
    return con.file.getvalue()


def test_undo_takes_back_the_players_last_decision_and_the_npcs_after_it(tmp_path):
    out = play(tmp_path, iter(["cover", "end", "quit"]))
    before = saves.load(tmp_path / "p.json")
    mine = [h for h in before.history if h.startswith("ted:")]
    assert mine[-2:] == ["ted: cover", "ted: end"]
    out = play(tmp_path, iter(["undo", "quit"]), resume=tmp_path / "p.json")
    after = saves.load(tmp_path / "p.json")
    # back to where ted decided "end" (it works after a resume: the history is replayed)
    assert after.history == before.history[:before.history.index("ted: end")]
    assert "undone: ted: end" in out and "ted decides again" in out


def test_undo_passes_over_decisions_taken_for_the_player(tmp_path):
    # 2d20: `attack` aims first on its own, then attacks, and the turn ends by the end
    # rule: undo goes back to the decision the player was asked, before the aim
    play(tmp_path, iter(["attack young", "quit"]), "f2d20")
    b = saves.load(tmp_path / "p.json")
    ted = [h for h in b.history if h.startswith("ted:")]
    assert ted[:2] == ["ted: aim", "ted: attack young_radscorpion_0"], ted
    out = play(tmp_path, iter(["undo", "quit"]), "f2d20", resume=tmp_path / "p.json")
    assert "undone: ted: aim and the " in out
    assert not any(h.startswith("ted:") for h in saves.load(tmp_path / "p.json").history)


def test_nothing_to_undo_is_one_line(tmp_path):
    out = play(tmp_path, iter(["undo", "quit"]))
    assert "nothing to undo" in out


def test_the_hint_says_what_the_ai_would_do_and_enter_takes_it(tmp_path):
    out = play(tmp_path, iter(["hint", "", "quit"]))
    # the hint and its reason may wrap at the console's width
    hint = " ".join(out.split("\nhint: ", 1)[1].split("Enter takes it")[0].split())
    hint = f"hint: {hint} Enter takes it"
    taken = hint.split("hint: ")[1].split(" - ")[0]
    assert "(" in hint and "Enter takes it" in hint  # with the AI's reason
    assert f"ted: {taken}" in saves.load(tmp_path / "p.json").history


def test_enter_without_a_hint_is_still_an_error(tmp_path):
    out = play(tmp_path, iter(["", "quit"]))
    assert "empty input" in out


def test_help_for_one_action_explains_it(tmp_path):
    out = play(tmp_path, iter(["help 1", "help att you he", "help", "quit"]))
    assert "end - end the turn: End the turn" in out
    assert ("attack young_radscorpion_0 head - called shot at young_radscorpion_0's head: "
            in out)
    assert "The actions now: end: End the turn" in out


def test_a_line_typed_at_a_terminal_is_not_said_again(tmp_path):
    typed = iter(["look", "quit"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    lines = TerminalLines(read)
    assert not echoes(lines) and echoes(iter([]))
    out = play(tmp_path, lines)
    assert prompts == ["> ", "> "]
    assert "> look" not in out and "> quit" not in out
    (tmp_path / "x").mkdir()
    piped = play(tmp_path / "x", iter(["look", "quit"]))
    assert "> look" in piped  # piped input, which nobody saw typed, is echoed


def test_terminal_lines_end_at_end_of_file():
    def read(prompt: str) -> str:
        raise EOFError

    assert list(TerminalLines(read)) == []


def gm(tmp_path: Path, lines: list[str], ruleset: str = "pnp") -> str:
    con = Console(file=io.StringIO(), width=200)
    start_gm(GameSetup(ruleset, "duel", "0", 4, save_to=tmp_path / "gm.json"), con, iter(lines))
    return con.file.getvalue()


def test_the_gm_sees_the_proposal_first_and_the_alternatives_on_request(tmp_path):
    out = gm(tmp_path, ["end", "alts", "quit"])
    first = out.split("young_radscorpion_0 proposes:")
    assert len(first) == 2 and "young_radscorpion_0 could" not in first[0]
    assert "? lists its" in first[1].splitlines()[0]
    listed = first[1].split("> alts")[1]
    assert "young_radscorpion_0 could (small):" in listed and "1) end" in listed


def test_one_enter_accepts_the_npcs_turn_up_to_its_next_roll(tmp_path):
    # ted ends his turn; the radscorpion walks up and stings: one proposal, one Enter
    out = gm(tmp_path, ["end", "", "quit"])
    proposal = next(ln for ln in out.splitlines() if "proposes:" in ln)
    assert ", then " in proposal, proposal
    b = saves.load(tmp_path / "gm.json")
    npc = [h for h in b.history if h.startswith("young_radscorpion_0:")]
    assert len(npc) >= 2 and npc[0].startswith("young_radscorpion_0: move")
    typed = [ln for ln in out.splitlines() if ln.startswith("> ") or ln == ">"]
    assert len(typed) == 3, typed  # end, Enter, quit


def test_an_override_after_a_planned_proposal_leaves_the_npc_as_it_was(tmp_path):
    out = gm(tmp_path, ["end", "end", "quit"])
    assert "proposes:" in out
    b = saves.load(tmp_path / "gm.json")
    assert b.history[-1] == "young_radscorpion_0: end"


def test_the_rest_of_a_turn_typed_with_the_answer_is_taken_in_turn(tmp_path):
    out = play(tmp_path, iter(["cover; attack you", "quit"]))
    history = saves.load(tmp_path / "p.json").history
    ted = [h for h in history if h.startswith("ted:")]
    assert ted == ["ted: cover", "ted: attack young_radscorpion_0"]
    assert "ted: attack young_radscorpion_0 (typed with the answer)" in out
    assert "ted decides (large):" not in out  # the Large action was not asked


def test_a_typed_part_that_is_not_legal_then_is_said_and_the_player_asked(tmp_path):
    out = play(tmp_path, iter(["cover; fly away", "end", "quit"]))
    assert "not taken: fly away ('fly away' is not a legal action now" in out
    assert "ted decides (large):" in out


def test_the_orders_of_an_answer_survive_a_save():
    from wasteland.cli.orders import Orders, load_orders

    o = Orders(2, 3, 1, Action("attack", 4), 2, True, ("attack raider_0", "end"))
    assert load_orders(o.dumps()) == o
    assert load_orders("not json") is None and load_orders(None) is None


def test_one_enter_accepts_what_the_npcs_side_does_up_to_a_roll_or_the_party(tmp_path):
    """Simple's move phase on ruined_street: the enemies' moves and stances, one NPC
    after another, are proposed together and taken with one Enter."""
    con = Console(file=io.StringIO(), width=400)
    proposals: list[str] = []

    def gm_answers():
        while True:
            last = con.file.getvalue().rstrip().splitlines()[-1]
            if "proposes:" in last:
                proposals.append(last)
                if ", then " in last and ": " in last.split(", then ", 1)[1]:
                    yield ""  # a proposal of more than one NPC: accept it, then stop
                    yield "quit"
                    return
                yield ""
            else:
                yield "end"

    start_gm(GameSetup("simple", "ruined_street", "0", 1, save_to=tmp_path / "gm.json"), con,
             gm_answers())
    last = proposals[-1]
    first = last.split(" proposes: ")[0].strip()
    parts = last.split(" proposes: ")[1].split(" - Enter")[0].split(", then ")
    whose, who = [], first
    for p in parts:  # "crouch", "raider_1: move toward grunt" ...
        if ": " in p:
            who, p = p.split(": ", 1)
        whose.append(f"{who}: {p}")
    assert len({w.split(":")[0] for w in whose}) > 1, last
    history = saves.load(tmp_path / "gm.json").history
    assert history[-len(whose):] == whose
