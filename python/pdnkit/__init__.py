"""pdnkit: read, validate and replay PDN game records of Russian draughts.

A thin layer over the Rust library of the ``pdnkit`` command line: the same reader, the
same checker of every move, result and draw rule, the same diagnostics and tables.

>>> import pdnkit
>>> board = pdnkit.Board()
>>> len(board.legal_moves()), board.perft(3)
(7, 302)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, Iterable, Optional, Union

from pdnkit import _pdnkit
from pdnkit._pdnkit import Board, Game, Games, Move, __version__, lint, read

from typing import TypedDict

if TYPE_CHECKING:
    import pyarrow  # type: ignore[import-untyped]

__all__ = [
    "Board",
    "Diagnostic",
    "Game",
    "Games",
    "Move",
    "PdnError",
    "__version__",
    "games_table",
    "lint",
    "moves_table",
    "read",
]

#: A path, or a list of them.
Paths = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]


class Diagnostic(TypedDict):
    """A finding, as a dict with the fields of ``pdnkit lint --format jsonl``
    (``schemas/diagnostic.schema.json``)."""

    schema: str
    path: str
    game: Optional[int]
    line: int
    column: int
    code: str
    name: str
    severity: str
    message: str
    ply: Optional[int]
    move: Optional[str]
    fix: Optional[Dict[str, Any]]


class PdnError(Exception):
    """A problem pdnkit found: a file that cannot be read, a FEN that is no position, a
    move that is not legal.

    ``code`` is the rule's code (``E102`` io-error, ``F101`` invalid-fen, ``M101``
    illegal-move, ``M102`` ambiguous-move, ``M106`` unreadable-move; ``pdnkit rule CODE``
    explains each), ``line`` and ``column`` where it is in its input, when it has a place.
    """

    def __init__(
        self,
        message: str,
        code: str,
        line: Optional[int] = None,
        column: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.line = line
        self.column = column

    def __str__(self) -> str:
        place = f" (line {self.line}, column {self.column})" if self.line else ""
        return f"{self.code}: {self.message}{place}"


def games_table(
    paths: Paths,
    notation: str = "algebraic",
    rules: str = "russia",
    encoding: Optional[str] = None,
) -> "pyarrow.Table":
    """The table ``games`` of ``pdnkit convert --format parquet`` (a row per game: its
    tags, result, status, first error, FENs and first moves) as a ``pyarrow.Table``.

    Needs pyarrow (``pip install pdnkit[arrow]``); ``.to_pandas()`` and
    ``polars.from_arrow`` take it as it is. The columns are in ``docs/parquet.md``.
    """
    return _table(paths, "games", notation, rules, encoding)


def moves_table(
    paths: Paths,
    notation: str = "algebraic",
    rules: str = "russia",
    encoding: Optional[str] = None,
) -> "pyarrow.Table":
    """The table ``moves`` of ``pdnkit convert --format parquet`` (a row per main-line
    ply replayed: ``game_id``, ``ply``, ``move_number``, ``side``, ``written``, ``move``,
    ``from``, ``to``, ``captured``, ``capture``, ``promotes``) as a ``pyarrow.Table``,
    joined to :func:`games_table` by ``game_id``.
    """
    return _table(paths, "moves", notation, rules, encoding)


def _table(
    paths: Paths, name: str, notation: str, rules: str, encoding: Optional[str]
) -> "pyarrow.Table":
    """The table ``name`` of the dataset of ``paths``; pyarrow is needed for it."""
    try:
        import pyarrow  # noqa: F401
    except ImportError as e:
        raise ImportError(
            f"pdnkit.{name}_table needs pyarrow: pip install 'pdnkit[arrow]'"
        ) from e
    table: "pyarrow.Table" = _pdnkit.tables(paths, [name], notation, False, rules, encoding)[0]
    return table
