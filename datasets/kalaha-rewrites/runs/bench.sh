#!/bin/bash
# medians of 3 alternating runs, propnet then prover, 3 s each
cd /work/wt-kalaha
for f in /work/shared/games/kalaha_2009/kalaha_2009.kif /work/shared/games/kalaha5x2x3/kalah.kif /work/shared/games/kalaha6x2x4/kalah.kif datasets/games/kalaha/kalaha.kif datasets/kalaha-rewrites/r1.kif datasets/kalaha-rewrites/r1-2.kif datasets/kalaha-rewrites/r1-3.kif datasets/kalaha-rewrites/r1-4.kif; do
 for rep in 1 2 3; do for m in propnet prover; do
  echo "### $f $m rep $rep $(date +%T)"
  bin/gdlab bench $f --machine $m --seconds 3
 done; done
done
