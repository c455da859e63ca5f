"""Taking cover (PnP's and Simple's "cover": a walk to the nearest free cover in reach)
depends on where the others stand, so with an enemy out of sight the mask's board (the
enemy where last seen) may offer it where the true board has no free cover in reach (the
enemy stands on it or walls it off). Such a choice is refused, the decision kept, as a
blocked charge is (docs/rules/sight.md). Found by the radscorpion_simple policy in the
storm drain seat, seed 16: 'cover' is not legal for young_radscorpion_1 now."""

from __future__ import annotations

from wasteland.agents.make import make_agent
from wasteland.bestiary.suite import load_suite
from wasteland.observe import fog
from wasteland.rules.actions import ACTION_INDEX, Action
from wasteland.rules.rulesets import get_ruleset
from wasteland.training.seats import fight

COVER = ACTION_INDEX[Action("cover")]


def test_cover_is_refusable_where_it_is_placed() -> None:
    assert "cover" in fog.PLACED
    for ruleset in ("pnp", "simple"):
        assert "cover" in get_ruleset(ruleset).tactics.refusable


def test_a_cover_someone_unseen_takes_away_is_refused_and_the_fight_goes_on() -> None:
    s = next(x for x in load_suite() if x.id == "radscorpions_storm_drain_simple")
    R = get_ruleset("simple")
    refused = []

    class Watched:
        """The policy, each of its decisions checked: where the board it knows offers
        cover and the true one does not, fog.resolve refuses it."""

        def __init__(self, seed: int) -> None:
            self.agent = make_agent("policy:radscorpion_simple", seed)

        def __getattr__(self, name):
            return getattr(self.agent, name)

        def act(self, view):
            b, me = view.battle, view.me.slot
            unseen = fog.hidden(b, me, True)
            if unseen and COVER not in view.legal_ids and COVER in fog.legal_ids(
                    R, b, me, True, unseen, memory=self.agent._encoder(view).memory):
                assert fog.resolve(R, b, me, COVER, True,
                                   memory=self.agent._encoder(view).memory) is None
                refused.append(b.round)
            return self.agent.act(view)

    # before cover was refusable, the policy's cover here raised IllegalActionError
    winner = fight(s.load(), "simple", 16, s.sides_for(16), s.kinds, Watched,
                   lambda sd: make_agent("packet", sd))
    assert refused and winner in (0, 1, None)
