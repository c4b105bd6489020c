# Shared by the bench scripts (sourced, not run): the inputs they measure and compare, and
# a build of another revision of pdnkit to compare with.
#
# Needs: OUT (where inputs are cached), SEED; GEN, a pdnkit-generate (tools/gen) already
# built, or else one is built with the release profile when an input is generated.

# build_rev REV PROFILE -> path of pdnkit built from git revision REV (cached by commit)
build_rev() {
    local sha dir
    sha=$(git rev-parse --verify "$1^{commit}")
    dir=target/revs/$sha
    if [[ ! -x $dir/pdnkit-$2 ]]; then
        echo "building $1 ($sha) with the $2 profile..." >&2
        rm -rf "$dir/src"
        mkdir -p "$dir/src"
        git archive "$sha" | tar -x -C "$dir/src"
        # (the files carry the commit's time: without a newer one cargo may take another
        # revision's build in the shared target folder for this one's)
        find "$dir/src" -type f -exec touch {} +
        # (one target folder for every revision: what they share is built once)
        (cd "$dir/src" && CARGO_TARGET_DIR=../../target cargo build --profile "$2" --quiet --bin pdnkit)
        cp "target/revs/target/$2/pdnkit" "$dir/pdnkit-$2"
        rm -rf "$dir/src"
    fi
    echo "$dir/pdnkit-$2"
}

generate() { # generate ARGS... : pdnkit-generate ARGS
    if [[ -z ${GEN:-} ]]; then
        cargo build --release --quiet -p pdnkit-gen --bin pdnkit-generate
        GEN=target/release/pdnkit-generate
    fi
    "$GEN" "$@"
}
archive() { # archive SIZE_MB -> path (generated once, cached)
    local f="$OUT/archive-$1mb-s$SEED.pdn"
    if [[ ! -s $f ]]; then
        echo "generating $f..." >&2
        generate --size-mb "$1" --seed "$SEED" -o "$f.tmp" && mv "$f.tmp" "$f"
    fi
    echo "$f"
}
many_files() { # many_files SIZE_MB FILES -> directory of FILES files with the same games
    local d="$OUT/many-$1mb-s$SEED-$2"
    if [[ ! -f $d/.done ]]; then
        echo "generating $d..." >&2
        rm -rf "$d"
        generate --size-mb "$1" --seed "$SEED" --files "$2" -o "$d" && touch "$d/.done"
    fi
    echo "$d"
}
illegal_archive() { # illegal_archive FILE -> the same games, most with an illegal move
    # (`a1-a5`, a man that does not stand there, written before the 25th move where a
    # space comes before its number: 57% of the games)
    local f="${1%.pdn}-illegal.pdn"
    if [[ ! -s $f ]]; then
        sed 's/ 25\. / 25. a1-a5 /' "$1" >"$f.tmp" && mv "$f.tmp" "$f"
    fi
    echo "$f"
}
tagless_archive() { # tagless_archive FILE -> the same games without their tag lines
    local f="${1%.pdn}-no-tags.pdn"
    if [[ ! -s $f ]]; then
        grep -v '^\[' "$1" >"$f.tmp" && mv "$f.tmp" "$f"
    fi
    echo "$f"
}
legacy_archive() { # legacy_archive FILE|DIR -> the same games in Windows-1251
    local f="${1%.pdn}-cp1251"
    [[ -d $1 ]] || f="$f.pdn"
    if [[ ! -e $f ]]; then
        python3 - "$1" "$f" <<'PY'
import os, sys
src, dst = sys.argv[1], sys.argv[2]
def convert(a, b):
    with open(a, encoding="utf-8") as i, open(b, "wb") as o:
        o.write(i.read().encode("cp1251"))
if os.path.isdir(src):
    os.makedirs(dst + ".tmp", exist_ok=True)
    for name in os.listdir(src):
        if name.endswith(".pdn"):
            convert(os.path.join(src, name), os.path.join(dst + ".tmp", name))
else:
    convert(src, dst + ".tmp")
os.rename(dst + ".tmp", dst)
PY
    fi
    echo "$f"
}
crlf_archive() { # crlf_archive FILE -> the same games with CR LF line ends
    local f="${1%.pdn}-crlf.pdn"
    if [[ ! -s $f ]]; then
        sed 's/$/\r/' "$1" >"$f.tmp" && mv "$f.tmp" "$f"
    fi
    echo "$f"
}
REAL_GAMES=../shared/corpus/russian/abatsiev.pdn
real_archive() { # real_archive SIZE_MB -> abatsiev.pdn repeated to about SIZE_MB (or nothing)
    # (real games of USSR events, read from ../shared, never copied into the project: the
    # input is left out where that folder is absent)
    [[ -s $REAL_GAMES ]] || return 0
    local f="$OUT/real-abatsiev-$1mb.pdn"
    if [[ ! -s $f ]]; then
        python3 - "$REAL_GAMES" "$1" "$f" <<'PY'
import sys
games = open(sys.argv[1], "rb").read()
with open(sys.argv[3] + ".tmp", "wb") as out:
    out.write(games * (int(sys.argv[2]) * 1_000_000 // len(games) + 1))
PY
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}
