#!/usr/bin/env bash
# Every command on pathological inputs: wall time, peak RSS, exit status and output size.
#
#   bash bench/hostile.sh            # 100 MB inputs
#   SIZE_MB=20 bash bench/hostile.sh # smaller
#   ONLY='tags|comments' bash bench/hostile.sh  # the inputs whose names match a regex
#   KEEP=1 bash bench/hostile.sh                # keep the inputs in target/hostile/
#   STDIN=1 bash bench/hostile.sh               # each input read from a pipe instead
#
# Each input is written to target/hostile/, run through lint (-j1 and all cores),
# convert (csv, jsonl, pdn) and stats, then deleted: the disk holds one input at a time.
# Outputs go to /dev/null (only their size is kept). Needs python3 and GNU time
# (/usr/bin/time). What to look for: no crash (exit status 0, 1 or 2 as documented),
# peak RSS bounded whatever the input, and time in proportion to input and output.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-100}
BIN=target/release/pdnkit
OUT=target/hostile
cargo build --release --quiet --workspace
mkdir -p "$OUT"

# name, then a Python expression of the bytes `head`, `unit` (repeated to the size) and `tail`
INPUTS=(
    "newlines|b''|b'\\n'|b''"
    "blank-lines-between-games|b'[Event \"a\"]\\n1. c3-d4 *\\n'|b'\\n'|b'[Event \"b\"]\\n1. c3-d4 *\\n'"
    "comment-between-games|b'[Event \"a\"]\\n1. c3-d4 *\\n{'|b'x'|b'}\\n[Event \"b\"]\\n1. c3-d4 *\\n'"
    "one-line-of-moves|b'[Event \"a\"]\\n1. '|b'c3-d4 d6-c5 '|b'*\\n[Event \"b\"]\\n1. c3-d4 *\\n'"
    "unclosed-comment|b'[Event \"a\"]\\n1. c3-d4 {'|b'lorem ipsum '|b'\\n[Event \"b\"]\\n1. c3-d4 *\\n'"
    "open-brackets|b''|b'['|b''"
    "open-parens|b'[Event \"a\"]\\n1. c3-d4 '|b'('|b''"
    "nested-variations|b'[Event \"a\"]\\n\\n'|b'1. c3-d4 ('|b''"
    "open-quote|b'[Event \"'|b'x'|b''"
    "tags-only|b''|b'[Event \"x\"]\\n'|b''"
    "header-only-games|b''|b'[Event \"x\"]\\n\\n'|b'[Event \"y\"]\\n1. c3-d4 *\\n'"
    "one-long-token|b'[Event \"a\"]\\n1. '|b'c'|b' *\\n'"
    "results-only|b''|b'1-0 '|b''"
    "cr-line-ends|b''|b'[Event \"x\"]\\r1. c3-d4 f6-g5 *\\r\\r'|b''"
    "illegal-move-games|b''|b'[Event \"x\"]\\n1. c3-d5 *\\n\\n'|b''"
    "unclosed-variation-games|b''|b'[Event \"x\"]\\n1. c3-d4 (f6-g5 *\\n\\n'|b''"
    "fen-games|b''|b'[FEN \"W:W21,22:B1,2\"]\\n1. 22-18 *\\n\\n'|b''"
    "random-bytes|b''|RANDOM|b''"
    "legacy-comment-between-games|b'[Event \"\\xc0\\xc1\"]\\n1. c3-d4 *\\n{'|b'\\xe0\\xe1 '|b'}\\n[Event \"b\"]\\n1. c3-d4 *\\n'"
    "legacy-header-only-games|b''|b'[Event \"\\xc0\\xe0\"]\\n\\n'|b'[Event \"y\"]\\n1. c3-d4 *\\n'"
    "legacy-one-line-of-moves|b'[Event \"\\xc0\"]\\n1. '|b'c3-d4 d6-c5 '|b'*\\n[Event \"b\"]\\n1. c3-d4 *\\n'"
    "legacy-tagless-games|b''|b'1. c3-d4 {\\xe0} f6-g5 1-0\\n\\n'|b''"
    "games-at-the-move-limit|b''|b'[Event \"x\"]\\n1. c3-d5 ' + b'c3-d4 d6-c5 ' * 9999 + b'*\\n\\n'|b''"
    "games-of-4-mb-of-comment|b''|b'[Event \"x\"]\\n1. c3-d4 {' + b'lorem ipsum ' * 340000 + b'} *\\n\\n'|b''"
    "games-of-15-mb-of-comment|b''|b'[Event \"x\"]\\n1. c3-d4 {' + b'lorem ipsum ' * 1250000 + b'} *\\n\\n'|b''"
    "findings-on-one-line|b''|b'[Event \"x\"]\\n1. c3-d4 ' + b'@@ {c d} ' * 300000 + b'*\\n\\n'|b''"
    "games-of-9990-tags|b''|b'[a \"\"]\\n' * 9990 + b'1. c3-d4 *\\n\\n'|b''"
    "games-of-9990-long-tags|b''|b'[abcdefghijklmnopqrstuvwxyz \"abcdefghijklmnopqrstuvwxyz\\\\\\\\\"]\\n' * 9990 + b'1. c3-d4 *\\n\\n'|b''"
    "games-of-9990-empty-comments|b''|b'[Event \"x\"]\\n1. c3-d4 ' + b'{}' * 9990 + b' *\\n\\n'|b''"
    "games-of-9990-empty-variations|b''|b'[Event \"x\"]\\n1. c3-d4 ' + b'()' * 9990 + b' *\\n\\n'|b''"
    "utf8-with-stray-bytes|b''|'[Event \"Турнир\"]\n[White \"Иванов\"]\n1. c3-d4 *\n\n'.encode() * 40 + b'[White \"\xff\"]\n1. c3-d4 *\n\n'|b''"
    "sparse-nul-bytes|b''|b'[Event \"x\"]\n1. c3-d4 f6-g5 *\n\n' * 100 + b'\x00\n\n'|b''"
    "text-between-games|b''|b'[Event \"x\"]\n1. c3-d4 *\n\nround 2, Moscow\n\n'|b''"
    "utf16-odd-length|'\ufeff'.encode('utf-16-le')|'[Event \"x\"]\n1. c3-d4 *\n\n'.encode('utf-16-le')|b'x'"
    "games-of-4-mb-of-400-byte-comments|b''|b'[Event \"x\"]\\n1. c3-d4 ' + (b'{' + b'x' * 400 + b'} ') * 9990 + b' *\\n\\n'|b''"
    "distinct-players|b''|PLAYERS|b''"
)
COMMANDS=(
    "lint -q -j1 --format jsonl"
    "lint -q --format jsonl"
    "convert -q --to csv"
    "convert -q --to jsonl"
    "convert -q --to pdn"
    "convert -q --to csv --tags all"
    "stats -q --format json"
)

echo "## pdnkit on pathological inputs of $SIZE_MB MB ($(git rev-parse --short HEAD))${STDIN:+, read from a pipe}"
echo
echo "| input | command | wall s | peak RSS MB | exit | output KB |"
echo "|---|---|---|---|---|---|"
for spec in "${INPUTS[@]}"; do
    IFS='|' read -r name head unit tail <<<"$spec"
    [[ -n ${ONLY:-} && ! $name =~ $ONLY ]] && continue
    file=$OUT/$name.pdn
    [[ $unit == RANDOM ]] && unit=None
    # (games of two players each, every name new: what stats keeps grows with the names;
    # a quarter of the size, about 27,000 games and 54,000 players a MB)
    [[ $unit == PLAYERS ]] && unit="'players'"
    python3 - "$file" "$SIZE_MB" <<EOF
import os, sys
path, size = sys.argv[1], int(sys.argv[2]) << 20
head, unit, tail = $head, $unit, $tail
with open(path, "wb") as f:
    f.write(head)
    if unit is None:
        for _ in range(size >> 20):
            f.write(os.urandom(1 << 20))
    elif unit == "players":
        n, written = 0, 0
        while written < size // 4:
            game = f'[White "P{n}"][Black "Q{n}"]\\n1. c3-d4 *\\n'.encode()
            f.write(game)
            n, written = n + 1, written + len(game)
    else:
        block = unit * max(1, (1 << 20) // len(unit))
        for _ in range(max(1, size // len(block))):
            f.write(block)
    f.write(tail)
EOF
    for cmd in "${COMMANDS[@]}"; do
        t=$(mktemp)
        if [[ -n ${STDIN:-} ]]; then
            # (a pipe can be read once only: pdnkit keeps what it must read again; the peak
            # RSS is the largest of the shell's children, pdnkit's)
            # shellcheck disable=SC2016,SC2086
            /usr/bin/time -f '%e %M %x' -o "$t" bash -c 'f=$1; shift; cat "$f" | "$@" -' _ \
                "$file" "$BIN" $cmd 2>/dev/null | wc -c >"$t.bytes" || true
        else
            # shellcheck disable=SC2086
            /usr/bin/time -f '%e %M %x' -o "$t" "$BIN" $cmd "$file" 2>/dev/null |
                wc -c >"$t.bytes" || true
        fi
        read -r wall rss status < <(tail -1 "$t")
        printf '| %s | `%s` | %s | %.1f | %s | %d |\n' "$name" "$cmd" "$wall" \
            "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$status" \
            "$(awk -v b="$(cat "$t.bytes")" 'BEGIN { printf "%d", b / 1024 }')"
        rm -f "$t" "$t.bytes"
    done
    [[ -n ${KEEP:-} ]] || rm -f "$file"
done

# The limits of the command line: a -j far beyond the cores (refused over 1,024; at most
# four threads a core started, and no more than the input has jobs for), and -o over a
# file of mode 0600 (the mode kept). Each line: the case, its wall time, peak RSS, exit
# status and what is checked.
echo
echo "| case | wall s | peak RSS MB | exit | check |"
echo "|---|---|---|---|---|"
small=$OUT/small.pdn
printf '[Event "a"]\n1. c3-d4 f6-g5 *\n\n[Event "b"]\n1. c3-d4 f6-e5 2. b2-c3 *\n' >"$small"
big=$OUT/archive.pdn
target/release/pdnkit-generate --size-mb "$SIZE_MB" --seed 1 -o "$big"
private=$OUT/private.csv
run_case() { # run_case NAME CHECK COMMAND... -> a line of the table
    local name=$1 check=$2 t
    shift 2
    t=$(mktemp)
    /usr/bin/time -f '%e %M %x' -o "$t" "$@" >/dev/null 2>&1 || true
    read -r wall rss status < <(tail -1 "$t")
    printf '| %s | %s | %.1f | %s | %s |\n' "$name" "$wall" \
        "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$status" "$($check)"
    rm -f "$t"
}
exit_2_expected() { echo "usage error expected (2)"; }
one_job() { echo "one job: the peak RSS of -j 1"; }
four_a_core() { echo "at most four threads a core"; }
mode_kept() { echo "mode after: $(stat -c %a "$private") (600 expected)"; }
run_case 'lint -j 100000 (small)' exit_2_expected "$BIN" lint -q -j 100000 "$small"
run_case 'convert -j 1024 (small)' one_job "$BIN" convert -q --to csv -j 1024 "$small"
run_case 'convert -j 1 (small)' one_job "$BIN" convert -q --to csv -j 1 "$small"
run_case "stats -j 1024 ($SIZE_MB MB)" four_a_core "$BIN" stats -q -j 1024 "$big"
echo old >"$private" && chmod 600 "$private"
run_case 'convert -o over a 0600 file' mode_kept "$BIN" convert -q --to csv -o "$private" "$small"
rm -f "$small" "$private" "$big"
