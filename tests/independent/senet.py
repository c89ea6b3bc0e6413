#!/usr/bin/env python3
"""An independent simulator of Senet (Kendall's rules) with random play.

It shares no code with rulebook: it is written from the rules in
docs/rules.md (SN-1 to SN-13) alone, and tests/race_senet.rs compares its
statistics with `rulebook simulate`. Standard library only.

Usage: senet.py GAMES SEED
Prints one line of JSON: the games, the mean throws a game and its standard
deviation, and the games the first seat won.

The rules played: two players, five pieces each, the first player's on
squares 2, 4, 6, 8 and 10, the second's on 1, 3, 5, 7 and 9; the first
player throws first. A piece's square is 1..30, 31 borne off. A throw is
four sticks, each 0 or 1: the count of 1s, and a count of 0 is worth 5. A
throw worth 1, 4 or 5 gives the same player another throw. A piece moves
forward by the throw; it bears off only by the exact
throw to 31. Where a piece lands or ends (square 27 sends it on to 15),
there must be no piece of its owner's, no piece at all on the safe squares
26, 28, 29 and 30, and no opponent's piece next to another of the same
opponent's (two in a row protect each other). It may not pass square 26 on its way
forward, nor a piece of a row of three or more of the opponent's either way. When no piece can
move forward or enter, a piece moves back by the throw under the same
rules (never back off the board); a player with no move passes. A piece
that ends on an opponent's piece off the safe squares sends it to the
square the mover came from. Five pieces
borne off win. Each player picks uniformly among the distinct legal
choices: a piece's square.
"""

import json
import math
import random
import sys

PIECES = 5
OFF = 31
SAFE = (26, 28, 29, 30)
STOP = 26
WATER, REBIRTH = 27, 15
AGAIN = (1, 4, 5)


def row(squares, s):
    """The length of the row of pieces on `squares` through square s."""
    n = 1
    t = s - 1
    while t >= 1 and t in squares:
        n += 1
        t -= 1
    t = s + 1
    while t < OFF and t in squares:
        n += 1
        t += 1
    return n


def allowed(pos, seat, i, start, land):
    """Whether piece i of seat (None: entering) may go from start to land."""
    mine = [s for j, s in enumerate(pos[seat]) if j != i and 0 < s < OFF]
    theirs = [s for s in pos[1 - seat] if 0 < s < OFF]
    end = REBIRTH if land == WATER else land
    for at in {land, end}:
        if at >= OFF:
            continue
        if at in SAFE and (at in mine or at in theirs):
            return False
        if at in mine:
            return False
        if at in theirs and row(theirs, at) >= 2:
            return False
    low, high = min(start, land), max(start, land)
    for at in range(low + 1, min(high, OFF)):
        if at == STOP and land > start:
            return False
        if at in theirs and row(theirs, at) >= 3:
            return False
    return True


def legal(pos, seat, value):
    """The distinct legal choices: ('enter',), ('move', s) or ('back', s)."""
    out = []
    if 0 in pos[seat] and allowed(pos, seat, None, 0, value):
        out.append(("enter",))
    moves = set()
    for i, s in enumerate(pos[seat]):
        if 0 < s < OFF and s + value <= OFF and allowed(pos, seat, i, s, s + value):
            moves.add(s)
    out.extend(("move", s) for s in sorted(moves, reverse=True))
    if out:
        return out
    backs = set()
    for i, s in enumerate(pos[seat]):
        if 0 < s < OFF and value < s and allowed(pos, seat, i, s, s - value):
            backs.add(s)
    return [("back", s) for s in sorted(backs, reverse=True)]


def play(rng, pos):
    """One game from `pos`: the number of throws and the winner's seat."""
    seat = 0
    throws = 0
    while True:
        marked = sum(rng.randrange(2) for _ in range(4))
        value = 5 if marked == 0 else marked
        throws += 1
        options = legal(pos, seat, value)
        if options:
            choice = options[rng.randrange(len(options))]
            start = 0 if choice[0] == "enter" else choice[1]
            i = pos[seat].index(start)
            to = start - value if choice[0] == "back" else start + value
            if to == WATER:
                to = REBIRTH
            pos[seat][i] = to
            if to < OFF and to not in SAFE:
                other = pos[1 - seat]
                for j, s in enumerate(other):
                    if s == to:
                        other[j] = start
            if all(s == OFF for s in pos[seat]):
                return throws, seat
        if value not in AGAIN:
            seat = 1 - seat


def main():
    games = int(sys.argv[1])
    seed = int(sys.argv[2])
    rng = random.Random(seed)
    lengths = []
    first = 0
    for _ in range(games):
        n, winner = play(rng, [[2, 4, 6, 8, 10], [1, 3, 5, 7, 9]])
        lengths.append(n)
        first += winner == 0
    mean = sum(lengths) / games
    sd = math.sqrt(sum((x - mean) ** 2 for x in lengths) / (games - 1))
    print(json.dumps({"games": games, "mean_rolls": mean, "sd_rolls": sd, "first_wins": first}))


if __name__ == "__main__":
    main()
