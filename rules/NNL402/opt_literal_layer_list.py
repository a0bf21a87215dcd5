"""A literal list of layers to probe, written for a bigger OPT: index 3 on 2 layers.
"""
# runtime-raises: has attribute '3'
from nnsight import LanguageModel
from transformers import OPTConfig, OPTForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    OPTForCausalLM(OPTConfig(num_hidden_layers=2, hidden_size=32, ffn_dim=64, num_attention_heads=2, vocab_size=12,
                             word_embed_proj_dim=32, max_position_embeddings=32)),
    tokenizer=tokenizer(),
)

probed = {}
with model.trace("the cat sat"):
    for i in [0, 1, 3]:
        probed[i] = model.model.decoder.layers[i].output.save()  # expect: NNL402
