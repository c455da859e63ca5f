"""PnP's bookkeeping of a battle (rules/battle.py RulesBook): none beyond the fields every
battle has (its turns live in the battle's order, turn and slot), so a PnP save's "extra"
holds only those."""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from ..battle import RulesBook


@mypyc_attr(serializable=True)
@dataclass
class PnpBook(RulesBook):
    def copy(self) -> PnpBook:
        return PnpBook()
