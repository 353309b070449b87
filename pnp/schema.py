"""JSON Schemas for every kind of content file and for templates, for editors that validate YAML.

Each game's kinds go in a folder of their own (two games may both have a `words` kind, each its
own shape): OUT/<game-id>/<kind>.schema.json, and OUT/template.schema.json.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import TypeAdapter

from pnp.games import games
from pnp.render.templates import Template


def schemas() -> dict[str, dict]:
    """Relative file name (without .schema.json) -> schema."""
    out = {"template": TypeAdapter(Template).json_schema()}
    for game in games().values():
        for kind, spec in game.load("kinds").items():
            out[f"{game.id}/{kind}"] = spec.model.model_json_schema()
    return out


def write_schemas(directory: Path) -> list[Path]:
    written = []
    for name, schema in sorted(schemas().items()):
        schema = {**schema, "$schema": "https://json-schema.org/draft/2020-12/schema", "title": name}
        path = directory / f"{name}.schema.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
        written.append(path)
    return written
