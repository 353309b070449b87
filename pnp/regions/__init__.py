"""Region kinds: one module each (its model, its check, its drawing), found through one table.

A region module provides MODEL, a pydantic model whose `type` names it, `check(region, text)` returning
a problem's message or None, `fixed(region)`, true when it draws the same on every face whatever the
content says, and `draw(canvas, region, text, x, y, w, h, ink)`, where `text` is None when the
content gives the region nothing. The kinds every game may use are here, a module each and a line
in KINDS; a kind only one game draws (Magecraft's gems, a Spellcycles pattern) lives in that game's
package, which names it in its GameDef (`regions`), and `every_kind()` finds it there.
"""

from __future__ import annotations

import operator
from functools import cache, reduce
from types import ModuleType
from typing import Annotated

from pydantic import Field

from pnp.gamedef import GameDefError, games
from pnp.regions import grid, icon, shape, text, track

KINDS: dict[str, ModuleType] = {
    "text": text,
    "icon": icon,
    "shape": shape,
    "track": track,
    "grid": grid,
}


@cache
def every_kind() -> dict[str, ModuleType]:
    """Every region kind by its type: the shared ones and each game's own."""
    found = dict(KINDS)
    for game in games().values():
        for name, module in (game.load("regions") if game.regions else {}).items():
            if name in found:
                raise GameDefError(f"game {game.id}: a region kind named {name} is declared twice")
            found[name] = module
    return found


Region = Annotated[reduce(operator.or_, (kind.MODEL for kind in every_kind().values())), Field(discriminator="type")]
