"""Placeholder until the printed set lands."""
from pnp.components.set_list import Makers

MAKERS = Makers(faces={}, sheets={}, boards={})
