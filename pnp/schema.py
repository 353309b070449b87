"""JSON Schemas for every kind of content file and for templates, for editors that validate YAML.

Each game's kinds go in a folder of their own (two games may both have a `words` kind, each its
own shape): OUT/<game-id>/<kind>.schema.json, and OUT/template.schema.json, which accepts a
template that `extends` another as well as a complete one.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import TypeAdapter

from pnp.components.templates import Template
from pnp.gamedef import games


def schemas() -> dict[str, dict]:
    """Relative file name (without .schema.json) -> schema."""
    out = {"template": template_schema()}
    for game in games().values():
        for kind, spec in game.load("kinds").items():
            out[f"{game.id}/{kind}"] = spec.model.model_json_schema()
    return out


PARTIAL = "Partial"  # the prefix of an extending template's definitions


def template_schema() -> dict:
    """A complete template, or one that `extends` another: that one may leave out anything at any
    depth, since it is merged key by key over its parent before it is validated as a whole."""
    complete = TypeAdapter(Template).json_schema()
    definitions = complete.pop("$defs")
    return {
        "$defs": {**definitions, **{PARTIAL + name: loosened(d) for name, d in definitions.items()}},
        "anyOf": [complete, {**loosened(complete), "required": ["extends"]}],
    }


def loosened(schema):
    """`schema` with nothing required, alternatives that may overlap (a part need not say which
    kind it is), and references to the loosened definitions."""
    if isinstance(schema, list):
        return [loosened(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "required":
            continue
        if key == "$ref" and isinstance(value, str):
            prefix, _, name = value.rpartition("/")
            out[key] = f"{prefix}/{PARTIAL}{name}"
        elif key == "discriminator":  # an OpenAPI hint naming `kind`/`type`, which a part may leave out
            continue
        else:
            out["anyOf" if key == "oneOf" else key] = loosened(value)
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
