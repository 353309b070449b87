"""Spellpress: print-and-play components for five magic-themed tabletop games."""
