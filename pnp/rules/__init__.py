"""Pure game logic over content models: no I/O, no drawing, no Flask."""
