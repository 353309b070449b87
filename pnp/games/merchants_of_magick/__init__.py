"""Merchants of Magick: the shoppe sheet and every card from one description of the sheet."""

from pnp.gamedef import GameDef

GAME = GameDef(
    id="merchants-of-magick",
    title="Merchants of Magick",
    kinds="pnp.games.merchants_of_magick.kinds:KINDS",
    numbers="pnp.games.merchants_of_magick.kinds:rule_numbers",
    check="pnp.games.merchants_of_magick.checks:check",
    printed="pnp.games.merchants_of_magick.printed:MAKERS",
    # rules: "In Merchants of Magick, 1-8 players compete to earn the most Coins"
    players=(1, 8),
    tracker="pnp.games.merchants_of_magick.tracker:TRACKER",
    simulation="pnp.games.merchants_of_magick.sim_command:SIMULATION",
    events=True,
    projector=True,
    player_sheets="sheets",
)
