"""Plays a game of random moves with pydraughts and writes it as PDN with
pydraughts' own writer (tests/pydraughts.rs imports it into rulebook).

Usage: python3 write.py FILE.pdn VARIANT SEED PLIES

Prints the final position as replay.py does."""

import random
import sys

from draughts import Board
from draughts.PDN import PDNWriter

from replay import canonical


def main():
    path, variant, seed, plies = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves or board.is_over():
            break
        board.push(rng.choice(moves))
    PDNWriter(path, board=board, tags={"Event": "pydraughts"}, game_ending="*", file_mode="w")
    print(canonical(board.fen))


if __name__ == "__main__":
    main()
