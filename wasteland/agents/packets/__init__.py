"""The packet agent: a scripted NPC driven by its creature's AI packet (Fallout 2's
AI.TXT fields), the same under every ruleset. It only ever picks among the legal actions,
and every decision carries a one-line reason a GM can read ("charges ted: closest enemy,
a reckless fighter"): the fields below are named there in words (traits.py), never by
their names.

How each field acts (the fields: wasteland/bestiary/models.py AIPacket):

- ``aggression``: how readily it spends to hurt - 2d20 AP for another attack, for d20s
  and combat dice, and AP kept back for Defense; above 50 it buys Defense less.
- ``min_to_hit``: it does not attack, nor take a free attack, at lower odds (2d20: the
  odds with the d20s it would buy). Under 2d20 it also skips attacks under 10%: a rally
  banks AP that buy better odds later.
- ``min_hp`` / ``run_away_mode``: at or under that share of its HP it runs from the
  enemies that could reach it next turn (a gunman only when close); when none is near it
  fights on, so a coward keeps its distance rather than leave the fight. Cornered, it
  fights.
- ``hurt_too_much``: a crippled (PnP) or injured (2d20) location of these kinds makes it
  run too ("blind": the head).
- ``distance``: charge (closes in; a charger draws its melee weapon to do it), snipe
  (backs away from anyone close, then shoots), stay (never moves: shoots, readies, holds
  its post), stay_close (keeps within STAY_CLOSE squares of its leader, the first-placed
  ally still standing).
- ``attack_who``: closest, weakest (least HP), strongest (most HP), or whoever last
  attacked it (else the closest); a foe left with no weapon it can use comes last.
- ``chem_use``: the HP share under which it uses a healing item on itself (2d20: drawing
  the chem first); under 2d20 also RadAway, once radiation has cut its maximum HP to that
  share of its full HP.
- ``best_weapon``: draws a weapon of that kind when it has one it can use, unless another
  would do more than twice the damage; with "any", the best expected damage.
- ``called_freq``: 0 never aims. PnP with V.A.T.S. AP for the shot: a V.A.T.S. shot costs
  no odds, only AP that refill each turn and buy nothing else, so any called_freq above 0
  takes one whenever it is worth more than the plain attack (``odds.pnp_shot_value``:
  exact hit and crit odds, expected damage capped at the HP left, the chance the target
  lives crippled times the share of its threat that takes away, a crit's bleeding or
  knock-down); in practice the head until it is crippled (its aim -4), then an arm to
  disarm or a brawler's leg. Issue 10: trained Vault policies beat the packet by doing
  this. Otherwise it is the percent of attacks aimed at a body part: an arm that would
  leave the target nothing to hold, the head, a brawler's leg; a called shot that costs
  odds (PnP without V.A.T.S. AP, 2d20) only when the spot makes up for it.
- ``area_attack_mode``: area weapons (PnP splash and spread, 2d20 burst): always, never,
  or be_careful (PnP: not when one of its allies stands within AREA_RADIUS of the target;
  2d20: as always, since a burst never carries on into allies); never a splash weapon at
  its own feet.

Tactics that are not packet fields but rules: PnP spends the small action before an
attack (a round loaded by hand, a step into cover from guns); 2d20 aims with a free
minor action, moves where a shot has better odds (asking the ruleset where a move
ends), burrows before striking an enemy already in reach (the sting from below is a sneak
attack; learned from the trained radscorpions) and when nothing else is worth doing,
rallies for AP when no attack is worth it,
and readies when an enemy may walk into reach.

Issue 9's actions, by field: ``chem_use`` - PnP ``pair X stimpak`` (in the Large action,
when the odds at -8 meet min_to_hit; a hurt creature with no one in reach walks up first,
keeping the stimpak for it), first aid on a bleeding patient or, with Medicine ranks and no
healing item to use, on a hurt one (2d20: people only, and first a dying ally next to it,
to stabilize it), ``extinguish`` a fire that would burn half the HP left; ``distance``
snipe - 2d20 ``prone`` for a hurt sniper in a zone without cover and no enemy close
(``stand`` once that no longer holds); ``aggression`` under 50 - 2d20 ``ready_to defend``
against a brawler that can reach it next turn; with no attack worth its major action,
2d20 ``assist`` an ally that can attack, ``rally_with speech`` when that pair banks more;
2d20 ``noroll`` at difficulty 0 when rolling would bank no more AP than the complications
it risks. Not used: ``speak`` (no effect), PnP ``prepare`` (the same thing done now, under
the same legality, is never worse), ``pair X whip``, 2d20 ``called X torso``.

The scenario's per-placement ``ai`` overrides apply on top of the creature's packet, and
the constructor's ``overrides`` (by combatant id) on top of both.
"""

from .agent import PacketAgent
from .aid import CHEM_BELOW, MEDICS
from .movement import STAY_CLOSE
from .odds import FLOOR_AP, damage_per_hit, hit_chance
from .packet import END, SNIPE_CLOSE
from .spare import ASSIST_MIN
from .weapons import AREA_RADIUS, weapon_kind

__all__ = [
    "ASSIST_MIN", "AREA_RADIUS", "CHEM_BELOW", "END", "FLOOR_AP", "MEDICS",
    "PacketAgent", "SNIPE_CLOSE", "STAY_CLOSE", "damage_per_hit", "hit_chance", "weapon_kind",
]
