"""The analysis model: what traces, invokes and backward calls a file holds, and in what order
nnsight runs them. Rules read this model; they never re-derive it."""
from nnsight_lint.analysis.builder import build_file_model
from nnsight_lint.analysis.model import BackwardCall, CallKind, FileModel, Retains, Trace

__all__ = ["build_file_model", "BackwardCall", "CallKind", "FileModel", "Retains", "Trace"]
