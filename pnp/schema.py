"""JSON Schemas for every kind of content file and for templates, for editors that validate YAML."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import TypeAdapter

from pnp.games import available, game_module
from pnp.render.templates import Template


def schemas() -> dict[str, dict]:
    """File name -> schema: one per content kind across all games, plus `template`."""
    out = {"template": TypeAdapter(Template).json_schema()}
    for game_id in available():
        for kind, spec in game_module(game_id).KINDS.items():
            out[kind] = spec.model.model_json_schema()
    return out


def write_schemas(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in sorted(schemas().items()):
        schema = {**schema, "$schema": "https://json-schema.org/draft/2020-12/schema", "title": name}
        path = directory / f"{name}.schema.json"
        path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
        written.append(path)
    return written
