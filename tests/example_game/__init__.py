"""Lantern Charms: the small example game of docs/adding-a-game.md, which the tests build and play.

It is a game like the five, kept outside their folders so that it never ships: its content in
content/, its templates in templates/, its phone panel in panel/, and this package. `pnp build`
and the companion's home page never list it; a test hands its folders over as configuration.
"""

from pnp.gamedef import GameDef

GAME = GameDef(
    id="lantern-charms",
    title="Lantern Charms",
    kinds="tests.example_game.kinds:KINDS",
    numbers="tests.example_game.kinds:rule_numbers",
    check="tests.example_game.checks:check",
    printed="tests.example_game.printed:MAKERS",
    players=(2, 4),
    tracker="tests.example_game.tracker:TRACKER",
)
