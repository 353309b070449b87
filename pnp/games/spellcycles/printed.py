"""Spellcycles' print-and-play set. TEMPORARY (branch sc-pieces): only the playing pieces of
pnp.games.spellcycles.pieces; the integrator merges the spell, blank and reference cards' makers."""

from __future__ import annotations

from pnp.components.set_list import Makers
from pnp.games.spellcycles.pieces import BOARDS, FACES, SHEETS

MAKERS = Makers(faces=FACES, sheets=SHEETS, boards=BOARDS)
