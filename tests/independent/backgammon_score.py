#!/usr/bin/env python3
"""Gammons and backgammons in random play, by OpenSpiel (pyspiel, `pip
install open_spiel`), against rulebook's `simulate`.

It shares no code with rulebook: OpenSpiel is a published program that
plays backgammon and scores a game's end as +-1, +-2 (a gammon) or +-3 (a
backgammon) in its returns. This script plays GAMES random games in
OpenSpiel from SEED: at a chance node it draws an outcome with OpenSpiel's
probabilities; at a turn it picks uniformly among the distinct positions
the turn can lead to (as rulebook's `random` player picks among its
choices, one a position), a double's two OpenSpiel actions taken together
(the turn's enumeration is tests/independent/backgammon.py's).

OpenSpiel's first chance node decides who starts with a roll that is never
a double; rulebook's white opens with any roll. tests/race_score.rs says
how it handles that.

Usage: backgammon_score.py GAMES SEED
Prints one line of JSON: the games, and how many ended with 1, 2 and 3
points.
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyspiel  # noqa: E402

from backgammon import outcomes  # noqa: E402


def main():
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon(scoring_type=full_scoring)")
    counts = {1: 0, 2: 0, 3: 0}
    turns = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, weights=probs)[0])
                continue
            player = state.current_player()
            found = outcomes(state, player)
            pick = found[rng.choice(sorted(found))]
            for a in pick:
                state.apply_action(a)
            turns += 1
        points = int(round(abs(state.returns()[0])))
        counts[points] += 1
    print(json.dumps({
        "games": games,
        "turns": turns,
        "single": counts[1],
        "gammon": counts[2],
        "backgammon": counts[3],
    }))


if __name__ == "__main__":
    main()
