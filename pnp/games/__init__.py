"""One package per game, each with its GameDef as GAME in its __init__ (the registry: pnp.gamedef)."""
