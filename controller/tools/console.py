"""Prompts to the builder and their answers, injected so tests can play the builder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class Prompt:
    """What a tool tells the builder. ``action`` names what the hands should do, for a scripted
    builder: ``place``/``lift`` (``channel``, ``value``), ``clear``, ``sweep``, ``press``, ``turn``,
    ``look`` (LEDs), or "" for plain information."""

    text: str
    action: str = ""
    channel: str = ""
    value: int = 0


class Console:
    """The builder at a terminal: ``say`` prints, ``ask`` reads a line (EOF answers "")."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout

    def say(self, prompt: Prompt | str) -> None:
        text = prompt.text if isinstance(prompt, Prompt) else prompt
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: Prompt | str) -> str:
        text = prompt.text if isinstance(prompt, Prompt) else prompt
        print(text + " ", end="", file=self.stdout, flush=True)
        return self.stdin.readline().strip()
