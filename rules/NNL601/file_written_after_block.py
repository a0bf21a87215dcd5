"""The same log file written after the remote block, from the saved value: nothing to pickle."""
import tempfile

log = open(tempfile.mktemp(suffix=".txt"), "w")
with model.trace("the cat sat", remote="local"):
    logits = model.lm_head.output.save()
log.write(str(logits.shape))
log.close()
