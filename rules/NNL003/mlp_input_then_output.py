"""An MLP's input and output captured, the input's gradient read first.

The MLP's output is computed after its input, so the output's gradient arrives first: the read of
the output's gradient after the input's fails.
"""
# runtime-raises: .grad.i0' was requested but the model already ran past it
with model.trace("a cat ran on the mat"):
    mlp_in = model.transformer.h[1].mlp.input
    mlp_out = model.transformer.h[1].mlp.output
    with model.lm_head.output.sum().backward():
        in_grad = mlp_in.grad.save()
        out_grad = mlp_out.grad.save()  # expect: NNL003
