"""What a phone sends, read as strictly as the OpenAPI document describes it: each body is
validated as the JSON it came as, without pydantic's conversions (a number in quotes, 2.0 for a
count or 1 for true is refused), and a body that does not fit is Malformed, every problem's field
and reason in our words. What the server stored itself (a log, a table's options) is read back as
it was, without this."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic.json_schema import SkipJsonSchema

from pnp.content.validate import reason

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


class _Decided:
    """The mark of a field that the server decides (a deal, dice, the gems drawn)."""


DECIDED = _Decided()
# A body's field the server fills in from its own chance or rules before the move is logged: not
# in the request's schema, and refused in a phone's body (it would be replaced, not honoured).
ByServer = Annotated[T, SkipJsonSchema(), DECIDED]


def decided_by_server(model: type[BaseModel]) -> tuple[str, ...]:
    """The names of `model`'s fields the server fills in (ByServer)."""
    return tuple(name for name, info in model.model_fields.items() if DECIDED in info.metadata)


class Malformed(ValueError):
    """A body that is not the shape its model takes: (field, reason) for each problem, the field
    a dotted path ("choices.attack.0.player")."""

    def __init__(self, problems: list[tuple[str, str]]):
        super().__init__(problems[0][1] if problems else "invalid")
        self.problems = problems or [("", "invalid")]

    @classmethod
    def of(cls, err: ValidationError, model: type[BaseModel] | None) -> Malformed:
        """`err`'s problems, their reasons naming what `model` allows there (fields, choices)."""
        return cls([(shown_field(e["loc"]), reason(e, model)) for e in err.errors()])

    def under(self, prefix: str) -> Malformed:
        """The same problems, each field inside `prefix` (a table's options inside its body)."""
        return Malformed([(".".join(filter(None, (prefix, field))), said) for field, said in self.problems])


def shown_field(loc: tuple) -> str:
    """A validation error's path as the body's fields: "choices.0.to", without the names pydantic
    gives the members of a union it tried ("constrained-int", "list[constrained-int]")."""
    tag = lambda step: isinstance(step, str) and ("[" in step or step.startswith(("constrained-", "function-")))
    return ".".join(str(step) for step in loc if not tag(step))


def strictly(model: type[M], data: Mapping[str, Any]) -> M:
    """`data` from a phone as `model`, or Malformed; a field the server decides is refused."""
    sent = [name for name in decided_by_server(model) if name in data]
    if sent:
        raise Malformed([(name, "decided by the server (expected no value, got one)") for name in sent])
    try:
        return model.model_validate_json(json.dumps(dict(data)), strict=True)
    except ValidationError as err:
        raise Malformed.of(err, model) from None
