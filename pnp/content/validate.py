"""Validate a Source against a pydantic model, turning every error into a located Problem."""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from pnp.content.problems import ContentError, Problem, describe
from pnp.content.yamlsource import Source
from pnp.units import parse_font_size, parse_length

_LENGTH_TEXT = Annotated[str, Field(pattern=r"^-?\d+(\.\d+)?\s*(mm|in|pt)?$")]
# Written as a number (mm) or "3mm", "0.5in", "9pt"; held in points.
Length = Annotated[float, BeforeValidator(parse_length, json_schema_input_type=float | _LENGTH_TEXT)]
FontSize = Annotated[float, BeforeValidator(parse_font_size, json_schema_input_type=float | _LENGTH_TEXT)]


class Strict(BaseModel):
    """Base of every content and template model: unknown keys are errors, models are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def validate(model: type[BaseModel] | TypeAdapter, source: Source) -> Any:
    """The validated model, or ContentError with a located problem for every error."""
    adapter = model if isinstance(model, TypeAdapter) else TypeAdapter(model)
    try:
        return adapter.validate_python(source.data)
    except ValidationError as err:
        raise ContentError([_problem(source, e) for e in err.errors()]) from None


def _problem(source: Source, error: dict) -> Problem:
    mark, field = source.mark_for(tuple(error["loc"]))
    return Problem(mark, field, _message(error))


def _message(error: dict) -> str:
    kind, got, msg = error["type"], error.get("input"), error["msg"]
    if kind == "missing":
        return "missing (expected a value, got nothing)"
    if kind == "extra_forbidden":
        return f"unknown field (expected one of the documented fields, got {describe(error['loc'][-1])})"
    if kind == "value_error":
        # our own validators raise ValueError("<what was expected>")
        return f"expected {error['ctx']['error']}, got {describe(got)}"
    if msg.startswith("Input should be "):
        return f"expected {msg.removeprefix('Input should be ')}, got {describe(got)}"
    return f"{msg} (got {describe(got)})"
