"""Enumerations of constants the analysis compares in its innermost loops (`event.kind is
EventKind.READ`), as plain classes.

On CPython up to 3.11 a class made by `enum.Enum` answers every attribute read through
`EnumType.__getattr__`'s hook (`slot_tp_getattr_hook`: a method-wrapper made and freed per read),
about 4x a plain class's read. The analysis model and the rules read these members a few thousand
times a file: with `enum.Enum` that was an eighth of the work after the parse
(benchmarks/RESULTS.md, ninth session). A member here is what an enum member is to this code: an
instance of its class, compared by identity, with a `name` and a `value`.
"""
from __future__ import annotations


class Constants:
    """A class whose upper-case attributes become its members: `READ = "read"` makes `Kind.READ`
    an instance of `Kind` with `name` "READ" and `value` "read". Methods and properties of the
    class are the members'."""

    __slots__ = ("name", "value")

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        for name, value in list(vars(cls).items()):
            if name.isupper() and not name.startswith("_"):
                member = object.__new__(cls)
                member.name, member.value = name, value
                setattr(cls, name, member)

    def __new__(cls, *args, **kwargs):
        raise TypeError(f"{cls.__name__} has its members only")

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.name}: {self.value!r}>"

    def __reduce__(self):
        return getattr, (type(self), self.name)  # the same member when unpickled
