#!/usr/bin/env bash
# Builds the Syzygy generator and the Fathom oracle, generates the 3- and 4-piece tables
# (and optionally chosen 5-piece ones) and checks every table against the shipped checksums.
#
# Usage: tools/syzygy-tables.sh [options]     (npm run tb:generate -- [options])
#   --pieces 4|5     4 (the default): the 35 tables of 3 and 4 pieces; 5: those and all 110
#                    tables of 5 pieces (the 3-5 set, 939 MiB; hours on one core; resumable:
#                    tables already verified are skipped)
#   --src DIR        the generator's source tree (syzygy1/tb: README.md, src/, checksums/);
#                    default data/syzygy/src/tb
#   --fathom DIR     Fathom's source tree (jdart1/Fathom: src/tbprobe.c ...);
#                    default data/syzygy/src/fathom; the oracle is skipped if it is absent
#   --five "A B ..." also generate these 5-piece tables into data/syzygy/5/, with every
#                    5-piece table they need (promotions, captures) first; e.g. "KRPvKR KQvKRP"
#   --six "A B ..."  also generate these pawnless 6-piece tables into data/syzygy/6/, after the
#                    5-piece tables their captures lead to; e.g. "KQQQQvK KRRvKRR". The generator
#                    takes about 15 GB of memory for one (its README: at least 16 GB), and a
#                    pawn's promotions would need other 6-piece tables first, so pawns are refused
#   --threads N      generator threads (default 1)
#   --no-tables      only build the programs
#
# Outputs (all under data/syzygy/, which git ignores):
#   bin/rtbgen bin/rtbgenp bin/tbcheck   the generator (built in build/tb, a copy of src/)
#   bin/syzygy-oracle                    tools/syzygy-oracle.c linked with Fathom's prober
#   3-4/K*.rtbw K*.rtbz                  the 35 tables of 3 and 4 pieces (5 + 30)
#   5/K*.rtbw K*.rtbz                    the tables asked for with --five
#   6/K*.rtbw K*.rtbz                    the tables asked for with --six
#
# Idempotent: a table whose two files exist, whose embedded checksums match their contents
# (tbcheck) and whose embedded checksums equal the shipped ones (checksums/wdl345.txt and
# dtz345.txt, wdl6.txt and dtz6.txt for 6 pieces, lines "KQvK.rtbw: <32 hex digits>") is
# skipped; anything else is regenerated.
# The programs are rebuilt only when missing. Exit status is non-zero if a table fails.
#
# The sources come from the offline mirrors, e.g.
#   mkdir -p data/syzygy/src/tb && git -C /work/.mirror/syzygy1+tb/repo archive HEAD | tar -x -C data/syzygy/src/tb
#   mkdir -p data/syzygy/src/fathom && git -C /work/.mirror/jdart1+Fathom/repo archive HEAD | tar -x -C data/syzygy/src/fathom
# The generator needs libzstd-dev (apt-get install -y libzstd-dev); without it the script
# builds with the generator's bundled LZ4 instead (only its temporary files differ).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=$ROOT/data/syzygy/src/tb
FATHOM=$ROOT/data/syzygy/src/fathom
FIVE=""
SIX=""
THREADS=1
TABLES=1
while [ $# -gt 0 ]; do
  case $1 in
    --src) SRC=$(cd "$2" && pwd); shift 2 ;;
    --fathom) FATHOM=$2; shift 2 ;;
    --five) FIVE=$2; shift 2 ;;
    --six) SIX=$2; shift 2 ;;
    --pieces)
      case $2 in
        4) ;;
        5) FIVE=ALL ;;
        *) echo "--pieces takes 4 or 5, not $2" >&2; exit 2 ;;
      esac
      shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --no-tables) TABLES=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

OUT=$ROOT/data/syzygy
BIN=$OUT/bin
BUILD=$OUT/build
mkdir -p "$BIN" "$BUILD"
[ -f "$SRC/src/Makefile" ] || { echo "no generator source in $SRC (see the comment at the top)" >&2; exit 1; }
WDLSUMS=$SRC/checksums/wdl345.txt
DTZSUMS=$SRC/checksums/dtz345.txt
# --six is checked before anything runs, not after hours of smaller tables.
for t in $SIX; do
  grep -q "^$t\.rtbw:" "$SRC/checksums/wdl6.txt" || { echo "--six: $t is not a 6-piece table name of the set (checksums/wdl6.txt)" >&2; exit 2; }
  case $t in *P*) echo "--six: $t has pawns (only pawnless 6-piece tables)" >&2; exit 2 ;; esac
done

log() { echo "[$(date -u +%H:%M:%S)] $*"; }

# --- the generator ---------------------------------------------------------------------
# Built in a copy of src/ so the source stays pristine; the Makefile is adjusted there:
# BMI2 slider attacks only if the CPU has them (else magics), zstd only if its header is
# installed (else LZ4), and one LTO job.
build_generator() {
  if [ -x "$BIN/rtbgen" ] && [ -x "$BIN/rtbgenp" ] && [ -x "$BIN/tbcheck" ]; then return; fi
  log "building the generator from $SRC/src"
  rm -rf "$BUILD/tb" && cp -r "$SRC/src" "$BUILD/tb"
  local mk=$BUILD/tb/Makefile
  grep -qw bmi2 /proc/cpuinfo || sed -i 's/^FLAGS = -DBMI2/FLAGS = -DMAGIC/' "$mk"
  grep -qw popcnt /proc/cpuinfo || sed -i 's/^FLAGS += -DUSE_POPCNT/#&/' "$mk"
  if ! echo '#include <zstd.h>' | gcc -E - >/dev/null 2>&1; then
    log "zstd.h not found: building with LZ4"
    sed -i 's/^FLAGS += -DUSE_ZSTD/#&/; s/^LDFLAGS += -lzstd/#&/' "$mk"
  fi
  sed -i 's/-flto=auto/-flto=1/' "$mk"
  make -C "$BUILD/tb" -j1 rtbgen rtbgenp tbcheck >"$BUILD/make.log" 2>&1 \
    || { tail -20 "$BUILD/make.log" >&2; exit 1; }
  cp "$BUILD/tb/rtbgen" "$BUILD/tb/rtbgenp" "$BUILD/tb/tbcheck" "$BIN/"
}

# --- the oracle --------------------------------------------------------------------------
build_oracle() {
  local exe=$BIN/syzygy-oracle c=$ROOT/tools/syzygy-oracle.c
  [ -f "$c" ] || return 0
  if [ ! -f "$FATHOM/src/tbprobe.c" ]; then log "no Fathom source in $FATHOM: oracle skipped"; return; fi
  if [ -x "$exe" ] && [ "$exe" -nt "$c" ]; then return; fi
  log "building $exe"
  gcc -O2 -std=gnu11 -Wall -I"$FATHOM/src" -o "$exe" "$c" "$FATHOM/src/tbprobe.c" -lpthread
}

# --- the list of tables ------------------------------------------------------------------
# Every material of 3 and 4 pieces in the generator's order (run.pl): 3 pieces, then two
# pieces against a bare king, then one against one, each in the order Q R B N P, so that
# every table comes after the tables its captures and promotions lead to.
PIECES=(Q R B N P)
tables34() {
  local i j
  for ((i = 0; i < 5; i++)); do echo "K${PIECES[i]}vK"; done
  for ((i = 0; i < 5; i++)); do for ((j = i; j < 5; j++)); do echo "K${PIECES[i]}${PIECES[j]}vK"; done; done
  for ((i = 0; i < 5; i++)); do for ((j = i; j < 5; j++)); do echo "K${PIECES[i]}vK${PIECES[j]}"; done; done
}

# The file name of a material given as two sides without kings ("RP" "R" -> KRPvKR): each
# side sorted Q R B N P, the side named first the one the shipped checksums name first.
canonical() {
  local a b
  a=$(echo "$1" | grep -o . | awk '{print index("QRBNP",$0)" "$0}' | sort -n | awk '{printf "%s",$2}')
  b=$(echo "$2" | grep -o . | awk '{print index("QRBNP",$0)" "$0}' | sort -n | awk '{printf "%s",$2}')
  if grep -q "^K${a}vK${b}\.rtbw:" "$WDLSUMS"; then echo "K${a}vK${b}"; else echo "K${b}vK${a}"; fi
}

# The tables one capture or one promotion away from $1 (KRPvKR -> KRvKR KPvKR KRPvK KQRvKR ...).
successors() {
  local w=${1%%v*} b=${1#*v} side me other i p q
  w=${w#K}; b=${b#K}
  for side in 0 1; do
    if [ $side = 0 ]; then me=$w; other=$b; else me=$b; other=$w; fi
    for ((i = 0; i < ${#me}; i++)); do
      p=${me:i:1}
      [ $((${#me} + ${#other})) -gt 1 ] && canonical "${me:0:i}${me:i+1}" "$other"
      if [ "$p" = P ]; then
        for q in Q R B N; do canonical "${me:0:i}${q}${me:i+1}" "$other"; done
      fi
    done
  done | sort -u
}

# Every material of 5 pieces (110): three pieces against a bare king, two against one.
all5() {
  local i j k
  for ((i = 0; i < 5; i++)); do for ((j = i; j < 5; j++)); do for ((k = j; k < 5; k++)); do
    echo "K${PIECES[i]}${PIECES[j]}${PIECES[k]}vK"
  done; done; done
  for ((i = 0; i < 5; i++)); do for ((j = i; j < 5; j++)); do for ((k = 0; k < 5; k++)); do
    canonical "${PIECES[i]}${PIECES[j]}" "${PIECES[k]}"
  done; done; done
}

# The 5-piece tables needed for the requested ones, in an order where each comes after the
# tables it needs: by number of pawns (a promotion removes one), captures leave 4 pieces.
tables5() {
  local todo=("$@") seen=" " t s
  while [ ${#todo[@]} -gt 0 ]; do
    t=${todo[0]}; todo=("${todo[@]:1}")
    t=$(canonical "$(echo "${t%%v*}" | cut -c2-)" "$(echo "${t#*v}" | cut -c2-)")
    case "$seen" in *" $t "*) continue ;; esac
    seen="$seen$t "
    for s in $(successors "$t"); do
      [ $(($(echo -n "$s" | wc -c) - 1)) -ge 5 ] && todo+=("$s")
    done
  done
  for t in $seen; do echo "$(echo -n "$t" | tr -cd P | wc -c) $t"; done | sort -n -k1,1 -k2,2 | awk '{print $2}'
}

# --- generating and checking ---------------------------------------------------------------
# verify DIR TABLE: both files present, contents match their embedded checksums, and these
# equal the shipped ones.
verify() {
  local dir=$1 t=$2 sum wdl=$WDLSUMS dtz=$DTZSUMS
  [ $((${#t} - 1)) = 6 ] && { wdl=$SRC/checksums/wdl6.txt; dtz=$SRC/checksums/dtz6.txt; }
  [ -f "$dir/$t.rtbw" ] && [ -f "$dir/$t.rtbz" ] || return 1
  (cd "$dir" && "$BIN/tbcheck" "$t.rtbw" "$t.rtbz" 2>&1) | grep -q FAIL && return 1
  sum=$(cd "$dir" && "$BIN/tbcheck" --print "$t.rtbw" "$t.rtbz" 2>/dev/null) || return 1
  [ "$(echo "$sum" | sed -n 1p)" = "$(grep "^$t\.rtbw:" "$wdl")" ] || return 1
  [ "$(echo "$sum" | sed -n 2p)" = "$(grep "^$t\.rtbz:" "$dtz")" ] || return 1
}

FAILED=0
# generate DIR TABLE...: tables are written in DIR; RTBPATH lets the generator find the
# smaller tables (all output directories).
generate() {
  local dir=$1 t start; shift
  mkdir -p "$dir"
  for t in "$@"; do
    if verify "$dir" "$t"; then continue; fi
    rm -f "$dir/$t.rtbw" "$dir/$t.rtbz"
    start=$(date +%s.%N)
    case $t in
      *P*) gen=rtbgenp ;;
      *) gen=rtbgen ;;
    esac
    (cd "$dir" && RTBPATH="$OUT/3-4:$OUT/5:$OUT/6" "$BIN/$gen" -t "$THREADS" "$t" >"$BUILD/$t.log" 2>&1) \
      || { log "$t: $gen failed (see $BUILD/$t.log)"; FAILED=1; continue; }
    if verify "$dir" "$t"; then
      log "$t: generated and verified in $(echo "$(date +%s.%N) - $start" | bc | xargs printf '%.1f') s"
    else
      log "$t: generated but FAILS the checksum check"; FAILED=1
    fi
  done
}

build_generator
build_oracle
[ $TABLES = 1 ] || exit 0

list=$(tables34)
[ "$(echo "$list" | wc -l)" = 35 ] || { echo "expected 35 tables of 3-4 pieces" >&2; exit 1; }
start=$(date +%s)
generate "$OUT/3-4" $list
log "3-4 pieces: $(echo "$list" | wc -l) tables, $(($(date +%s) - start)) s;" \
  "WDL $(cat "$OUT"/3-4/*.rtbw | wc -c) bytes, DTZ $(cat "$OUT"/3-4/*.rtbz | wc -c) bytes"

if [ -n "$FIVE" ]; then
  [ "$FIVE" = ALL ] && FIVE=$(all5 | sort -u)
  list=$(tables5 $FIVE)
  log "5 pieces, in this order: $(echo $list)"
  start=$(date +%s)
  generate "$OUT/5" $list
  log "5 pieces: $(($(date +%s) - start)) s;" \
    "WDL $(cat "$OUT"/5/*.rtbw | wc -c) bytes, DTZ $(cat "$OUT"/5/*.rtbz | wc -c) bytes"
fi

if [ -n "$SIX" ]; then
  # Pawnless, so every table one step away is a capture's, of 5 pieces.
  list=$(tables5 $(for t in $SIX; do successors "$t"; done | sort -u))
  log "5 pieces the 6-piece tables need: $(echo $list)"
  generate "$OUT/5" $list
  start=$(date +%s)
  generate "$OUT/6" $SIX
  log "6 pieces: $(($(date +%s) - start)) s;" \
    "WDL $(cat "$OUT"/6/*.rtbw | wc -c) bytes, DTZ $(cat "$OUT"/6/*.rtbz | wc -c) bytes"
fi
exit $FAILED
