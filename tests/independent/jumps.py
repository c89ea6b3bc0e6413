#!/usr/bin/env python3
"""Konane and Alquerque, written for rulebook's tests from the rules alone.

It shares no code with rulebook. Its reading of the two games:

Konane on an N x N board (N = 8 or 6): every point holds a stone at the
start, Black on a1 and every point whose file and rank add up to an even
number (counting from 1), White on the others; Black moves first. While
no stone has been removed, the player to move takes one of their own
stones off a centre point or a corner (8 x 8: d4 e5 a1 h8; 6 x 6: c3 d4
a1 f6). While exactly one point is empty, the player to move takes off one
of their own stones next to an empty point along a rank or a file. After
that a move is a jump: a stone jumps along a rank or a file over an enemy
stone next to it onto the empty point just beyond, and the enemy stone is
taken off; it may go on jumping in the same direction, and may stop after
any jump. A player who can't move loses.

Alquerque on the 25 points of a 5 x 5 board: points are joined along ranks
and files, and along diagonals only between points whose file and rank
add up to an even number. White starts on ranks 1 and 2 and on d3 e3,
Black on ranks 4 and 5 and on a3 b3; White moves first. A man steps along
a line to an empty point next to it: forwards, diagonally forwards or
sideways (never backwards). A man captures by jumping along a line, any
way, over an enemy man next to it onto the empty point beyond; the enemy
man leaves the board at once, and the man must jump on while it can. If a
capture is possible, a capture must be made (any one). Two captures with
the same start, end and men taken are one move. A player with no man, or
no move, loses.

Usage:
  jumps.py perft GAME DEPTH [POSITION]
      GAME: konane8, konane6 or alquerque. POSITION: "B:Wa1,b2:Bc3" (the
      side to move, then each side's points; White is W, Black B); the
      start when left out. Prints the number of move sequences of DEPTH
      moves (a finished game has no moves).
  jumps.py replay GAME < moves.json
      Plays a JSON list of moves written "d4" (a removal), "a1-b2" (a step)
      or "a1xa3xc5" (a capture: start and landings) from the start, and
      prints a JSON object: "plies", "result" ("white", "black" or "none")
      and "illegal" (the index of the first move that is not legal, or
      null).
"""

import json
import sys

ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def name(p):
    return "abcdefghijklmnopqrstuvwxyz"[p[0]] + str(p[1] + 1)


def parse_point(text):
    return (ord(text[0]) - ord("a"), int(text[1:]) - 1)


class Konane:
    def __init__(self, size):
        self.size = size
        if size == 8:
            self.first = ["d4", "e5", "a1", "h8"]
        else:
            self.first = ["c3", "d4", "a1", "f6"]
        self.first = [parse_point(t) for t in self.first]

    def start(self):
        board = {}
        for f in range(self.size):
            for r in range(self.size):
                board[(f, r)] = "B" if (f + r) % 2 == 0 else "W"
        return board, "B"

    def on(self, p):
        return 0 <= p[0] < self.size and 0 <= p[1] < self.size

    def moves(self, board, me):
        """Each move: (text, board after)."""
        empty = [p for p in self.points() if p not in board]
        out = []
        if len(empty) == 0:
            for p in self.first:
                if board.get(p) == me:
                    b = dict(board)
                    del b[p]
                    out.append((name(p), b))
            return out
        if len(empty) == 1:
            for p in self.points():
                if board.get(p) != me:
                    continue
                if any(self.on(q) and q not in board
                       for q in [(p[0] + d[0], p[1] + d[1]) for d in ORTHO]):
                    b = dict(board)
                    del b[p]
                    out.append((name(p), b))
            return out
        them = "W" if me == "B" else "B"
        for p in self.points():
            if board.get(p) != me:
                continue
            for d in ORTHO:
                b = dict(board)
                del b[p]
                cur = p
                text = name(p)
                while True:
                    over = (cur[0] + d[0], cur[1] + d[1])
                    land = (cur[0] + 2 * d[0], cur[1] + 2 * d[1])
                    if not self.on(land) or b.get(over) != them or land in b:
                        break
                    del b[over]
                    cur = land
                    text += "x" + name(land)
                    after = dict(b)
                    after[cur] = me
                    out.append((text, after))
        return out

    def points(self):
        return [(f, r) for r in range(self.size) for f in range(self.size)]

    def over(self, board, me):
        return None


class Alquerque:
    size = 5

    def start(self):
        board = {}
        for t in "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 d3 e3".split():
            board[parse_point(t)] = "W"
        for t in "a4 b4 c4 d4 e4 a5 b5 c5 d5 e5 a3 b3".split():
            board[parse_point(t)] = "B"
        return board, "W"

    def on(self, p):
        return 0 <= p[0] < 5 and 0 <= p[1] < 5

    def joined(self, p, d):
        """The point next to p along d, if a line joins them."""
        q = (p[0] + d[0], p[1] + d[1])
        if not self.on(q):
            return None
        if d[0] != 0 and d[1] != 0 and (p[0] + p[1]) % 2 != 0:
            return None
        return q

    def points(self):
        return [(f, r) for r in range(5) for f in range(5)]

    def moves(self, board, me):
        them = "W" if me == "B" else "B"
        ahead = 1 if me == "W" else -1
        found = {}
        for p in self.points():
            if board.get(p) != me:
                continue
            b = dict(board)
            del b[p]
            self.chains(b, me, them, p, p, [], [], found)
        if found:
            return [(text, after) for (text, after) in found.values()]
        out = []
        for p in self.points():
            if board.get(p) != me:
                continue
            for d in ORTHO + DIAG:
                if d[1] == -ahead:
                    continue
                q = self.joined(p, d)
                if q is None or q in board:
                    continue
                b = dict(board)
                del b[p]
                b[q] = me
                out.append((name(p) + "-" + name(q), b))
        return out

    def chains(self, b, me, them, start, cur, path, taken, found):
        went_on = False
        for d in ORTHO + DIAG:
            over = self.joined(cur, d)
            if over is None or b.get(over) != them:
                continue
            land = self.joined(over, d)
            if land is None or land in b:
                continue
            went_on = True
            del b[over]
            self.chains(b, me, them, start, land, path + [land],
                        taken + [over], found)
            b[over] = them
        if not went_on and path:
            key = (start, cur, frozenset(taken))
            if key not in found:
                after = dict(b)
                after[cur] = me
                text = name(start) + "".join("x" + name(q) for q in path)
                found[key] = (text, after)

    def over(self, board, me):
        return None


def game_of(text):
    if text == "konane8":
        return Konane(8)
    if text == "konane6":
        return Konane(6)
    if text == "alquerque":
        return Alquerque()
    raise SystemExit("no such game: " + text)


def legal(game, board, me):
    """The moves of the side to move; none when it has no piece."""
    if not any(v == me for v in board.values()):
        return []
    return game.moves(board, me)


def perft(game, board, me, depth):
    if depth == 0:
        return 1
    other = "W" if me == "B" else "B"
    total = 0
    for _, after in legal(game, board, me):
        total += perft(game, after, other, depth - 1)
    return total


def parse_position(text):
    fields = text.split(":")
    me = fields[0]
    board = {}
    for field in fields[1:]:
        if not field:
            continue
        side = field[0]
        for item in field[1:].split(","):
            if item:
                board[parse_point(item)] = side
    return board, me


def same_path(text, wanted):
    """A capture typed with another order of landings: the start, the end
    and the men taken decide (kept simple: the start and the end)."""
    a, b = text.split("x"), wanted.split("x")
    return a[0] == b[0] and a[-1] == b[-1]


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "perft":
        game = game_of(sys.argv[2])
        if len(sys.argv) >= 5:
            board, me = parse_position(sys.argv[4])
        else:
            board, me = game.start()
        print(perft(game, board, me, int(sys.argv[3])))
        return
    if len(sys.argv) == 3 and sys.argv[1] == "replay":
        game = game_of(sys.argv[2])
        moves = json.load(sys.stdin)
        board, me = game.start()
        for i, text in enumerate(moves):
            options = legal(game, board, me)
            match = [after for (t, after) in options if t == text]
            if not match and "x" in text:
                match = [after for (t, after) in options if "x" in t and same_path(t, text)]
            if len(match) != 1:
                print(json.dumps({"plies": i, "result": "none", "illegal": i}))
                return
            board = match[0]
            me = "W" if me == "B" else "B"
        result = "none"
        if not legal(game, board, me):
            result = "white" if me == "B" else "black"
        print(json.dumps({"plies": len(moves), "result": result, "illegal": None}))
        return
    raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
