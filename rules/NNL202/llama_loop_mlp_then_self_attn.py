"""The issue's shape on a Llama: in `for layer in model.model.layers:` each pass reads the block's
MLP output and then writes its attention output, which the forward ran before the MLP.
"""
# runtime-raises: 'model.model.layers.0.self_attn.output.i0' was requested but the model already ran past it
from nnsight import LanguageModel
from transformers import LlamaConfig, LlamaForCausalLM

from tests.tiny_model import VOCAB_SIZE, tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=VOCAB_SIZE)),
    tokenizer=tokenizer(),
)
with model.trace("the cat sat"):
    for layer in model.model.layers:
        mlp_out = layer.mlp.output.save()
        layer.self_attn.output = layer.self_attn.output  # expect: NNL202
