"""An `Enum` member's `.value` picks which layer to read; the saved tensor is used directly.

`.value` on an enum member is the enum API, not the old nnsight proxy API.
"""
import enum


class Site(enum.Enum):
    EARLY = 0
    LATE = 1


with model.trace("hello world"):
    hidden = model.transformer.h[Site.LATE.value].output.save()

print(Site.EARLY.value, hidden.shape)
