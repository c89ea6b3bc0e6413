#!/bin/sh
# Builds RBG's compiled reasoner (rbg2cpp, rbgParser, rbgGames: public
# sources on GitHub) and compares Breakthrough with rulebook: perft counts
# and CPU time at depths 4-6, and random playouts per CPU-second, RBG and
# rulebook alternating. Not run by CI; needs g++, make and libboost-dev
# (Debian: apt-get install libboost-dev).
#
#   tools/bench-rbg.sh [WORKDIR]     (default: ../speed-rbg beside the checkout)
#
# RULEBOOK=path/to/rulebook runs that binary instead of target/release's.
# WORKDIR holds (or gets, with git) rbg2cpp with rbgParser and rbgGames
# inside it, as its Makefile expects. rulebook is built with
# `cargo build --release` first.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=${1:-$ROOT/../speed-rbg}
mkdir -p "$W"
cd "$W"
if [ ! -d rbg2cpp ]; then
    git clone --depth 1 https://github.com/uicus/rbg2cpp
fi
[ -f rbg2cpp/rbgParser/Makefile ] || { rm -rf rbg2cpp/rbgParser; git clone --depth 1 https://github.com/uicus/rbgParser rbg2cpp/rbgParser; }
[ -d rbg2cpp/rbgGames/games ] || { rm -rf rbg2cpp/rbgGames; git clone --depth 1 https://github.com/marekesz/rbgGames rbg2cpp/rbgGames; }
cd rbg2cpp
[ -x bin/rbg2cpp ] || make rbg2cpp
FLAGS="-Wall -std=c++17 -Ofast -march=native -flto -s -DNDEBUG -DRBG_RANDOM_GENERATOR=0"
# The reasoner of breakthrough.rbg, linked with the perft and benchmark
# drivers of test/.
if [ ! -x test/bt-perft ] || [ ! -x test/bt-benchmark ]; then
    bin/rbg2cpp -o reasoner rbgGames/games/breakthrough.rbg
    mv reasoner.hpp reasoner.cpp test/
    g++ $FLAGS -c -o test/reasoner.o test/reasoner.cpp
    g++ $FLAGS -o test/bt-perft test/reasoner.o test/perft.cpp
    g++ $FLAGS -o test/bt-benchmark test/reasoner.o test/benchmark.cpp
fi
B="${RULEBOOK:-$ROOT/target/release/rulebook}"
[ -x "$B" ] || (cd "$ROOT" && cargo build --release)
# Which path counts and plays Breakthrough (the kernel of steps, or the
# general path and why).
"$B" bench other/breakthrough --depth 1 | sed -n 's/^ *played by/rulebook: played by/p'
cpu() { /usr/bin/time -f '%U+%S' "$@" 2>&1 >/dev/null | tail -1 | awk -F+ '{print $1 + $2}'; }
echo "perft: leaves (RBG, rulebook) and user+system CPU seconds, alternating"
for d in 4 5 6; do
    r=$(test/bt-perft "$d" | sed -n 's/^perft: //p')
    b=$("$B" perft other/breakthrough "$d" | tail -1 | awk '{print $NF}')
    echo "depth $d: RBG $r, rulebook $b"
    for round in 1 2 3; do
        echo "  round $round: RBG $(cpu test/bt-perft "$d") s, rulebook $(cpu "$B" perft other/breakthrough "$d") s"
    done
done
echo "random playouts, 3 rounds alternating (RBG: its benchmark driver, 5 s of wall time;"
echo "rulebook: bench --playouts --seconds 5): games over user+system CPU seconds"
for round in 1 2 3; do
    out=$( { /usr/bin/time -f 'cpu %U %S' test/bt-benchmark 5000; } 2>&1 )
    games=$(echo "$out" | sed -n "s/^number of playouts: \([0-9]*\).*/\1/p")
    c=$(echo "$out" | awk '/^cpu/ {print $2 + $3}')
    echo "  RBG: $games games in $c s: $(echo "$games / $c" | bc) games/CPU-s"
    "$B" bench other/breakthrough --playouts --seconds 5 | grep 'on a core' | sed 's/^ */  rulebook: /'
done
