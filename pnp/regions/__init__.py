"""Region kinds: one module each (its model, its check, its drawing), found through one table.

A region module provides MODEL, a pydantic model whose `type` names it, `check(region, text)` returning
a problem's message or None, `fixed(region)`, true when it draws the same on every face whatever the
content says, and `draw(canvas, region, text, x, y, w, h, ink)`, where `text` is None when the
content gives the region nothing. A new kind is one new module and one line here.
"""

from __future__ import annotations

import operator
from functools import reduce
from types import ModuleType
from typing import Annotated

from pydantic import Field

from pnp.regions import gems, grid, icon, pattern, shape, text, track

KINDS: dict[str, ModuleType] = {
    "text": text,
    "icon": icon,
    "shape": shape,
    "track": track,
    "grid": grid,
    "pattern": pattern,
    "gems": gems,
}

Region = Annotated[reduce(operator.or_, (kind.MODEL for kind in KINDS.values())), Field(discriminator="type")]
