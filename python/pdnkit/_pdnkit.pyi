"""The binding module of pdnkit: the library's types and functions, which ``pdnkit``
re-exports."""

from typing import IO, List, Optional, Sequence, Tuple, Union, Dict, Iterator

import pyarrow  # type: ignore[import-untyped]

from pdnkit import Diagnostic, Paths

__version__: str

class Game:
    """A game read and checked."""

    @property
    def tags(self) -> Dict[str, str]:
        """The tags, name to value (a name written twice keeps its first value)."""
    @property
    def variant(self) -> str:
        """The variant the game was replayed by: ``russian``, ``international``, …"""
    @property
    def moves(self) -> List[str]:
        """The main line's moves replayed, in the notation asked for (another variant's by its numbers)."""
    @property
    def unplayed(self) -> List[str]:
        """The main line's moves after those replayed, as written (all of a game not replayed)."""
    @property
    def result(self) -> Optional[str]:
        """The Result tag's result, else the terminator's, or None."""
    @property
    def status(self) -> str:
        """``ok``, ``illegal``, ``incomplete`` or ``unparsed``."""
    @property
    def diagnostics(self) -> List[Diagnostic]:
        """Every finding of the game, of each severity."""
    @property
    def path(self) -> str:
        """The input's name, as in diagnostics."""
    @property
    def number(self) -> int:
        """The game's number in its input (from 1)."""
    @property
    def line(self) -> int:
        """The line of the input where the game starts."""
    @property
    def variations(self) -> List[Tuple[int, List[str]]]:
        """The main line's variations: the ply each replaces, and its moves as written."""
    @property
    def comments(self) -> List[Tuple[int, str]]:
        """The main line's comments: the plies before each, and its text."""
    def positions(self) -> List[str]:
        """The FEN of the start and of the position after each move of ``moves``."""

class Games(Iterator[Game]):
    """The games being read (what :func:`read` returns)."""

    def __iter__(self) -> "Games": ...
    def __next__(self) -> Game: ...
    @property
    def problems(self) -> List[Diagnostic]:
        """The problems met so far that are no game's."""

class Move:
    """A legal move of a position."""

    @property
    def from_(self) -> str:
        """The square the piece starts on (``c3``; ``32`` in a numbered variant)."""
    @property
    def to(self) -> str:
        """The square the piece ends on."""
    @property
    def captured(self) -> List[str]:
        """The squares of the pieces captured, in square order."""
    @property
    def route(self) -> List[str]:
        """From, every landing square, to."""
    @property
    def promotes(self) -> bool:
        """Whether a man becomes a king with this move."""
    @property
    def is_capture(self) -> bool:
        """Whether the move captures."""
    @property
    def text(self) -> str:
        """The move as pdnkit writes it (``c3-d4``, ``c3:e5``; ``32-28``, ``28x19``)."""

class Board:
    """A position of any variant and the moves played to it."""

    def __init__(
        self, fen: Optional[str] = None, variant: str = "russian", rules: str = "russia"
    ) -> None:
        """The start position of ``variant`` or ``fen``; ``rules`` the Russian draw-rule edition (``russia``, ``fmjd``)."""
    @property
    def variant(self) -> str:
        """The variant the board plays (``russian``, ``international``, …)."""
    def legal_moves(self) -> List[Move]:
        """The legal moves (captures only, when there is one to make)."""
    def push(self, move: Union[Move, str]) -> None:
        """Plays a move, or its text; raises PdnError when it is not legal."""
    def pop(self) -> Move:
        """Takes back the last move played, and returns it."""
    @property
    def move_stack(self) -> List[Move]:
        """The moves played, first to last."""
    @property
    def turn(self) -> str:
        """The side to move: ``white`` or ``black``."""
    def fen(self, notation: str = "numeric") -> str:
        """The position as FEN, ``numeric`` or (Russian) ``algebraic`` squares."""
    def perft(self, depth: int) -> int:
        """The number of move sequences of ``depth`` plies from here."""
    def is_over(self) -> bool:
        """Whether the side to move has no legal move, or a move-count rule drew a Russian game."""
    def result(self) -> str:
        """``1-0`` or ``0-1`` for a side without moves, ``1/2-1/2`` after an automatic draw, else ``*``."""
    def draw_rule(self) -> Optional[str]:
        """The article and condition of the automatic draw reached (Russian), or ``None``."""
    def copy(self) -> "Board":
        """A copy of the board, with its moves."""
    def _repr_svg_(self) -> str:
        """The board as SVG, the last move as an arrow."""

def read(
    source: Union[Paths, bytes, IO[bytes]],
    encoding: Optional[str] = None,
    notation: str = "algebraic",
    rules: str = "russia",
) -> Games:
    """The games of ``source`` (paths, bytes or a binary file), checked, one at a time."""

def lint(
    paths: Paths,
    select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    rules: str = "russia",
    severity: str = "warning",
    encoding: Optional[str] = None,
) -> List[Diagnostic]:
    """The diagnostics of the games of ``paths``, as ``pdnkit lint --format jsonl``."""

def tables(
    paths: Paths,
    names: Sequence[str],
    notation: str = "algebraic",
    positions: bool = False,
    rules: str = "russia",
    encoding: Optional[str] = None,
) -> List[pyarrow.Table]:
    """The tables of ``pdnkit convert --format parquet`` named ``names``."""
