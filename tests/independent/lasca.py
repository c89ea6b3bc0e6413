#!/usr/bin/env python3
"""Move counting for Lasca and Bashni (column draughts), written for
rulebook's tests from the rules alone.

It shares no code with rulebook. The rules it plays, as read from the
games' descriptions (docs/rules.md, Lasca and Bashni):

- the dark squares of the board are played (a1 is dark); White moves north;
- a column is a pile of pieces; its top piece says whose it is and how it
  moves; a piece is a soldier (man) or an officer (king);
- a capture jumps an enemy column: its top piece is taken at once and put
  under the bottom of the jumping column, the rest stays on its square and
  belongs to its new top piece (it may be jumped again in the same capture
  while its top is an enemy);
- Lasca: 7 x 7; soldiers step and jump one square diagonally forwards,
  officers both ways; a soldier reaching the far row in a capture is
  crowned and the move ends;
- Bashni: 8 x 8; men step one square diagonally forwards and jump one
  square diagonally in any direction; kings slide and jump from any
  distance along a diagonal, landing on any empty square beyond, but only
  on one from which the capture can go on when there is such a square; a
  man reaching the far rank in a capture is crowned and goes on as a king;
- capturing is compulsory, any capture may be chosen, and a capture goes
  on while the column can jump again; a soldier (man) ending its move on
  the far row is crowned; a side that can't move has no moves;
- two captures are one move when they start and end on the same squares
  and take from the same squares in the same order (they leave the same
  position).

Usage:
  lasca.py perft GAME DEPTH POSITION
      GAME is "lasca" or "bashni". POSITION is a position string:
      `W:Wa3,Oc5(bwO):Bb6`: the side to move, then each side's column tops
      (`O`/`K` before the square: an officer/king), each maybe followed by
      the pieces under it in brackets, top first: a side's letter in lower
      case, then `O`/`K` for an officer/king. Prints a JSON list: the number
      of move sequences of each length from 1 to DEPTH.
"""

import json
import sys

DIAGONALS = [(1, 1), (-1, 1), (1, -1), (-1, -1)]


class Rules:
    def __init__(self, game):
        self.game = game
        self.size = 7 if game == "lasca" else 8
        self.officer = "O" if game == "lasca" else "K"

    def on_board(self, f, r):
        return 0 <= f < self.size and 0 <= r < self.size and (f + r) % 2 == 0

    def forward(self, colour):
        return 1 if colour == "w" else -1

    def far(self, colour, r):
        return r == (self.size - 1 if colour == "w" else 0)


def parse(rules, text):
    """A position: (board, side to move); board maps (file, rank) to a list
    of pieces bottom first, each (colour, crowned)."""
    fields = text.strip().split(":")
    to_move = fields[0].lower()
    board = {}
    for field in fields[1:]:
        colour = field[0].lower()
        for item in field[1:].split(","):
            item = item.strip()
            if not item:
                continue
            crowned = item[0] == rules.officer
            if crowned:
                item = item[1:]
            under = []
            if "(" in item:
                item, rest = item.split("(")
                rest = rest.rstrip(")")
                for ch in rest:
                    if ch.islower():
                        under.append([ch, False])
                    else:
                        under[-1][1] = True
            square = (ord(item[0]) - ord("a"), int(item[1:]) - 1)
            pile = [tuple(p) for p in reversed(under)] + [(colour, crowned)]
            board[square] = pile
    return board, to_move


def jumps_from(rules, board, sq, piece, colour):
    """The single jumps of a column whose top is `piece` standing on `sq`
    (its start square already empty): (jumped square, landing square)."""
    out = []
    f, r = sq
    crowned = piece[1]
    for df, dr in DIAGONALS:
        if rules.game == "lasca" and not crowned and dr != rules.forward(colour):
            continue
        if rules.game == "bashni" and crowned:
            x, y = f + df, r + dr
            while rules.on_board(x, y) and (x, y) not in board:
                x, y = x + df, y + dr
            if not rules.on_board(x, y) or board[(x, y)][-1][0] == colour:
                continue
            over = (x, y)
            x, y = x + df, y + dr
            while rules.on_board(x, y) and (x, y) not in board:
                out.append((over, (x, y)))
                x, y = x + df, y + dr
        else:
            over = (f + df, r + dr)
            land = (f + 2 * df, r + 2 * dr)
            if (
                rules.on_board(*land)
                and over in board
                and land not in board
                and board[over][-1][0] != colour
            ):
                out.append((over, land))
    return out


def take(board, over):
    """Takes the top piece of the column on `over`; returns it and what the
    square held before, to put back."""
    pile = board[over]
    top = pile[-1]
    if len(pile) == 1:
        del board[over]
    else:
        board[over] = pile[:-1]
    return top, pile


def chains(rules, board, start, column, colour, sq, taken, landings, out):
    """Every capture that goes on from `sq` with the column (bottom first)."""
    piece = column[-1]
    options = jumps_from(rules, board, sq, piece, colour)
    if rules.game == "bashni" and piece[1]:
        # A king lands only where it can go on, where some landing of that
        # jump allows it.
        by_over = {}
        for over, land in options:
            by_over.setdefault(over, []).append(land)
        kept = []
        for over, lands in by_over.items():
            top, pile = take(board, over)
            good = [l for l in lands if jumps_from(rules, board, l, piece, colour)]
            board[over] = pile
            kept.extend((over, l) for l in (good if good else lands))
        options = kept
    if not options:
        if taken:
            out.add((start, sq, tuple(taken), tuple(column)))
        return
    for over, land in options:
        top, pile = take(board, over)
        new_column = [top] + column
        crowned_now = not piece[1] and rules.far(colour, land[1])
        if crowned_now:
            new_column = new_column[:-1] + [(colour, True)]
        if crowned_now and rules.game == "lasca":
            out.add((start, land, tuple(taken + [over]), tuple(new_column)))
        else:
            chains(rules, board, start, new_column, colour, land, taken + [over],
                   landings + [land], out)
        board[over] = pile


def moves(rules, board, colour):
    """The legal moves: (start, end, squares taken in order, the column that
    ends on `end`, bottom first)."""
    captures = set()
    for sq in list(board):
        column = board[sq]
        if column[-1][0] != colour:
            continue
        del board[sq]
        chains(rules, board, sq, column, colour, sq, [], [], captures)
        board[sq] = column
    if captures:
        return sorted(captures)
    quiet = []
    for (f, r), column in board.items():
        piece = column[-1]
        if piece[0] != colour:
            continue
        for df, dr in DIAGONALS:
            if not piece[1] and dr != rules.forward(colour):
                continue
            x, y = f + df, r + dr
            while rules.on_board(x, y) and (x, y) not in board:
                quiet.append(((f, r), (x, y), (), tuple(column)))
                if not (rules.game == "bashni" and piece[1]):
                    break
                x, y = x + df, y + dr
    return quiet


def play(rules, board, colour, move):
    start, end, taken, column = move
    new = {sq: list(p) for sq, p in board.items()}
    del new[start]
    for over in taken:
        pile = new[over]
        pile.pop()
        if not pile:
            del new[over]
    column = list(column)
    top = column[-1]
    if not top[1] and rules.far(colour, end[1]):
        column[-1] = (colour, True)
    new[end] = column
    return new


def perft(rules, board, colour, depth, counts, level=0):
    ms = moves(rules, board, colour)
    counts[level] += len(ms)
    if level + 1 == depth:
        return
    other = "b" if colour == "w" else "w"
    for m in ms:
        perft(rules, play(rules, board, colour, m), other, depth, counts, level + 1)


def main():
    if len(sys.argv) != 5 or sys.argv[1] != "perft":
        sys.exit(__doc__)
    rules = Rules(sys.argv[2])
    depth = int(sys.argv[3])
    board, colour = parse(rules, sys.argv[4])
    counts = [0] * depth
    perft(rules, board, colour, depth, counts)
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
