#!/usr/bin/env python3
"""A Gomoku referee written for rulebook's tests, from the rules alone.

It shares no code with rulebook: stones are placed in turn on the empty
points of a square board, Black first; a player who has a row of N stones
(N or more, or exactly N) along a rank, a file or a diagonal wins; a full
board with no such row is a draw.

Usage:
  gomoku.py replay SIZE N MODE < moves.json
      MODE is "or-more" or "exact". Reads a JSON list of moves ("f5"),
      plays them one by one and prints a JSON object: "plies" (moves
      played), "result" ("black", "white", "draw" or "none": the game goes
      on), "illegal" (the index of the first move that is not legal, or
      null) and "why" (why it is not).
  gomoku.py perft SIZE N MODE DEPTH TO_MOVE BLACK WHITE
      The number of move sequences of DEPTH moves from the position where
      BLACK and WHITE (comma-separated points, or "-") stand and TO_MOVE
      ("black" or "white") moves; a finished game has no moves.
"""

import json
import sys

DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def point(text, size):
    """ "f5" -> (file, rank), both from 0; None when it is no point."""
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        return None
    f = ord(text[0]) - ord("a")
    r = int(text[1:]) - 1
    if 0 <= f < size and 0 <= r < size:
        return (f, r)
    return None


def run_length(stones, who, p, d, size):
    """The stones of `who` in the row through p along d (p included)."""
    n = 1
    for sign in (1, -1):
        x, y = p[0] + sign * d[0], p[1] + sign * d[1]
        while 0 <= x < size and 0 <= y < size and stones.get((x, y)) == who:
            n += 1
            x, y = x + sign * d[0], y + sign * d[1]
    return n


def wins(stones, who, p, size, n, exact):
    for d in DIRECTIONS:
        run = run_length(stones, who, p, d, size)
        if (run == n) if exact else (run >= n):
            return True
    return False


def winner_anywhere(stones, size, n, exact):
    for p, who in sorted(stones.items()):
        if wins(stones, who, p, size, n, exact):
            return who
    return None


def replay(size, n, exact, moves):
    stones = {}
    who = "black"
    for i, text in enumerate(moves):
        p = point(text.strip().lstrip("@"), size)
        if p is None:
            return {"plies": i, "result": "none", "illegal": i, "why": "no point"}
        if p in stones:
            return {"plies": i, "result": "none", "illegal": i, "why": "occupied"}
        stones[p] = who
        if wins(stones, who, p, size, n, exact):
            after = i + 1
            if after != len(moves):
                return {"plies": after, "result": who, "illegal": after, "why": "game over"}
            return {"plies": after, "result": who, "illegal": None, "why": None}
        if len(stones) == size * size:
            after = i + 1
            if after != len(moves):
                return {"plies": after, "result": "draw", "illegal": after, "why": "game over"}
            return {"plies": after, "result": "draw", "illegal": None, "why": None}
        who = "white" if who == "black" else "black"
    return {"plies": len(moves), "result": "none", "illegal": None, "why": None}


def perft(stones, who, size, n, exact, depth, last):
    if depth == 0:
        return 1
    if last is not None and wins(stones, stones[last], last, size, n, exact):
        return 0
    empty = [(x, y) for x in range(size) for y in range(size) if (x, y) not in stones]
    if depth == 1:
        return len(empty)
    other = "white" if who == "black" else "black"
    total = 0
    for p in empty:
        stones[p] = who
        total += perft(stones, other, size, n, exact, depth - 1, p)
        del stones[p]
    return total


def main():
    args = sys.argv[1:]
    size, n, exact = int(args[1]), int(args[2]), args[3] == "exact"
    if args[0] == "replay":
        moves = json.load(sys.stdin)
        print(json.dumps(replay(size, n, exact, moves)))
        return
    depth, who = int(args[4]), args[5]
    stones = {}
    for side, listed in (("black", args[6]), ("white", args[7])):
        if listed != "-":
            for text in listed.split(","):
                stones[point(text, size)] = side
    if winner_anywhere(stones, size, n, exact) is not None:
        print(0 if depth > 0 else 1)
        return
    print(perft(stones, who, size, n, exact, depth, None))


if __name__ == "__main__":
    main()
