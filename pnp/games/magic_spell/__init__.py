"""Magic Spell: spell cards, ingredient tiles derived from the deck, spirit tracks, turn references."""

from pnp.gamedef import GameDef

GAME = GameDef(
    id="magic-spell",
    title="Magic Spell",
    kinds="pnp.games.magic_spell.kinds:KINDS",
    numbers="pnp.games.magic_spell.kinds:rule_numbers",
    check="pnp.games.magic_spell.checks:check",
    printed="pnp.games.magic_spell.printed:MAKERS",
    # rules: "Low Enrollment – You can play with two players." Their player counts are left blank;
    # the most is 4, as the set has always said (game.yaml: "3-4 students (2 with Low Enrollment)").
    players=(2, 4),
    tracker="pnp.games.magic_spell.tracker:TRACKER",
    simulation="pnp.games.magic_spell.sim_command:SIMULATION",
    player_sheets="spirit",
)
