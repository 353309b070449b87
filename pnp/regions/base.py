"""What every region has: a box on the face, in mm from the trim's top-left corner."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from pnp.content.validate import Length, Strict

# A coordinate or size on a face: generous, but bounded so no value can stall the layout.
FaceLength = Annotated[Length, Field(ge=-1000, le=1000)]
Box = tuple[FaceLength, FaceLength, FaceLength, FaceLength]


class Placed(Strict):
    box: Box
    rotate: Literal[0, 180] = 0  # 180: set upside down, for the turned corner of a card
