#!/usr/bin/env python3
"""An independent simulator of the Royal Game of Ur with random play.

It shares no code with rulebook: it is written from the rules in
docs/rules.md (UR-1 to UR-8) alone, and tests/race_paths.rs compares its
statistics with `rulebook simulate`. Standard library only.

Usage: ur.py GAMES SEED
Prints one line of JSON: the games, the mean throws a game and its standard
deviation, and the games the first seat won.

The rules played: two players, seven pieces each. A piece's step 0 is off
the board before it enters, 1..14 its path, 15 borne off. Steps 1-4 and
13-14 are cells of its owner's own; steps 5-12 are the middle lane, the same
cells for both players. A throw is four coins, each 0 or 1: their sum, 0
to 4. A throw of 0 moves nothing. A piece moves from step s to s + throw
(entering: from 0); never past 15, never onto a piece of its owner's, never
onto step 8 (the middle rosette) while any piece is there. A piece coming to
rest in the middle lane on an opponent's piece sends it off the board.
Coming to rest on step 4, 8 or 14 (the rosettes) gives the same player
another throw. A player with no legal move passes. Seven pieces borne off
win. Each player picks uniformly among the distinct legal choices: entering
(one choice, whichever piece), or a piece on the board.
"""

import json
import math
import random
import sys

PIECES = 7
OFF = 15
ROSETTES = (4, 8, 14)
MIDDLE_ROSETTE = 8


def shared(step):
    return 5 <= step <= 12


def legal(pos, seat, throw):
    """The distinct legal choices: ('enter',) or ('move', step)."""
    if throw == 0:
        return []
    mine = pos[seat]
    theirs = pos[1 - seat]
    out = []
    starts = []
    if 0 in mine:
        starts.append(0)
    starts.extend(sorted(set(s for s in mine if 0 < s < OFF), reverse=True))
    for s in starts:
        t = s + throw
        if t > OFF:
            continue
        if t < OFF and t in mine:
            continue
        if t == MIDDLE_ROSETTE and MIDDLE_ROSETTE in theirs:
            continue
        out.append(("enter",) if s == 0 else ("move", s))
    return out


def play(rng):
    """One game: the number of throws and the winner's seat (0 or 1)."""
    pos = [[0] * PIECES, [0] * PIECES]
    seat = 0
    throws = 0
    while True:
        throw = sum(rng.randrange(2) for _ in range(4))
        throws += 1
        options = legal(pos, seat, throw)
        again = False
        if options:
            choice = options[rng.randrange(len(options))]
            start = 0 if choice[0] == "enter" else choice[1]
            i = pos[seat].index(start)
            to = start + throw
            pos[seat][i] = to
            if shared(to):
                other = pos[1 - seat]
                for j, s in enumerate(other):
                    if s == to:
                        other[j] = 0
            if all(s == OFF for s in pos[seat]):
                return throws, seat
            again = to in ROSETTES
        if not again:
            seat = 1 - seat


def main():
    games = int(sys.argv[1])
    seed = int(sys.argv[2])
    rng = random.Random(seed)
    lengths = []
    first = 0
    for _ in range(games):
        n, winner = play(rng)
        lengths.append(n)
        first += winner == 0
    mean = sum(lengths) / games
    sd = math.sqrt(sum((x - mean) ** 2 for x in lengths) / (games - 1))
    print(json.dumps({"games": games, "mean_rolls": mean, "sd_rolls": sd, "first_wins": first}))


if __name__ == "__main__":
    main()
