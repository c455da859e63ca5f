"""The packet agent and issue 9's new action kinds: each is used where it fits the
packet, with a one-line reason true to the state, under each ruleset where it exists;
and the PnP cover step that left a gunman unable to shoot (robot_depot, seed 5)."""

from __future__ import annotations

from typing import Any

from wasteland.agents.packets import PacketAgent
from wasteland.rules.actions import Action
from wasteland.rules.battle import Combatant

from .test_packets import decide, scenario, start

FULL = {".": "floor", "#": "wall", ",": "light_cover", "=": "full_cover"}


def medic(c: Combatant, ranks: int) -> None:
    """Give ``c`` PnP Medicine ranks (no built-in creature has any)."""
    pnp = c.creature.pnp.model_copy(update={"medicine": ranks})
    c.creature = c.creature.model_copy(update={"pnp": pnp})


# --- PnP: a step into cover is taken only where it can still shoot -------------------------
def test_pnp_no_step_into_full_cover_it_cannot_shoot_from() -> None:
    """robot_depot seed 5: ted stepped into a full-cover square (nobody shoots out of full
    cover, seed 000) and then spent his Large action drawing a knife. The nearest cover
    here is full: the dweller stays and shoots; with light cover there it steps in."""
    for cell, steps in (("=", False), (",", True)):
        rows = ["." * 14] * 7
        rows[3] = "..." + cell + "." * 10
        s = scenario([[("vault_dweller", (2, 3))], [("raider", (9, 3))]],
                     rows="\n".join(rows), legend=FULL)
        rs, b = start("pnp", s)
        fields: dict[str, Any] = {"distance": "charge", "called_freq": 0, "min_to_hit": 0}
        action, reason = decide(rs, b, **fields)
        assert (action == Action("cover")) is steps, reason
        if steps:
            assert "takes cover" in reason
            rs.apply(b, action)
            assert b.combatants[0].pos == b.grid.index(3, 3)
            action, reason = decide(rs, b, **fields)
        assert action == Action("attack", 1), reason
