"""Replays every game of a PDN file with pydraughts, an independent reader
of PDN (tests/pydraughts.rs runs it on rulebook's exports).

Usage: python3 replay.py FILE.pdn

Prints one JSON object per game, one a line: the game type, the moves
pydraughts read, how many of them it could play, the error that stopped it
(null when none), the result token, and the final position as
`T:Wsquares:Bsquares` with each side's squares sorted as strings, in the
notation of the game type (algebraic for Russian and Brazilian)."""

import json
import sys

from draughts import Board, Move
from draughts.PDN import PDNReader

VARIANTS = {20: "standard", 21: "english", 22: "italian", 25: "russian",
            26: "brazilian", 30: "turkish", 40: "frisian"}


def canonical(fen):
    parts = fen.split(":")
    sides = {"W": [], "B": []}
    for part in parts[1:]:
        if part and part[0] in sides:
            sides[part[0]] = sorted(x for x in part[1:].split(",") if x)
    return parts[0] + ":W" + ",".join(sides["W"]) + ":B" + ",".join(sides["B"])


def main():
    reader = PDNReader(filename=sys.argv[1])
    for game in reader.games:
        game_type = int(game.tags["GameType"].split(",")[0])
        variant = VARIANTS[game_type]
        fen = game.tags.get("FEN")
        board = Board(variant, fen) if fen else Board(variant)
        played, error = 0, None
        for text in game.moves:
            try:
                board.push(Move(board, pdn_move=text))
            except Exception as e:  # an illegal or unreadable move
                error = f"{text}: {e!r}"
                break
            played += 1
        print(json.dumps({
            "game_type": game_type,
            "moves": game.moves,
            "played": played,
            "error": error,
            "result": game.game_ending,
            "position": canonical(board.fen),
        }))


if __name__ == "__main__":
    main()
