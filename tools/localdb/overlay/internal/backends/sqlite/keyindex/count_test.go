// Emporium's localdb: which counts the keys alone answer (keyindex.CountPlan), and that their
// ranges then hold exactly the keys of the documents FerretDB's filter matches.

package keyindex_test

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/keyindex"
	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

func doc(pairs ...any) *types.Document { return must.NotFail(types.NewDocument(pairs...)) }

func arr(values ...any) *types.Array { return must.NotFail(types.NewArray(values...)) }

// Agenda's index on its jobs.
var jobsIndex = &keyindex.Index{Name: "findAndLockNextJobIndex", Fields: []keyindex.Field{
	{Path: "name"}, {Path: "lockedAt"}, {Path: "nextRunAt"}, {Path: "failedAt"},
}}

func TestCountPlanExactness(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_000)

	for _, tc := range []struct {
		name   string
		filter *types.Document
		exact  bool
	}{
		{"due", doc("name", "job.0", "lockedAt", types.Null, "nextRunAt", doc("$lte", now)), true},
		{"scheduled", doc("name", "job.0", "lockedAt", types.Null, "nextRunAt", doc("$gt", now)), true},
		{"running", doc("name", "job.0", "lockedAt", doc("$ne", types.Null)), true},
		{"failed", doc("name", "job.0", "lockedAt", types.Null, "nextRunAt", types.Null, "failedAt", doc("$ne", types.Null)), true},
		{"a name", doc("name", "job.0"), true},
		{"names by $in", doc("name", doc("$in", arr("job.0", "job.1")), "lockedAt", doc("$eq", types.Null)), true},
		{"under $and", doc("$and", arr(doc("name", "job.0"), doc("lockedAt", types.Null))), true},
		{"two bounds on one field", doc("name", "job.0", "lockedAt", types.Null, "nextRunAt", doc("$gt", now, "$lte", now.Add(time.Hour))), true},
		{"$ne alone on the first field", doc("name", doc("$ne", "job.0")), true},
		{"numbers of several types", doc("name", doc("$in", arr(int32(1), int64(2), 3.5))), true},
		{"contradiction", doc("name", "a", "$and", arr(doc("name", "b"))), true},

		{"no filter", doc(), false},
		{"a field outside the index", doc("name", "job.0", "disabled", doc("$ne", true)), false},
		{"a field after a gap", doc("name", "job.0", "nextRunAt", doc("$lte", now)), false},
		{"a field after a range", doc("name", "job.0", "lockedAt", doc("$gt", now), "nextRunAt", doc("$lte", now)), false},
		{"not the first field", doc("lockedAt", types.Null), false},
		{"$or", doc("name", "job.0", "$or", arr(doc("lockedAt", types.Null), doc("lockedAt", now))), false},
		{"$exists", doc("name", "job.0", "failedAt", doc("$exists", true)), false},
		{"$nin", doc("name", doc("$nin", arr("job.0"))), false},
		{"$gte null", doc("name", "job.0", "lockedAt", doc("$gte", types.Null)), false},
		{"a regular expression", doc("name", types.Regex{Pattern: "^job"}), false},
		{"an embedded document", doc("name", doc("a", int32(1))), false},
		{"an array", doc("name", arr("job.0")), false},
		{"$in with an array", doc("name", doc("$in", arr(arr("job.0")))), false},
		{"an empty $in", doc("name", doc("$in", arr())), false},
		{"a binary value", doc("name", types.Binary{B: []byte{1}}), false},
		{"NaN", doc("name", doc("$lt", nanValue())), false},
		{"$comment", doc("name", "job.0", "$comment", "x"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := keyindex.CountPlan([]*keyindex.Index{jobsIndex}, tc.filter)
			require.Equal(t, tc.exact, plan != nil)
		})
	}

	multikey := *jobsIndex
	multikey.Multikey = true
	require.Nil(t, keyindex.CountPlan([]*keyindex.Index{&multikey}, doc("name", "job.0")), "a multikey index has several keys a document")

	dotted := &keyindex.Index{Name: "a.b", Fields: []keyindex.Field{{Path: "a.b"}}}
	require.Nil(t, keyindex.CountPlan([]*keyindex.Index{dotted}, doc("a.b", int32(1))), "only plain field names")
}

func nanValue() float64 {
	zero := 0.0
	return zero / zero
}

func TestNullNarrowsLikeAPoint(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_000)
	f := doc("name", "job.0", "lockedAt", types.Null, "nextRunAt", doc("$lte", now))

	plan := keyindex.Choose([]*keyindex.Index{jobsIndex}, f, nil)
	require.NotNil(t, plan)
	require.Len(t, plan.Ranges, 1)

	prefix := keyindex.Append(keyindex.Append(nil, "job.0"), types.Null)
	require.True(t, bytes.HasPrefix(plan.Ranges[0].Lo, prefix), "the range is within name and lockedAt: null")
	require.Greater(t, len(plan.Ranges[0].Lo), len(prefix), "and bounded by nextRunAt")

	// The sort by the next field is still served (one value of lockedAt).
	plan = keyindex.Choose([]*keyindex.Index{jobsIndex}, f, []keyindex.SortField{{Path: "nextRunAt"}})
	require.True(t, plan.Sorted)

	// On a multikey index null is also the undefined key of an empty array: two points.
	multikey := *jobsIndex
	multikey.Multikey = true
	plan = keyindex.Choose([]*keyindex.Index{&multikey}, f, nil)
	require.Len(t, plan.Ranges, 2)
}

func TestCountPlansCountExactly(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	arrays = false

	defer func() { arrays = true }()

	counted := 0

	for trial := 0; trial < 20000; trial++ {
		ix := index(r)

		var docs []*types.Document
		var keys [][]byte

		for i := 0; i < 25; i++ {
			d := document(r, i)

			k, multikey, err := ix.Entries(d)
			require.NoError(t, err)
			require.False(t, multikey)
			require.Len(t, k, 1)

			docs = append(docs, d)
			keys = append(keys, k[0])
		}

		f := filter(r)
		for _, k := range f.Keys() {
			if strings.Contains(k, ".") {
				f.Remove(k) // dotted paths are never counted from keys
			}
		}

		plan := keyindex.CountPlan([]*keyindex.Index{ix}, f)
		if plan == nil {
			continue
		}

		counted++

		for i, d := range docs {
			match, err := common.FilterDocument(d, f)
			require.NoError(t, err)
			require.Equal(t, match, inRanges(keys[i], plan.Ranges),
				"trial %d: %v with filter %v on index %+v: match %v", trial, d, f, ix.Fields, match)
		}

		for i := 1; i < len(plan.Ranges); i++ {
			require.LessOrEqual(t, bytes.Compare(plan.Ranges[i-1].Hi, plan.Ranges[i].Lo), 0, "ranges overlap: a key would count twice")
		}
	}

	t.Logf("%d counts checked", counted)
	require.Greater(t, counted, 600)
}
