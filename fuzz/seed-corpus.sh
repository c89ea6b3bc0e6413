#!/bin/sh
# Seeds fuzz/corpus/TARGET from the bundled games, the test fixtures and
# hand-made hostile inputs (issue 11). Run from the repository's root; the
# files it writes are checked in, and fuzzing adds to them.
set -eu
C=fuzz/corpus
mkdir -p $C/check $C/lsp $C/pdn $C/replay $C/play $C/position $C/moves $C/cli $C/race $C/merge

# Rule files: every bundled game and every error fixture.
for f in $(find games tests/fixtures/errors tests/fixtures/games tests/fixtures/capture-search -name '*.rules'); do
    name=$(echo "$f" | tr '/' '_')
    cp "$f" "$C/check/$name"
    cp "$f" "$C/lsp/$name"
done
# Hostile rule files: deep braces, a long line, a number past 32 bits,
# an extends circle, a string with no end.
printf 'game "x"\nboard 8 x 8\n%s\n' "$(printf 'when a = b {%.0s' $(seq 1 200))" > $C/check/hostile-deep-when.rules
printf 'game "%s"\n' "$(head -c 4000 /dev/zero | tr '\0' 'x')" > $C/check/hostile-long-string.rules
printf 'game "x"\nboard 99999999999999999999 x 8\npdn gametype 99999999999999999999\n' > $C/check/hostile-huge-numbers.rules
printf 'extends "../fuzz"\n' > $C/check/hostile-extends-up.rules
printf 'game "never closed\n' > $C/check/hostile-open-string.rules
cp $C/check/hostile-* $C/lsp/

# PDN and records.
cat > $C/pdn/international.pdn <<'PDN'
[Event "x"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 *
PDN
printf '\357\273\277[GameType "20"][Event "bom and two tags"]\n%% escape line 1. 99-98\n1. 32-28 ; a comment\n{ a (comment) with ) } 19-23 (2. 33-29 {x)}) *\n' > $C/pdn/hostile-bom-escapes.pdn
printf '[Event "Caf\351"]\r\n[GameType "21"]\r\n1. 22-18 11-15 *\r\n' > $C/pdn/hostile-latin1.pdn
printf '[FEN "W:W31,32:B1,2"]\n1. 31-27 {never closed\n' > $C/pdn/hostile-open-comment.pdn
printf '{"game":"draughts"}\n\n{"player":"white","move":"22-18"}\n\n{"player":"black","move":"22x18x"}\n' > $C/pdn/record-blank-lines.jsonl
cp $C/pdn/record-blank-lines.jsonl $C/replay/
printf '{"game":"/etc/passwd"}\n' > $C/replay/hostile-path.jsonl
printf '{"game":"draughts","position":"W:Wa+5:B1"}\n{"player":"white","move":"a+5"}\n' > $C/replay/hostile-sign.jsonl

# Byte seeds for the targets that read bytes as choices or strings.
for t in play position moves race; do
    for i in 0 1 2 3 4 5 6 7; do
        head -c 64 /dev/urandom > "$C/$t/random-$i"
    done
done
printf 'W:W21,22,K5:B1,2' > $C/position/fen
printf 'a+5' > $C/position/hostile-sign
printf '22x18x' > $C/moves/hostile-trailing-x
printf '32-28x' > $C/moves/hostile-dash-x

# The argument surface: the first byte picks the subcommand (fuzz_targets/
# cli.rs: list 0, check 1, show 2, moves 3, perft 4, export 5, import 6,
# play 7, simulate 8, merge 9, compare 10, replay 11, fmt 12, lsp 13,
# bench 14, help 15); the rest is the words, then a newline and the input.
seed() { printf "$1" > "$C/cli/$2"; }
seed '\004draughts 18446744073709551615' perft-huge
seed '\004draughts 3' perft-3
seed '\004draughts 1000000000' perft-billion
seed '\016draughts --playouts --seconds inf' bench-inf
seed '\016draughts --playouts --seconds NaN' bench-nan
seed '\016draughts --depth 1000000000' bench-deep
seed '\016draughts --playouts --jobs 100000' bench-jobs
seed '\010draughts --games 18446744073709551615' simulate-games-huge
seed '\010draughts --games 1000000000000' simulate-games-trillion
seed '\010draughts --games 2 --max-plies 3 --seed 3' simulate-small
seed '\012draughts variants/russian --games 2 --max-plies 3' compare-small
seed '\010draughts --shard 1/3 --games 3' simulate-shard
seed '\003draughts --position W:W21,22,K5:B1,2 --json' moves-json
seed '\003draughts --explain 22x18x' moves-explain
seed '\007draughts --max-plies 3\nmoves\nundo\n22-18\nresign\n' play-typed
seed '\007slow-and-steady --players 3 --seed 1\nhelp\n1\nresign\n' play-race
seed '\001games' check-dir
seed '\013/dev/zero' replay-device
seed '\006games' import-dir

# Shards for `merge` (fuzz_targets/merge.rs): a board game's second shard of
# two, and a whole run of a race game, as `simulate --parquet` writes them.
cargo run --quiet -- simulate draughts --games 6 --seed 3 --quiet --shard 1/2 --parquet $C/merge/draughts-1of2.parquet > /dev/null
cargo run --quiet -- simulate slow-and-steady --games 4 --seed 2 --quiet --parquet $C/merge/race.parquet > /dev/null

# The language server's framing (issue 25): lengths that used to abort,
# panic or hold gigabytes, one past u64, two messages (one not JSON-RPC),
# headers ended by bare line feeds.
T=$C/lsp_transport
mkdir -p $T
printf 'Content-Length: 4000000000\r\n\r\n{}' > $T/huge-4e9
printf 'Content-Length: 18446744073709551615\r\n\r\n{}' > $T/huge-u64-max
printf 'Content-Length: 18446744073709551616\r\n\r\n{}' > $T/past-u64
printf 'Content-Length: 2000000000\r\n\r\n' > $T/huge-2e9-empty
printf 'Content-Length: 44\r\n\r\n{"jsonrpc":"2.0","id":7,"method":"shutdown"}Content-Length: 3\r\n\r\n{]}' > $T/two-messages
printf 'Content-Type: x\r\ncontent-length:2\n\n{}' > $T/headers-lf
