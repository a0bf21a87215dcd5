"""A lock taken inside a remote trace's block: the request pickles it, and fails."""
# runtime-raises: cannot pickle '_thread.lock' object
import threading

guard = threading.Lock()
with model.trace("the cat sat", remote="local"):
    logits = model.lm_head.output.save()
    with guard:  # expect: NNL601
        n = 1
