#!/usr/bin/env python3
"""An independent simulator of Parcheesi with random play.

It shares no code with rulebook: it is written from the rules in
docs/rules.md (PA-1 to PA-10) alone, and tests/race_parcheesi.rs compares
its statistics with `rulebook simulate`. Standard library only.

Usage: parcheesi.py PLAYERS GAMES SEED
Prints one line of JSON: the games, the mean rolls a game and its standard
deviation, and the games the first seat won.

The rules played: a loop of 68 cells; seat s enters on cell 5 + 17 s. A
piece's progress 0 is out, 1..64 the loop from its start cell, 65..71 its
home column, 72 home. Two d6, each die used by one piece on its own; a
piece enters (to progress 1) with a die showing 5, or with two dice adding
up to 5, used together. A piece moves by the die, never past home. Two
pieces of one seat on a cell are a blockade: no piece passes it or lands on
it. Coming to rest on a loop cell that is not safe with opponents sends
them out and earns a move of 20; reaching home earns a move of 10 (a bonus
never enters a piece). A turn's moves go on while a die or bonus left can
move a piece (at most four moves a turn). Doubles roll again; the third
doubles in a row sends the furthest piece on the board out and the turn
ends. All four pieces home win. Each player picks uniformly among the
distinct positions their legal turns lead to.
"""

import json
import math
import random
import sys

LOOP = 68
LAP = 64
HOME = 72
PIECES = 4
ENTER = 5
SAFE = {5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63, 68}
CAPTURE_BONUS = 20
HOME_BONUS = 10
MOST_MOVES = 4


def start(seat):
    return 5 + 17 * seat


def place(seat, p):
    """Where progress p of seat stands: a loop cell, a home-column cell of
    the seat, or None (out, or home)."""
    if 1 <= p <= LAP:
        return ("loop", (start(seat) - 1 + p - 1) % LOOP + 1)
    if LAP < p < HOME:
        return ("column", seat, p)
    return None


def count_at(pos, spot):
    """The most pieces of one seat on spot."""
    best = 0
    for s, mine in enumerate(pos):
        best = max(best, sum(1 for q in mine if place(s, q) == spot))
    return best


def can_move(pos, seat, p, to):
    """Whether seat's piece at p may go to progress `to` (blockades)."""
    if to > HOME:
        return False
    for q in range(p + 1, min(to, HOME)):
        if count_at(pos, place(seat, q)) >= 2:
            return False
    if to < HOME and count_at(pos, place(seat, to)) >= 2:
        return False
    return True


def move(pos, seat, p, to):
    """The position after the move, and the bonus it earns."""
    new = [list(m) for m in pos]
    mine = new[seat]
    mine[mine.index(p)] = to
    if to == HOME:
        return new, HOME_BONUS
    bonus = 0
    spot = place(seat, to)
    if spot[0] == "loop" and spot[1] not in SAFE:
        for s in range(len(new)):
            if s == seat:
                continue
            for j, q in enumerate(new[s]):
                if place(s, q) == spot:
                    new[s][j] = 0
                    bonus = CAPTURE_BONUS
    return new, bonus


def key(pos):
    return tuple(tuple(sorted(m)) for m in pos)


def outcomes(pos, seat, dice):
    """The distinct positions the turn's legal sequences lead to. A die is
    (value, is_bonus)."""
    finals = {}
    seen = set()

    def search(pos, left, moves):
        k = (key(pos), tuple(sorted(left)))
        if moves > 0:
            if k in seen:
                return
            seen.add(k)
        options = []
        if moves < MOST_MOVES:
            mine = pos[seat]
            for j, (d, bonus) in enumerate(left):
                rest = left[:j] + left[j + 1:]
                for p in set(mine):
                    if p >= HOME:
                        continue
                    if p == 0:
                        if bonus or d != ENTER or not can_move(pos, seat, 0, 1):
                            continue
                        to = 1
                    else:
                        to = p + d
                        if not can_move(pos, seat, p, to):
                            continue
                    options.append((p, to, rest))
            if 0 in mine and can_move(pos, seat, 0, 1):
                for a in range(len(left)):
                    for b in range(a + 1, len(left)):
                        (x, bx), (y, by) = left[a], left[b]
                        if not bx and not by and x + y == ENTER:
                            rest = [left[i] for i in range(len(left)) if i not in (a, b)]
                            options.append((0, 1, rest))
        if not options:
            if moves > 0:
                finals[key(pos)] = pos
            return
        for p, to, rest in options:
            new, bonus = move(pos, seat, p, to)
            if bonus:
                rest = rest + [(bonus, True)]
            search(new, rest, moves + 1)

    search(pos, list(dice), 0)
    return list(finals.values())


def play(players, rng):
    pos = [[0] * PIECES for _ in range(players)]
    seat = 0
    rolls = 0
    doubles = 0
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        rolls += 1
        double = a == b
        doubles = doubles + 1 if double else 0
        if doubles == 3:
            mine = pos[seat]
            on_board = [q for q in mine if 0 < q < HOME]
            if on_board:
                mine[mine.index(max(on_board))] = 0
            doubles = 0
            seat = (seat + 1) % players
            continue
        finals = outcomes(pos, seat, [(a, False), (b, False)])
        if finals:
            pos = finals[rng.randrange(len(finals))]
        if all(q == HOME for q in pos[seat]):
            return rolls, seat
        if not double:
            doubles = 0
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
