"""`nnsight_lint.pytest_plugin`, the documented name of nnsight_lint.doors.pytest_plugin: one module under two names."""
import sys

from nnsight_lint.doors import pytest_plugin

sys.modules[__name__] = pytest_plugin
