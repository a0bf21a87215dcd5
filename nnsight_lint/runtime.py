"""`nnsight_lint.runtime`, the documented name of nnsight_lint.doors.runtime: one module under two names."""
import sys

from nnsight_lint.doors import runtime

sys.modules[__name__] = runtime
