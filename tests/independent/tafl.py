#!/usr/bin/env python3
"""An independent move generator for Brandubh and Tablut, for perft.

It shares no code with rulebook: it is written from the rules in
docs/rules.md (BR-1 to BR-8, TB-1 to TB-8) alone, and tests/board_tafl.rs
compares its counts with `rulebook`'s. Standard library only.

Usage: tafl.py brandubh|tablut DEPTH
Reads positions from stdin, one a line, and prints one line of JSON: the
number of leaf nodes DEPTH plies below each position.

A position is written `SIDE:A<pieces>:D<pieces>`: the side to move (`A` for
the attackers, `D` for the defenders), then each side's pieces as squares
(`d4`), the king's square with a `K` before it (`Kd4`), separated by
commas.

The rules played. Brandubh: a 7 x 7 board, the throne d4, the corners a1,
a7, g1, g7. Tablut: 9 x 9, the throne e5; the king escapes to any square on
the edge. Every piece moves like a rook over empty squares. Only the king
may stop on the throne (and, in Brandubh, on the corners); the other pieces
may pass over the empty throne. After a move, each enemy next to the moved
piece is looked at, in each of the four directions:
- the king on the throne or next to it: taken when each of his four
  neighbours is an attacker or the empty throne (a neighbour off the board:
  not taken);
- any other enemy (the king elsewhere too): taken when the square beyond it
  holds a piece of the mover's side, or is a corner (Brandubh), or is the
  throne while empty, or while it holds a piece that is not of the enemy's
  side.
A piece may move between two enemies unharmed. The game is over (no moves)
when the king has been taken, or stands on a corner (Brandubh) or on the
edge (Tablut); a side with no move has none either.
"""

import json
import sys

DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


class Game:
    def __init__(self, name):
        if name == "brandubh":
            self.size = 7
            self.throne = (3, 3)
            last = self.size - 1
            self.corners = {(0, 0), (0, last), (last, 0), (last, last)}
            self.escape = set(self.corners)
        elif name == "tablut":
            self.size = 9
            self.throne = (4, 4)
            self.corners = set()
            last = self.size - 1
            self.escape = {
                (x, y)
                for x in range(self.size)
                for y in range(self.size)
                if x in (0, last) or y in (0, last)
            }
        else:
            raise SystemExit("unknown game " + name)
        tx, ty = self.throne
        self.palace = {self.throne} | {(tx + dx, ty + dy) for dx, dy in DIRS}

    def on_board(self, sq):
        return 0 <= sq[0] < self.size and 0 <= sq[1] < self.size

    def king_only(self, sq):
        return sq == self.throne or sq in self.corners


def parse(text):
    """A position: (side to move, {square: (side, is_king)})."""
    parts = text.strip().split(":")
    board = {}
    for part in parts[1:]:
        side = part[0]
        for item in part[1:].split(","):
            if not item:
                continue
            king = item.startswith("K")
            sq = item[1:] if king else item
            board[(ord(sq[0]) - ord("a"), int(sq[1:]) - 1)] = (side, king)
    return parts[0], board


def over(game, board):
    kings = [sq for sq, (side, king) in board.items() if king]
    if not kings:
        return True
    return any(sq in game.escape for sq in kings)


def hostile_to(game, board, sq, victim_side, mover_side):
    """Whether `sq` closes an enclosure of an enemy of `victim_side`."""
    if not game.on_board(sq):
        return False
    piece = board.get(sq)
    if piece is not None and piece[0] == mover_side:
        return True
    if sq in game.corners:
        return piece is None
    if sq == game.throne:
        return piece is None or piece[0] != victim_side
    return False


def captures(game, board, to, mover_side):
    taken = []
    for dx, dy in DIRS:
        a = (to[0] + dx, to[1] + dy)
        enemy = board.get(a)
        if enemy is None or enemy[0] == mover_side:
            continue
        if enemy[1] and a in game.palace:
            ok = True
            for ex, ey in DIRS:
                n = (a[0] + ex, a[1] + ey)
                if not game.on_board(n):
                    ok = False
                    break
                p = board.get(n)
                if p is not None and p[0] == mover_side:
                    continue
                if p is None and n == game.throne:
                    continue
                ok = False
                break
            if ok:
                taken.append(a)
            continue
        b = (a[0] + dx, a[1] + dy)
        if hostile_to(game, board, b, enemy[0], mover_side):
            taken.append(a)
    return taken


def moves(game, side, board):
    out = []
    for sq, (s, king) in list(board.items()):
        if s != side:
            continue
        for dx, dy in DIRS:
            to = (sq[0] + dx, sq[1] + dy)
            while game.on_board(to) and to not in board:
                if king or not game.king_only(to):
                    out.append((sq, to))
                if not king and to in game.corners:
                    break
                to = (to[0] + dx, to[1] + dy)
    return out


def play(game, side, board, move):
    frm, to = move
    nb = dict(board)
    piece = nb.pop(frm)
    nb[to] = piece
    for sq in captures(game, nb, to, side):
        del nb[sq]
    return ("D" if side == "A" else "A"), nb


def perft(game, side, board, depth):
    if depth == 0:
        return 1
    if over(game, board):
        return 0
    total = 0
    for m in moves(game, side, board):
        nside, nb = play(game, side, board, m)
        total += perft(game, nside, nb, depth - 1)
    return total


def main():
    game = Game(sys.argv[1])
    depth = int(sys.argv[2])
    counts = []
    for line in sys.stdin:
        if line.strip():
            side, board = parse(line)
            counts.append(perft(game, side, board, depth))
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
