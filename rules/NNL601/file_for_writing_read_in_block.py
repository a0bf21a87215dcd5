"""A log file opened for writing is written inside a remote block: nnsight pickles every name the
block reads into the request, and a file open for writing cannot be pickled. `remote="local"` builds
the same request as `remote=True`, then runs it here."""
# runtime-raises: Cannot pickle files that are not opened for reading
import tempfile

log = open(tempfile.mktemp(suffix=".txt"), "w")
with model.trace("the cat sat", remote="local"):
    logits = model.lm_head.output.save()
    log.write("done")  # expect: NNL601
