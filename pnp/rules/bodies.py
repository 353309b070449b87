"""What a phone sends, read as strictly as the OpenAPI document describes it: each body is
validated as the JSON it came as, without pydantic's conversions (a number in quotes, 2.0 for a
count or 1 for true is refused), and a body that does not fit is Malformed, every problem's field
and reason in our words. What the server stored itself (a log, a table's options) is read back as
it was, without this."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from pnp.content.validate import reason

M = TypeVar("M", bound=BaseModel)


class Malformed(ValueError):
    """A body that is not the shape its model takes: (field, reason) for each problem, the field
    a dotted path ("choices.attack.0.player")."""

    def __init__(self, problems: list[tuple[str, str]]):
        super().__init__(problems[0][1] if problems else "invalid")
        self.problems = problems or [("", "invalid")]

    @classmethod
    def of(cls, err: ValidationError, model: type[BaseModel] | None) -> Malformed:
        """`err`'s problems, their reasons naming what `model` allows there (fields, choices)."""
        return cls([(".".join(map(str, e["loc"])), reason(e, model)) for e in err.errors()])

    def under(self, prefix: str) -> Malformed:
        """The same problems, each field inside `prefix` (a table's options inside its body)."""
        return Malformed([(".".join(filter(None, (prefix, field))), said) for field, said in self.problems])


def strictly(model: type[M], data: Mapping[str, Any]) -> M:
    """`data` from a phone as `model`, or Malformed."""
    try:
        return model.model_validate_json(json.dumps(dict(data)), strict=True)
    except ValidationError as err:
        raise Malformed.of(err, model) from None
