"""Prompts to the builder and their answers, injected so tests can play the builder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from controller.games.base import Message, Phrase
from controller.i18n import say

# What every tool asks of the builder (each tool's own prompts are declared in it).
CLEAR = Phrase("tools.clear", "Clear the board: take every piece and bead off.")
ENTER_WHEN_EMPTY = Phrase("tools.enter_when_empty", "Press Enter when the board is empty.")


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
    """The builder at a terminal: ``say`` prints, ``ask`` reads a line (EOF answers ""); ``words``
    says a message in the builder's language (``board.language`` of the configuration)."""

    language = "en"

    def __init__(self, stdin: TextIO, stdout: TextIO, language: str = "en") -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.language = language

    def words(self, message: Message) -> str:
        return say(message, self.language)

    def say(self, prompt: Prompt | str) -> None:
        text = prompt.text if isinstance(prompt, Prompt) else prompt
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: Prompt | str) -> str:
        text = prompt.text if isinstance(prompt, Prompt) else prompt
        print(text + " ", end="", file=self.stdout, flush=True)
        return self.stdin.readline().strip()
