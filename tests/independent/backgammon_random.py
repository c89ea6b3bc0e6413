#!/usr/bin/env python3
"""Backgammon between random players, written for the test from the rules
alone (docs/rules.md BG-1 to BG-9), sharing no code with rulebook.

tests/race_backgammon.rs compares its mean rolls a game and the first
seat's win rate with `rulebook simulate other/backgammon --agents random`.

The rules: two seats of 15 pieces, white first, each running its own 24
steps (white's step s is black's step 25 - s), starting 2 on step 1, 5 on
12, 3 on 17 and 5 on 19. Two dice; each die moves a piece on its own, in
any order, a double four times; as many dice as can be must be used, and
the larger die when only one can be. No piece lands on a point held by 2
or more opponent pieces; a single one there is hit and goes to the bar. A
piece on the bar must enter before any other moves, die d onto step d.
A piece bears off (step 25) only when all 15 are on steps 19-24 or off, by
the exact count, or by a larger one from the furthest piece (none on a
lower step). The first to bear off all 15 wins. A roll no die can use is a
pass. Each player picks uniformly among the distinct positions its legal
turns lead to.

Usage: backgammon_random.py GAMES SEED
Prints one line of JSON: games, mean_rolls, sd_rolls, first_wins.
"""

import json
import math
import random
import sys

BAR, OFF, STEPS, PIECES = 0, 25, 24, 15


def start():
    seat = [0] * 26
    for step, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
        seat[step] = n
    return seat


def die_moves(me, opp, die):
    """Each (me', opp') one die leads to: a list, maybe empty."""
    out = []
    if me[BAR] > 0:
        froms = [BAR]
    else:
        froms = [s for s in range(1, STEPS + 1) if me[s] > 0]
    home = me[BAR] == 0 and all(me[s] == 0 for s in range(1, 19))
    lowest = min((s for s in range(1, STEPS + 1) if me[s] > 0), default=None)
    for s in froms:
        to = s + die
        if to > STEPS:
            if not home:
                continue
            if to > OFF and s != lowest:
                continue
            m = list(me)
            m[s] -= 1
            m[OFF] += 1
            out.append((m, opp))
            continue
        there = STEPS + 1 - to  # the same point counted on the opponent's path
        if opp[there] >= 2:
            continue
        m, o = list(me), list(opp)
        m[s] -= 1
        m[to] += 1
        if o[there] == 1:
            o[there] = 0
            o[BAR] += 1
        out.append((m, o))
    return out


def turns(me, opp, dice):
    """The distinct positions (me', opp') the legal turns lead to."""
    ends = {}  # position -> (dice used, the first dice of the turns to it)
    seen = set()

    def search(m, o, left, used, first):
        key = (tuple(m), tuple(o), tuple(sorted(left)))
        if key in seen:
            return
        seen.add(key)
        moved = False
        for i, die in enumerate(left):
            if die in left[:i]:
                continue
            rest = left[:i] + left[i + 1 :]
            for m2, o2 in die_moves(m, o, die):
                moved = True
                search(m2, o2, rest, used + 1, die if first is None else first)
        if not moved and used > 0:
            pos = (tuple(m), tuple(o))
            best = ends.get(pos)
            if best is None or used > best[0]:
                ends[pos] = (used, {first})
            elif used == best[0]:
                best[1].add(first)

    if dice[0] == dice[1]:
        search(me, opp, [dice[0]] * 4, 0, None)
    else:
        search(me, opp, list(dice), 0, None)
    if not ends:
        return []
    most = max(u for u, _ in ends.values())
    keep = {p: f for p, (u, f) in ends.items() if u == most}
    if most == 1 and dice[0] != dice[1]:
        larger = max(dice)
        if any(larger in f for f in keep.values()):
            keep = {p: f for p, f in keep.items() if larger in f}
    return list(keep)


def play(rng):
    seats = [start(), start()]
    seat, rolls = 0, 0
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        rolls += 1
        options = turns(seats[seat], seats[1 - seat], dice)
        if options:
            me, opp = options[rng.randrange(len(options))]
            seats[seat], seats[1 - seat] = list(me), list(opp)
            if seats[seat][OFF] == PIECES:
                return rolls, seat
        seat = 1 - seat


def main():
    games, seed = (int(a) for a in sys.argv[1:3])
    rng = random.Random(seed)
    lengths, first = [], 0
    for _ in range(games):
        rolls, winner = play(rng)
        lengths.append(rolls)
        first += winner == 0
    mean = sum(lengths) / games
    sd = math.sqrt(sum((x - mean) ** 2 for x in lengths) / (games - 1))
    print(json.dumps({"games": games, "mean_rolls": mean, "sd_rolls": sd, "first_wins": first}))


if __name__ == "__main__":
    main()
