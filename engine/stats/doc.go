// Package stats owns the statistics that gdlab's engine, experiments and
// notebooks share, so that each number of a kind is computed one way
// everywhere:
//
//   - Wilson and WilsonZ: the Wilson score interval of a proportion (win
//     rates, an experiment's score);
//   - MeanInterval: the Student's t interval of a mean (a player's mean
//     score in a match table);
//   - Bootstrap and Percentile: resampling with replacement from a seeded
//     generator, and the percentile of the sorted resampled statistics;
//   - EloExpected and EloFit: the Elo (Bradley–Terry) expected score of a
//     rating difference, and the maximum-likelihood ratings, with standard
//     errors, of players from their pairwise results;
//   - SPRT: Wald's sequential probability ratio test of a score.
//
// Every exported function is non-generic, so that the kernel's
// interpreted cells can call it.
package stats
