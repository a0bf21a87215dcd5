"""In a loop over the blocks, each pass reads the block's MLP output and then writes its attention
output: one block per pass, and GPT-2 runs `attn` before `mlp` in a block, so the write waits for a
module the forward has already passed (the same statements outside a loop are reported too).
"""
# runtime-raises: 'model.transformer.h.0.attn.output.i0' was requested but the model already ran past it
with model.trace("the cat sat"):
    for layer in model.transformer.h:
        mlp_out = layer.mlp.output.save()
        layer.attn.output[0][:] = 0  # expect: NNL202
