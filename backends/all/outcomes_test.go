package all_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/backend"
	"github.com/lockbench/lockbench/backend/linked"
	"github.com/lockbench/lockbench/clocks"
)

// specOutcomesSHA256 is the digest of writeSpecOutcomes as main (75425ea) wrote it,
// before the defaults and checks moved from topologies into the descriptors, with the
// cluster kind registered since (backends/rediscluster): its own 41,472 lines are new,
// and the unknown kind's lines differ from main's only by "cluster" in the list of
// kinds (diffed with -specs-out on c500e36 and on the cluster branch).
const specOutcomesSHA256 = "46a61e4e70f63e1c863be94cf685962cd3c33826f2dd7532a3e805504a793d95"

// sampledOutcomesSHA256 is the digest of every sampleEvery-th line of the same
// enumeration, taken from the code that wrote specOutcomesSHA256: the default run's pin.
const sampledOutcomesSHA256 = "b234dc4628af4390c1ea8518480479827e5bce08b07784ab982769bb01663da6"

// sampleEvery thins the 373,248 specs to a seventh by default: the whole enumeration
// took 70 s under the race detector, the sample covers every field's values still.
const sampleEvery = 7

var long = flag.Bool("long", false, "enumerate every spec, not every 7th")

var specsOut = flag.String("specs-out", "", "also write the enumerated spec outcomes to this file (to diff two commits)")

// TestSpecOutcomesAsBefore: every enumerated spec keeps the defaults, validation error,
// node names and clock summary it had before.
func TestSpecOutcomesAsBefore(t *testing.T) {
	h := sha256.New()
	var w io.Writer = h
	if *specsOut != "" {
		f, err := os.Create(*specsOut)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		bw := bufio.NewWriter(f)
		defer bw.Flush()
		w = io.MultiWriter(h, bw)
	}
	every, want := sampleEvery, sampledOutcomesSHA256
	if *long || *specsOut != "" {
		every, want = 1, specOutcomesSHA256
	}
	n := writeSpecOutcomes(w, every)
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		t.Errorf("the outcomes of %d enumerated specs changed (sha256 %s): see which with -specs-out=FILE here and on main, then diff", n, got)
	}
}

// writeSpecOutcomes writes one line per spec of every kind (and two unknown ones)
// crossed with the values at and around each field's bounds, or every every-th of them;
// it returns the count enumerated.
func writeSpecOutcomes(w io.Writer, every int) int {
	kinds := []backend.Kind{"single", "replicated", "sentinel", "redlock", "etcd", "postgres", "zookeeper", "cluster", ""}
	clockSets := []map[string]clocks.Model{nil, {"master-0": {Rate: 1.02}}, {"replica-1": {Rate: 1.02}}, {"sentinel-2": {Rate: 1.02}}, {"master-0": {Rate: -1}}, {"master-4": {Rate: 1.5}}}
	n := 0
	for _, k := range kinds {
		for _, rep := range []int{-1, 0, 1, 3} {
			for _, m := range []int{-1, 0, 1, 3, 4, 5} {
				for _, mem := range []int{0, 1, 2, 3} {
					for _, sen := range []int{0, 1, 2} {
						for _, q := range []int{0, 3} {
							for _, af := range []string{"", "always", "sometimes"} {
								for _, unsafe := range []bool{false, true} {
									for ci, cl := range clockSets {
										for _, da := range []time.Duration{0, -1} {
											if n%every != 0 {
												n++
												continue
											}
											s := backend.Spec{Kind: k, Replicas: rep, Masters: m, Members: mem, Sentinels: sen, SentinelQuorum: q, AppendFsync: af, UnsafeNoFsync: unsafe, Clocks: cl, DownAfter: da}
											d := s.WithDefaults(linked.Catalog())
											line := fmt.Sprintf("%d c%d %v %v %v %v %v %v %v %v %v => %+v | %v | %v | %s\n", n, ci, s.Kind, s.Replicas, s.Masters, s.Members, s.Sentinels, s.SentinelQuorum, s.AppendFsync, s.UnsafeNoFsync, s.DownAfter, d, withoutNewKinds(d.Validate(linked.Catalog())), d.NodeNames(linked.Catalog()), d.ClockSummary())
											// Server and ForgetfulDisk came after the pin and are zero in every spec here: their
											// fields are cut so the pin holds.
											line = strings.Replace(line, " ForgetfulDisk:false", "", 1)
											fmt.Fprint(w, strings.Replace(line, " Server: ", " ", 1))
											n++
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return n
}
