"""Spells and Potions: element cards, Spells and Potions cards, reference cards, tournament score pads."""

from pnp.gamedef import GameDef

GAME = GameDef(
    id="spells-and-potions",
    title="Spells and Potions",
    kinds="pnp.games.spells_and_potions.kinds:KINDS",
    numbers="pnp.games.spells_and_potions.kinds:rule_numbers",
    check="pnp.games.spells_and_potions.checks:check",
    printed="pnp.games.spells_and_potions.printed:MAKERS",
    # rules: "Spells and Potions tournaments are originally designed for 4 wizards, although
    # variations for 3 or 2 wizard play exist"
    players=(2, 4),
    tracker="pnp.games.spells_and_potions.tracker:TRACKER",
)
