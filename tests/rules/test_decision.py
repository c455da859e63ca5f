"""rules/decision.py makes the same Decision the named tuple's constructor makes."""

from __future__ import annotations

import pickle

from wasteland.rules.decision import decision
from wasteland.rules.protocol import Decision


def test_decision_is_the_named_tuple() -> None:
    for args in [(0, "act"), (3, "small"), (9, "free", "opportunity", 2), (1, "dice", None, 4),
                 (200, "act")]:
        got, want = decision(*args), Decision(*args)
        assert type(got) is Decision and got == want and tuple(got) == tuple(want)
        assert (got.combatant, got.slot, got.reaction, got.subject) == tuple(want)
        assert pickle.loads(pickle.dumps(got)) == want


def test_a_plain_decision_is_made_once_and_others_each_time() -> None:
    assert decision(2, "act") is decision(2, "act")
    assert decision(2, "act") is not decision(2, "large")
    assert decision(2, "free", "readied", 1) == decision(2, "free", "readied", 1)
    assert decision(2, "act", None, 5).subject == 5 and decision(2, "act").subject is None
