// Package corpus owns the corpus tables: results computed over every game
// of the shared GGP corpus (../shared/games, one folder per game whose
// METADATA names its rulesheet) and committed to datasets/results, which
// the notebooks read.
//
//   - latches-corpus.json (notebook 04): LatchRow, a LatchEntry a game.
//   - local-enablement.json (notebook 06): EnablementRow, an EnablementEntry.
//   - emulation-corpus.json (notebook 05): EmulationRow, an
//     emulate.DetectionRow.
//   - factors-corpus.json: FactorRow, a FactorEntry (independent subgames,
//     how goals and terminal combine them, verified or why not).
//
// Each row is computed within Timeout (20 s) on the game's network with
// the default bounds; a game over it, or over the bounds, gets an Error.
// ReadLatches, ReadEnablement, ReadEmulation and ReadFactors read the committed tables
// from the repository that ledger.Root finds, for notebooks and commands.
//
// The package's tests keep the committed tables honest. Whenever the
// shared corpus is present (GDLAB_SHARED, or ../shared beside the
// repository) each test recomputes its table and fails on any difference,
// naming the game, the field and both values; a quick run (GDLAB_QUICK=1)
// (or go test -short) checks a fixed sample, every 7th game by name (every
// 9th for the emulation table), in under a minute. Timings (the emulation table's playout
// speeds and seconds) are not compared, nor are the rows of games that
// took over 20 s, committed or now: finishing in time is a matter of the
// machine, not of the code. With -update a test recomputes every row and
// rewrites its table (a temporary file renamed into place). Every run,
// checking or rewriting, appends one record to the results ledger in
// datasets/ledger (experiments corpus-latches, corpus-enablement,
// corpus-emulation and corpus-factors), one Result per game computed:
//
//	go test ./engine/experiment/corpus -run TestCorpusTable -update            # latches-corpus.json, minutes
//	go test ./engine/experiment/corpus -run TestEnablementCorpusTable -update  # local-enablement.json, 10-20 minutes
//	go test ./engine/experiment/corpus -run TestEmulationCorpusTable -update   # emulation-corpus.json, about 10 minutes
//	go test ./engine/experiment/corpus -run TestFactorsCorpusTable -update     # factors-corpus.json
package corpus
