// Package corpus owns the corpus tables: results computed over every game
// of the shared corpus (../shared/games) and written to datasets/results,
// which the notebooks read. Each table is a test that runs only with
// -update (they take minutes):
//
//	go test ./engine/experiment/corpus -run TestCorpusTable -update            # latches-corpus.json
//	go test ./engine/experiment/corpus -run TestEnablementCorpusTable -update  # local-enablement.json
//	go test ./engine/experiment/corpus -run TestEmulationCorpusTable -update   # emulation-corpus.json
package corpus
