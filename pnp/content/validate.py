"""Validate a Source against a pydantic model, turning every error into a located Problem."""

from __future__ import annotations

from functools import cache
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
)

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


@cache
def _adapter(model) -> TypeAdapter:
    return TypeAdapter(model)


def validate(model, source: Source) -> Any:
    """`source` validated as `model` (a model class or an annotated union of them), or
    ContentError with a located problem for every error."""
    try:
        return _adapter(model).validate_python(source.data)
    except ValidationError as err:
        raise ContentError([_problem(source, e, model) for e in err.errors()]) from None


def _problem(source: Source, error: dict, root) -> Problem:
    loc = tuple(error["loc"])
    mark, field = source.mark_for(loc)
    if error["type"] == "extra_forbidden":
        data_path = tuple(int(part) if part.isdigit() else part for part in field.split("."))
        mark = source.key_marks.get(data_path, mark)
        allowed = fields_at(root, loc[:-1])
        expected = "one of " + ", ".join(allowed) if allowed else "one of the documented fields"
        return Problem(mark, field, f"unknown field (expected {expected}, got {describe(loc[-1])})")
    return Problem(mark, field, _message(error))


def fields_at(root, loc: tuple) -> list[str]:
    """The field names of the model found by following `loc` (a validation error's path) from `root`."""
    current = root
    for step in loc:
        current = _unwrap(current, step)
        if get_origin(current) in (list, tuple, dict):
            current = get_args(current)[-1]  # an item of a list or tuple, a value of a mapping
        elif isinstance(current, type) and issubclass(current, BaseModel) and step in current.model_fields:
            current = current.model_fields[step].annotation
        # any other step names a union member (a tag such as "text"): resolved by _unwrap next time
    current = _unwrap(current, None)
    return list(current.model_fields) if isinstance(current, type) and issubclass(current, BaseModel) else []


def _unwrap(tp, step):
    """Strip Annotated and Optional; pick a union member by its tag, the next step of a location."""
    while True:
        if get_origin(tp) is Annotated:
            tp = get_args(tp)[0]
        elif get_origin(tp) in (Union, UnionType):
            members = [m for m in get_args(tp) if m is not type(None)]
            tagged = [
                m
                for m in members
                if isinstance(m, type)
                and issubclass(m, BaseModel)
                and any(step in get_args(f.annotation) for f in m.model_fields.values())
            ]
            tp = tagged[0] if tagged else members[0]
        else:
            return tp


def _message(error: dict) -> str:
    kind, got, msg = error["type"], error.get("input"), error["msg"]
    if kind == "missing":
        return "missing (expected a value, got nothing)"
    if kind == "value_error":
        # our own validators raise ValueError("<what was expected>")
        return f"expected {error['ctx']['error']}, got {describe(got)}"
    if msg.startswith("Input should be "):
        expected = msg.removeprefix("Input should be ").split(", unable")[0]
        return f"expected {expected}, got {describe(got)}"
    return f"{msg} (got {describe(got)})"
