#!/usr/bin/env python3
"""An independent simulator of Mensch aergere dich nicht with random play.

It shares no code with rulebook: it is written from the rules in
docs/rules.md (MA-1 to MA-9) alone, and tests/race_rules.rs compares its
statistics with `rulebook simulate`. Standard library only.

Usage: mensch.py PLAYERS GAMES SEED
Prints one line of JSON: the games, the mean rolls a game and its standard
deviation, and the games the first seat won.

The rules played: a loop of 40 cells, seat s starting on cell 1 + 10 s; a
piece's progress 0 is out, 1..40 the loop from its start cell, 41..44 its
home cells. One d6. A 6 enters an out piece on the start cell, and then
entering is the only choice (unless a piece of one's own stands there). A
piece moves by the die; never onto a piece of its own, never past 44, never
past a piece of its own on the home cells. Coming to rest on a loop cell
with opponents sends them out. While a player has pieces out, a piece on the
start cell that can move must. A 6 rolls again. A roll in which nothing
moves, without a 6, by a player none of whose pieces could move with any
roll, is followed by another roll of theirs, up to 3 rolls in a row. All
four pieces on the home cells win. Each player picks uniformly among the
distinct legal choices.
"""

import json
import math
import random
import sys

LOOP = 40
LAST = 44
PIECES = 4


def choices(pos, seat, die):
    """The distinct legal choices: 'enter', a progress to move, or 'pass'."""
    mine = pos[seat]
    occupied = set(p for p in mine if p > 0)
    out = 0 in mine
    moves = []
    for p in sorted(set(p for p in mine if p > 0), reverse=True):
        to = p + die
        if to > LAST or to in occupied:
            continue
        if any(p < q < to and q > LOOP for q in occupied):
            continue
        moves.append(p)
    can_enter = die == 6 and out and 1 not in occupied
    if out and 1 in moves:
        return [1]
    if can_enter:
        return ["enter"]
    return moves if moves else ["pass"]


def none_can_move(pos, seat):
    mine = pos[seat]
    occupied = set(p for p in mine if p > 0)
    for p in occupied:
        for die in range(1, 7):
            to = p + die
            if to > LAST or to in occupied:
                continue
            if any(p < q < to and q > LOOP for q in occupied):
                continue
            return False
    return True


def cell(seat, p):
    return (10 * seat + p - 1) % LOOP + 1


def play(players, rng):
    pos = [[0] * PIECES for _ in range(players)]
    seat = 0
    rolls = 0
    tries = 0
    while True:
        die = rng.randint(1, 6)
        rolls += 1
        options = choices(pos, seat, die)
        choice = options[rng.randrange(len(options))]
        moved = choice != "pass"
        if moved:
            mine = pos[seat]
            if choice == "enter":
                i = mine.index(0)
                to = 1
            else:
                i = mine.index(choice)
                to = choice + die
            mine[i] = to
            if to <= LOOP:
                here = cell(seat, to)
                for other in range(players):
                    if other == seat:
                        continue
                    for j, q in enumerate(pos[other]):
                        if 0 < q <= LOOP and cell(other, q) == here:
                            pos[other][j] = 0
            if all(q > LOOP for q in mine):
                return rolls, seat
        if die == 6:
            continue
        if moved:
            tries = 0
        else:
            tries += 1
            if tries < 3 and none_can_move(pos, seat):
                continue
        tries = 0
        seat = (seat + 1) % players


def main():
    players, games, seed = (int(a) for a in sys.argv[1:4])
    rng = random.Random(seed)
    lengths = []
    first = 0
    for _ in range(games):
        rolls, winner = play(players, rng)
        lengths.append(rolls)
        first += winner == 0
    mean = sum(lengths) / games
    sd = math.sqrt(sum((x - mean) ** 2 for x in lengths) / (games - 1))
    print(json.dumps({"games": games, "mean_rolls": mean, "sd_rolls": sd, "first_wins": first}))


if __name__ == "__main__":
    main()
