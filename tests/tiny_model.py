"""A tiny offline nnsight LanguageModel: a random 2-layer, 32-dim GPT-2 and a word-level tokenizer.

Nothing is downloaded; the same seed gives the same weights in every process.
"""
from __future__ import annotations

import functools

WORDS = ["hello", "world", "the", "cat", "sat", "on", "mat", "a", "dog", "ran"]


VOCAB_SIZE = len(WORDS) + 2  # with <unk> and <pad>


@functools.lru_cache(maxsize=None)
def tokenizer():
    """The word-level tokenizer of the tiny vocabulary (id 0 `<unk>`, 1 `<pad>`), for any tiny model:
    a case that builds its own model from a config class passes it as `tokenizer=tokenizer()`."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {"<unk>": 0, "<pad>": 1, **{w: i + 2 for i, w in enumerate(WORDS)}}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=core, unk_token="<unk>", pad_token="<pad>")


@functools.lru_cache(maxsize=None)
def tiny_model(layers: int = 2):
    """`layers`: 12 for a stand-in of GPT-2 itself (`openai-community/gpt2` has 12), where a
    program's layer indices are GPT-2's (the docs pages of NNL40x)."""
    import nnsight
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    config = GPT2Config(
        vocab_size=VOCAB_SIZE, n_positions=32, n_embd=32, n_layer=layers, n_head=2,
        bos_token_id=1, eos_token_id=1, pad_token_id=1,
    )
    net = GPT2LMHeadModel(config).eval()
    return nnsight.LanguageModel(net, tokenizer=tokenizer())



@functools.lru_cache(maxsize=None)
def saved_model_dir(directory: str) -> str:
    """The tiny GPT-2 written with `save_pretrained` into `directory` (once; made in a sibling
    temporary directory and renamed into place, so processes running at once never see half a
    model). `LanguageModel(directory, tokenizer=tokenizer())` then loads it by path, lazily (onto
    the meta device until the first trace or a dispatch), as `LanguageModel("openai-community/gpt2")`
    would. Cases write the path as a literal, as real code writes a hub id."""
    import os
    import shutil
    import tempfile

    if os.path.isfile(os.path.join(directory, "config.json")):
        return directory
    parent = os.path.dirname(os.path.abspath(directory))
    staging = tempfile.mkdtemp(prefix=".tiny-", dir=parent)
    tiny_model()._module.save_pretrained(staging)
    try:
        os.rename(staging, directory)
    except OSError:  # another process was first
        shutil.rmtree(staging, ignore_errors=True)
    return directory
