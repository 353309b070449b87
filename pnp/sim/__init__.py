"""Simulations of the games' rules, to try a set before it is printed."""
