"""`python -m pnp` runs the `pnp` command."""

from pnp.cli import main

main()
