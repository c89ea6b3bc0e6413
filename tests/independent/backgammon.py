#!/usr/bin/env python3
"""Backgammon's legal moves, by OpenSpiel (pyspiel, `pip install
open_spiel`), against rulebook's.

It shares no code with rulebook: OpenSpiel is a published program that
plays backgammon. tests/race_backgammon.rs plays seeded random games of
games/other/backgammon.rules and writes, for every turn, the roll, the set
of positions its legal choices lead to, and the position of the choice
played. This script replays the same games in OpenSpiel, turn by turn:
for every roll it lists OpenSpiel's legal actions (an action moves two
pieces; a double is two actions of the same player), the positions they
lead to, compares the two sets, and plays the action that leads to the
position rulebook chose.

Usage: backgammon.py GAMES.json
Prints one line of JSON: the turns compared, the positions listed, and the
turns whose sets differ (the first few, with both sets).

OpenSpiel's conventions: player 0 (x) runs from point index 0 to 23 and
player 1 (o) from 23 to 0, index i being the point p(i+1) of the rule file:
x is black, o is white. Its first chance node decides who starts, with a
roll that is never a double: a game whose first roll is a double is left
out. Pieces on the bar are `out`, borne off `finished`.
"""

import json
import re
import sys

import pyspiel

PIECES = 15
WHITE, BLACK = 1, 0  # OpenSpiel's players


def bar_counts(state):
    text = str(state)
    line = next((l for l in text.splitlines() if l.startswith("Bar:")), "Bar:")
    bar = line[4:]
    return {BLACK: bar.count("x"), WHITE: bar.count("o")}


def position(state):
    """white's pieces then black's, as sorted labels joined."""
    bar = bar_counts(state)
    parts = []
    for name, player in (("white", WHITE), ("black", BLACK)):
        labels = []
        for i in range(24):
            labels += ["p%d" % (i + 1)] * state.board(player, i)
        labels += ["out"] * bar[player]
        labels += ["finished"] * (PIECES - len(labels))
        parts.append(name + " " + " ".join(sorted(labels)))
    return " | ".join(parts)


def roll_of(state, action):
    m = re.search(r"roll: (\d)(\d)", state.action_to_string(pyspiel.PlayerId.CHANCE, action))
    return sorted((int(m.group(1)), int(m.group(2))))


def outcomes(state, player):
    """Every position the player's turn can lead to, with the actions."""
    found = {}
    for a in state.legal_actions():
        child = state.child(a)
        if not child.is_terminal() and child.current_player() == player:
            for b in child.legal_actions():
                grand = child.child(b)
                found.setdefault(position(grand), (a, b))
        else:
            found.setdefault(position(child), (a,))
    return found


def main():
    games = json.load(open(sys.argv[1]))
    compared = listed = skipped = 0
    differ = []
    game = pyspiel.load_game("backgammon")
    for g, turns in enumerate(games):
        state = game.new_initial_state()
        first = turns[0]["roll"]
        if first[0] == first[1]:
            skipped += 1
            continue
        for t, turn in enumerate(turns):
            roll = sorted(turn["roll"])
            assert state.is_chance_node(), (g, t)
            pick = None
            for a, _ in state.chance_outcomes():
                text = state.action_to_string(pyspiel.PlayerId.CHANCE, a)
                if t == 0 and "O starts" not in text:
                    continue
                if roll_of(state, a) == roll:
                    pick = a
                    break
            assert pick is not None, (g, t, roll)
            state.apply_action(pick)
            player = state.current_player()
            assert player == (WHITE if t % 2 == 0 else BLACK), (g, t, player)
            theirs = outcomes(state, player)
            ours = set(turn["results"])
            compared += 1
            listed += len(ours)
            if set(theirs) != ours:
                differ.append({
                    "game": g,
                    "turn": t,
                    "roll": roll,
                    "only_rulebook": sorted(ours - set(theirs)),
                    "only_openspiel": sorted(set(theirs) - ours),
                })
                break
            for a in theirs[turn["chosen"]]:
                state.apply_action(a)
            if state.is_terminal():
                break
    print(json.dumps({
        "games": len(games) - skipped,
        "turns": compared,
        "positions": listed,
        "differences": len(differ),
        "first": differ[:3],
    }))


if __name__ == "__main__":
    main()
