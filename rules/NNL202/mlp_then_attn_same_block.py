"""In one GPT-2 block the MLP's output is read before the attention's: GPT-2 runs `attn` before
`mlp` inside each block.
"""
# runtime-raises: 'model.transformer.h.0.attn.output.i0' was requested but the model already ran past it
with model.trace("the cat sat"):
    mlp_out = model.transformer.h[0].mlp.output.save()
    attn_out = model.transformer.h[0].attn.output[0].save()  # expect: NNL202
