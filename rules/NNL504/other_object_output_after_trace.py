"""An object that is not the model has an `.output` too (a result record): not reported."""


class Record:
    output = "logits"


record = Record()
with model.trace("the cat sat"):
    logits = model.lm_head.output.save()

assert record.output == "logits"
