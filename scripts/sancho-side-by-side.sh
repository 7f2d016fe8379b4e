#!/usr/bin/env bash
# Random playouts per second of gdlab's propnet beside Sancho's, measured in
# one sitting: for each game, ROUNDS alternations of Sancho's reasoner
# (../shared/tools/sancho-bench/bench: its own optimisation step, greedy
# rollouts off, a 2 s warm-up) and `gdlab bench` (the propositional
# network, one thread), each measuring for SECONDS (twice that for reversi
# and speedChess, whose playouts are long). Prints a Markdown table: each
# round's rates and ratio, and the median ratio.
#
# Usage: scripts/sancho-side-by-side.sh [--rounds N] [--seconds S] [--machine NAME] [GAME...]
#   GAME is a folder of ../shared/games (or $GDLAB_SHARED/games); without
#   games, the seven of the speed targets. NAME is gdlab bench's --machine
#   (propnet by default; lanes for 64 playouts at once; native for the lanes
#   with their gates compiled to native code).
# Needs bin/gdlab (make build) and Java 11 or later (scripts/deps.sh).
# Gdlab reads the goals at the end of each playout; Sancho's loop does not.
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${GDLAB_SHARED:-../shared}"
rounds=2
seconds=5
machine=propnet
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --machine) machine="$2"; shift 2 ;;
    -*) echo "unknown flag $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
games=("$@")
[ ${#games[@]} -eq 0 ] && games=(ticTacToe connectFour breakthrough breakthroughSmall reversi speedChess hex)
bench="$shared/tools/sancho-bench/bench"
[ -x "$bench" ] || { echo "no Sancho bench at $bench" >&2; exit 1; }
[ -x bin/gdlab ] || { echo "no bin/gdlab: run make build" >&2; exit 1; }

echo "| game | Sancho playouts/s, per round | gdlab playouts/s, per round | gdlab / Sancho, per round | median ratio |"
echo "|---|---|---|---|---|"
for g in "${games[@]}"; do
  kif="$shared/games/$g/$g.kif"
  [ -f "$kif" ] || { echo "no rulesheet $kif" >&2; exit 1; }
  s=$seconds
  case "$g" in reversi|speedChess) s=$(awk "BEGIN{print 2*$seconds}") ;; esac
  sancho=() ours=() ratios=()
  for ((i = 0; i < rounds; i++)); do
    a=$("$bench" "$kif" "$s" | awk '{for (i = 1; i < NF; i++) if ($i == "playouts/s") print $(i+1)}')
    b=$(bin/gdlab bench "$kif" --seconds "$s" --machine "$machine" | awk '/^playouts/ {print $(NF-1)}')
    sancho+=("$(printf '%.0f' "$a")")
    ours+=("$b")
    ratios+=("$(awk "BEGIN{printf \"%.2f\", $b / $a}")")
  done
  median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : sprintf("%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2)}')
  join() { local IFS=/; echo "$*"; }
  echo "| $g | $(join "${sancho[@]}") | $(join "${ours[@]}") | $(join "${ratios[@]}") | $median |"
done
