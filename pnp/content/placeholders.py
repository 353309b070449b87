"""Rule numbers in printed words: `{research_cost}` in a text is the number the rules use.

A game names its rule numbers once, in its content (pnp.games.<game>.kinds: rule_numbers); every
text that states one refers to it, so changing the number changes the card, the sheet and the rule
function together. Inside a card, the card's own number fields are placeholders too (`{points}`).
A field whose words take a value only when drawn (a duel's number on a score pad) declares those
names with `Later(...)`; they are left for the drawing code to fill.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from pydantic import BaseModel

from pnp.content.problems import Problem, closest

PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


@dataclass(frozen=True)
class Later:
    """Field metadata: placeholder names this text keeps for the code that draws it to fill."""

    names: tuple[str, ...]

    def __init__(self, *names: str):
        object.__setattr__(self, "names", names)


def format_number(value: object) -> str:
    """12 -> '12', 2.5 -> '2½', -10 -> '−10' (a real minus sign), other values as text."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    sign = "−" if value < 0 else ""
    whole, part = divmod(Fraction(abs(value)).limit_denominator(8), 1)
    fractions = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}
    if part == 0:
        return f"{sign}{whole}"
    if part in fractions:
        return f"{sign}{whole or ''}{fractions[part]}"
    return f"{sign}{abs(value):g}"


def fill(text: str, scope: Mapping[str, object], keep: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    """`text` with each known placeholder replaced; the unknown names, in order, beside it."""
    unknown: list[str] = []

    def replace(match: re.Match) -> str:
        name = match.group(1)
        if name in scope:
            return format_number(scope[name])
        if name not in keep:
            unknown.append(name)
        return match.group(0)

    return PLACEHOLDER.sub(replace, text), unknown


def _local_numbers(model: BaseModel) -> dict[str, object]:
    """A model's own number fields: a card's `{points}`."""
    return {
        name: value
        for name in type(model).model_fields
        if isinstance(value := getattr(model, name), int | float) and not isinstance(value, bool)
    }


def fill_model(model: BaseModel, numbers: Mapping[str, object], locate, path: tuple = ()):
    """(the model with every placeholder filled, problems for unknown names); `locate(*path)`
    gives the (mark, field) of a value for the problem."""
    scope = {**numbers, **_local_numbers(model)}
    updates: dict[str, object] = {}
    problems: list[Problem] = []
    for name, info in type(model).model_fields.items():
        keep = next((m.names for m in info.metadata if isinstance(m, Later)), ())
        value = getattr(model, name)
        new, found = _fill_value(value, scope, numbers, keep, locate, path + (name,))
        problems += found
        if new is not value:
            updates[name] = new
    return (model.model_copy(update=updates) if updates else model), problems


def _fill_value(value, scope, numbers, keep, locate, path):
    if isinstance(value, str):
        if "{" not in value:
            return value, []
        text, unknown = fill(value, scope, keep)
        return text, [_unknown(name, scope, locate, path) for name in unknown]
    if isinstance(value, BaseModel):
        return fill_model(value, numbers, locate, path)
    if isinstance(value, list | tuple):
        results = [_fill_value(item, scope, numbers, keep, locate, path + (i,)) for i, item in enumerate(value)]
        changed = any(new is not old for (new, _), old in zip(results, value, strict=True))
        return (type(value)(new for new, _ in results) if changed else value), [p for _, ps in results for p in ps]
    if isinstance(value, dict):
        results = {key: _fill_value(item, scope, numbers, keep, locate, path + (key,)) for key, item in value.items()}
        changed = any(results[key][0] is not item for key, item in value.items())
        return ({key: new for key, (new, _) in results.items()} if changed else value), [
            p for _, ps in results.values() for p in ps
        ]
    return value, []


def _unknown(name: str, scope: Mapping[str, object], locate, path: tuple) -> Problem:
    mark, field = locate(*path)
    close = closest(name, scope, cutoff=0.6)
    hint = f"; did you mean {{{close}}}?" if close else ""
    known = ", ".join(f"{{{n}}}" for n in sorted(scope))
    return Problem(mark, field, f"unknown placeholder (expected one of {known}, got {{{name}}}{hint})")
