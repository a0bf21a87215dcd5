# Source: https://github.com/Butanium/nnterp/blob/main/test_full_path.py (condensed)
# transformers: 4.57
from nnsight import LanguageModel

m = LanguageModel("gpt2", rename={"transformer": "model"})
with m.trace("Hi") as t:
    cache = t.cache(modules=[m.model.h[0]]).save()
    first = m.model.h[0].attn.output[0].save()
