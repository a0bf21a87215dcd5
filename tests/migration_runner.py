"""Run one nnsight program on whatever nnsight this interpreter has (0.3, 0.4 or 0.8), on the tiny
offline GPT-2 with the weights in a file, and save what the program put in `RESULT`.

    python tests/migration_runner.py WEIGHTS PROGRAM OUT [PROGRAM OUT ...]

(several programs in one process: each starts of an nnsight import cost seconds; each program
gets a model of its own).

Stdlib, torch, transformers and nnsight only, so that it runs in the old-nnsight venvs too. The
weights come from one file for every nnsight: each release's transformers initialises a model its
own way, but `load_state_dict` gives them all the same numbers.
"""
import sys

import torch

WORDS = ["hello", "world", "the", "cat", "sat", "on", "mat", "a", "dog", "ran"]


def tiny_model(weights: str):
    import nnsight
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    vocab = {"<unk>": 0, "<pad>": 1, **{w: i + 2 for i, w in enumerate(WORDS)}}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    # No `token_type_ids`: GPT-2 adds an embedding for them, and nnsight 0.4 passes them on where 0.8 does not.
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, unk_token="<unk>", pad_token="<pad>",
                                        model_input_names=["input_ids", "attention_mask"])
    config = GPT2Config(vocab_size=len(vocab), n_positions=32, n_embd=32, n_layer=2, n_head=2,
                        bos_token_id=1, eos_token_id=1, pad_token_id=1)
    net = GPT2LMHeadModel(config)
    net.load_state_dict(torch.load(weights), strict=False)  # old transformers keep extra mask buffers
    return nnsight.LanguageModel(net.eval(), tokenizer=tokenizer)


def main(program: str, weights: str, out: str) -> None:
    namespace = {"__name__": "__main__", "__file__": program, "model": tiny_model(weights)}
    with open(program, encoding="utf-8") as handle:
        exec(compile(handle.read(), program, "exec"), namespace)
    result = {key: value.detach().clone() if isinstance(value, torch.Tensor) else value
              for key, value in namespace["RESULT"].items()}
    torch.save(result, out)


if __name__ == "__main__":
    weights, rest = sys.argv[1], sys.argv[2:]
    for program, out in zip(rest[::2], rest[1::2]):
        main(program, weights, out)
