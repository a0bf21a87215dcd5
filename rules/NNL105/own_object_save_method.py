"""A results object with its own `save(path)` method is saved after the trace.

The object's class defines `save`; nnsight's save is not involved.
"""
import json
import tempfile
from pathlib import Path


class Results:
    def __init__(self):
        self.rows = {}

    def save(self, path):
        Path(path).write_text(json.dumps(self.rows))


results = Results()
with model.trace("the cat sat"):
    top = model.lm_head.output[:, -1, :].argmax(-1).save()

results.rows["top"] = int(top)
with tempfile.TemporaryDirectory() as tmp:
    results.save(Path(tmp) / "results.json")
