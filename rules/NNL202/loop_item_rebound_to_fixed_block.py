"""Inside the loop the name is rebound to another block before its attention is read: the two
reads are of different blocks (`h[0].mlp`, then `h[1].attn`, in forward order), not one item."""
with model.trace("the cat sat"):
    for layer in model.transformer.h[:1]:
        mlp_out = layer.mlp.output.save()
        layer = model.transformer.h[1]
        attn_out = layer.attn.output[0].save()

assert attn_out.shape[-1] == 32
