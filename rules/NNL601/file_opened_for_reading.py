"""A file opened for reading is pickled with its content: the remote block may read it."""
import tempfile

path = tempfile.mktemp(suffix=".txt")
with open(path, "w") as out:
    out.write("the cat sat")
source = open(path)
with model.trace("the cat sat", remote="local"):
    logits = model.lm_head.output.save()
    text = source
assert logits.shape[1] == 3
