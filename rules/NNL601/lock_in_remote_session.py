"""A lock taken inside a remote session's block: the session's request pickles it, and fails."""
# runtime-raises: cannot pickle '_thread.lock' object
import threading

guard = threading.Lock()
with model.session(remote="local"):
    with model.trace("the cat sat"):
        logits = model.lm_head.output.save()
    with guard:  # expect: NNL601
        n = 1
