"""Magecraft: a duel (or melee) of wizards casting spellbooks of gems drawn from their bags."""

from pnp.gamedef import GameDef

GAME = GameDef(
    id="magecraft",
    title="Magecraft",
    kinds="pnp.games.magecraft.kinds:KINDS",
    numbers="pnp.games.magecraft.kinds:rule_numbers",
    check="pnp.games.magecraft.checks:check",
    printed="pnp.games.magecraft.printed:MAKERS",
    simulation="pnp.games.magecraft.sim_command:SIMULATION",
    # FACTS: "2-4 players; 3-4 players need two copies of the components."
    players=(2, 4),
    regions="pnp.games.magecraft.gem_region:KINDS",
    tracker="pnp.games.magecraft.tracker:TRACKER",
    projector=True,
)
