"""Spellcycles: spells found as patterns of coloured components on a shared casting field."""

from pnp.gamedef import GameDef

GAME = GameDef(
    id="spellcycles",
    title="Spellcycles",
    kinds="pnp.games.spellcycles.kinds:KINDS",
    numbers="pnp.games.spellcycles.kinds:rule_numbers",
    check="pnp.games.spellcycles.checks:check",
    printed="pnp.games.spellcycles.printed:MAKERS",
    # FACTS: "The game is for about 2-5 players."; the rules: "Moon Crescents: ... equal to the number of players"
    players=(2, 5),
    regions="pnp.games.spellcycles.pattern_region:KINDS",
    tracker="pnp.games.spellcycles.tracker:TRACKER",
    simulation="pnp.games.spellcycles.sim_command:SIMULATION",
    projector=True,
)
