"""Two backwards over one intermediate (`probe * probe`) of a detached probe of the logits.

The probe's own small graph saved `probe` for the product; the first backward frees it and the
second fails.
"""
with model.trace("the cat sat on the mat"):
    probe = model.lm_head.output.detach().requires_grad_()
    energy = probe * probe
    energy.sum().backward()  # expect: NNL001
    energy.mean().backward()
