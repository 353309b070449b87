"""Validate a Source against a pydantic model, turning every error into a located Problem."""

from __future__ import annotations

from enum import Enum
from functools import cache
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
)

from pnp.content.problems import ContentError, Problem, expected_got
from pnp.content.yamlsource import Source
from pnp.units import parse_font_size, parse_length

_LENGTH_TEXT = Annotated[str, Field(pattern=r"^-?\d+(\.\d+)?\s*(mm|in|pt)?$")]
# Written as a number (mm) or "3mm", "0.5in", "9pt"; held in points.
Length = Annotated[float, BeforeValidator(parse_length, json_schema_input_type=float | _LENGTH_TEXT)]
FontSize = Annotated[float, BeforeValidator(parse_font_size, json_schema_input_type=float | _LENGTH_TEXT)]


class Strict(BaseModel):
    """Base of every content and template model: unknown keys are errors, models are frozen,
    and no number is NaN or infinite (`.nan`, `.inf`, "nan" pass no bound check)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, defer_build=True)


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
        mark = source.key_mark_for(loc) or mark  # the unknown key itself is the offender
    return Problem(mark, field, reason(error, root))


def reason(error: dict, root=None) -> str:
    """What is wrong with one value of a pydantic validation error, in our words ("expected ...,
    got ..."), for a content problem or an API answer alike; `root`, the model validated, lets it
    name the fields and choices allowed there."""
    loc = tuple(error["loc"])
    if error["type"] == "extra_forbidden":
        allowed = fields_at(root, loc[:-1]) if root is not None else []
        expected = "one of " + ", ".join(allowed) if allowed else "one of the documented fields"
        return f"unknown field ({expected_got(expected, loc[-1], allowed)})"
    return _message(error, _type_at(root, loc) if root is not None else None)


def fields_at(root, loc: tuple) -> list[str]:
    """The field names of the model found by following `loc` (a validation error's path) from `root`."""
    current = _type_at(root, loc)
    return list(current.model_fields) if isinstance(current, type) and issubclass(current, BaseModel) else []


def _type_at(root, loc: tuple):
    """The type found by following `loc` from `root`, Annotated and Optional stripped."""
    current = root
    for step in loc:
        current = _unwrap(current, step)
        if get_origin(current) in (list, tuple, dict):
            current = get_args(current)[-1]  # an item of a list or tuple, a value of a mapping
        elif isinstance(current, type) and issubclass(current, BaseModel) and step in current.model_fields:
            current = current.model_fields[step].annotation
        # any other step names a union member (a tag such as "text"): resolved by _unwrap next time
    return _unwrap(current, None)


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


# What a value should have been, by pydantic's error type; `ctx` holds the bound that was broken.
_EXPECTED = {
    "int_parsing": "a whole number",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "float_parsing": "a number",
    "float_type": "a number",
    "finite_number": "a finite number",
    "greater_than_equal": "a number >= {ge}",
    "greater_than": "a number > {gt}",
    "less_than_equal": "a number <= {le}",
    "less_than": "a number < {lt}",
    "multiple_of": "a multiple of {multiple_of}",
    "string_type": "text",
    "string_pattern_mismatch": "text matching {pattern}",
    "bool_parsing": "true or false",
    "bool_type": "true or false",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping of fields",
    "model_attributes_type": "a mapping of fields",
    "literal_error": "one of {expected}",
    "enum": "one of {expected}",
    "union_tag_invalid": "{discriminator} to be one of {expected_tags}",
    "union_tag_not_found": "a {discriminator} field",
    "value_error": "{error}",  # our own validators raise ValueError("<what was expected>")
    "assertion_error": "{error}",
}


def _message(error: dict, expected_type) -> str:
    kind, ctx, got = error["type"], error.get("ctx", {}), error.get("input")
    if kind == "missing":
        return "missing (expected a value, got nothing)"
    if kind in ("too_short", "too_long"):
        bound = "at least {min_length}" if kind == "too_short" else "at most {max_length}"
        return f"expected {_plural(bound.format(**ctx), 'item')}, got {ctx['actual_length']}"
    if kind in ("string_too_short", "string_too_long"):
        bound = "at least {min_length}" if kind == "string_too_short" else "at most {max_length}"
        return expected_got(f"text of {_plural(bound.format(**ctx), 'character')}", got)
    choices = _choices(expected_type) if kind in ("literal_error", "enum") else ()
    if choices:
        expected = "one of " + ", ".join(map(repr, choices))
        return expected_got(expected, got, [c for c in choices if isinstance(c, str)])
    if kind == "union_tag_invalid":
        got = ctx["tag"]
    template = _EXPECTED.get(kind)
    if template is None:  # an error type with no wording here yet: still say what and where
        return expected_got(f"a valid value ({kind.replace('_', ' ')})", got)
    return expected_got(template.format(**ctx), got)


def _choices(tp) -> tuple:
    """The values a Literal or Enum type allows, for a message that lists them one by one."""
    if get_origin(tp) is Literal:
        return get_args(tp)
    return tuple(member.value for member in tp) if isinstance(tp, type) and issubclass(tp, Enum) else ()


def _plural(count: str, noun: str) -> str:
    return f"{count} {noun}{'' if count.endswith(' 1') else 's'}"


def naming_each(*keys):
    """A mapping that must name every one of `keys` (the code looks each one up)."""

    def complete(mapping: dict) -> dict:
        missing = [str(k) for k in keys if k not in mapping]
        if missing:
            raise ValueError(f"a name for each of {', '.join(map(str, keys))} ({', '.join(missing)} missing)")
        return mapping

    return AfterValidator(complete)
