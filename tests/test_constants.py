"""The analysis's enumerations (`analysis/constants.py`): members as an enum's, read as a plain
class's attributes."""
import copy
import pickle

import pytest

from nnsight_lint.analysis.constants import Constants
from nnsight_lint.analysis.model import CallKind, EventKind, Tri


def test_members_are_instances_of_their_class_with_a_name_and_a_value():
    assert isinstance(EventKind.READ, EventKind) and not isinstance(EventKind.READ, Tri)
    assert (EventKind.READ.name, EventKind.READ.value) == ("READ", "read")
    assert EventKind.READ is not EventKind.BIND and EventKind.READ != EventKind.BIND
    assert {EventKind.READ: 1}[EventKind.READ] == 1
    assert repr(Tri.UNKNOWN) == "<Tri.UNKNOWN: 'unknown'>"


def test_a_members_methods_and_properties_are_its_class():
    assert CallKind.AUTOGRAD_GRAD.retain_position == 3


def test_a_member_is_itself_after_a_copy_or_a_pickle():
    assert copy.deepcopy(EventKind.CALL) is EventKind.CALL
    assert pickle.loads(pickle.dumps([Tri.NO]))[0] is Tri.NO


def test_no_new_members_and_no_metaclass_hook_on_attribute_reads():
    with pytest.raises(TypeError):
        EventKind("read")
    # `enum.Enum`'s metaclass has a `__getattr__` on Python 3.11 and older: every read of a member
    # through the class went through it.
    assert type(EventKind) is type

    class Colour(Constants):
        RED = 1
        _hidden = 2

        def warm(self) -> bool:
            return self is Colour.RED

    assert Colour.RED.warm() and Colour._hidden == 2
