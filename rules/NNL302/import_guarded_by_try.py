"""Code written for several nnsight releases imports the old proxy class under a `try` that catches
the ImportError: guarded, so no finding."""
try:
    from nnsight.intervention import InterventionProxy
except ImportError:
    InterventionProxy = None

assert InterventionProxy is None
