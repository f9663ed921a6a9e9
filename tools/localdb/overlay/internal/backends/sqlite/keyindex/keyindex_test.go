// Emporium's localdb: the key encoding orders values as FerretDB's own comparison does, and
// a plan's key ranges hold every document FerretDB's filter matches (and give its sort when
// the plan says so), for random documents, indexes, filters and sorts.

package keyindex_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/keyindex"
	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

var ids = func() []types.ObjectID {
	res := make([]types.ObjectID, 4)
	for i := range res {
		res[i] = types.NewObjectID()
	}

	return res
}()

func scalar(r *rand.Rand) any {
	switch r.Intn(11) {
	case 0:
		return int32(r.Intn(7) - 3)
	case 1:
		return int64(r.Intn(7) - 3)
	case 2:
		return float64(r.Intn(14)-7) / 2
	case 3:
		return []string{"", "a", "ab", "b", "a\x00", "B", "é"}[r.Intn(7)]
	case 4:
		return ids[r.Intn(len(ids))]
	case 5:
		return r.Intn(2) == 0
	case 6:
		return time.UnixMilli(int64(r.Intn(5)-2) * 1000)
	case 7:
		return types.Null
	case 8:
		return types.Binary{B: []byte{byte(r.Intn(3))}, Subtype: types.BinarySubtype(r.Intn(2))}
	case 9:
		return types.Timestamp(r.Intn(3))
	default:
		return int64(1<<53 + r.Intn(3)) // longs that share a float64
	}
}

// arrays makes value give arrays too (a trial without them exercises sorted plans).
var arrays = true

func value(r *rand.Rand, depth int) any {
	switch n := r.Intn(10); {
	case n < 6 || depth > 1:
		return scalar(r)
	case n < 8 && arrays:
		arr := types.MakeArray(0)
		for i := r.Intn(4); i > 0; i-- {
			arr.Append(value(r, depth+1))
		}

		return arr
	default:
		d := types.MakeDocument(0)
		for _, k := range []string{"x", "y"} {
			if r.Intn(3) > 0 {
				d.Set(k, value(r, depth+1))
			}
		}

		return d
	}
}

var fields = []string{"a", "b", "c"}

func document(r *rand.Rand, i int) *types.Document {
	d := must.NotFail(types.NewDocument("_id", int32(i)))
	for _, f := range fields {
		if r.Intn(5) > 0 {
			d.Set(f, value(r, 0))
		}
	}

	return d
}

var paths = []string{"a", "b", "c", "a.x", "a.y", "b.x"}

func condition(r *rand.Rand, depth int) *types.Document {
	if depth < 2 && r.Intn(6) == 0 {
		op := []string{"$and", "$or"}[r.Intn(2)]
		arr := types.MakeArray(0)

		for i := 1 + r.Intn(3); i > 0; i-- {
			arr.Append(condition(r, depth+1))
		}

		return must.NotFail(types.NewDocument(op, arr))
	}

	p := paths[r.Intn(len(paths))]

	var v any

	switch r.Intn(9) {
	case 0, 1:
		v = scalar(r)
	case 2:
		v = must.NotFail(types.NewDocument("$eq", scalar(r)))
	case 3:
		arr := types.MakeArray(0)
		for i := r.Intn(4); i > 0; i-- {
			arr.Append(scalar(r))
		}

		v = must.NotFail(types.NewDocument("$in", arr))
	case 4:
		v = must.NotFail(types.NewDocument([]string{"$gt", "$gte", "$lt", "$lte"}[r.Intn(4)], scalar(r)))
	case 5:
		if r.Intn(2) == 0 {
			v = must.NotFail(types.NewDocument("$gte", scalar(r), "$lt", scalar(r)))
		} else {
			v = must.NotFail(types.NewDocument("$gt", int32(r.Intn(5)-2), "$lt", int32(r.Intn(5)-2)))
		}
	case 6:
		v = must.NotFail(types.NewDocument("$ne", scalar(r)))
	case 7:
		v = value(r, 1) // maybe an embedded document or an array
	default:
		v = must.NotFail(types.NewDocument("$exists", r.Intn(2) == 0))
	}

	return must.NotFail(types.NewDocument(p, v))
}

func filter(r *rand.Rand) *types.Document {
	f := types.MakeDocument(0)

	for i := r.Intn(3); i >= 0; i-- {
		c := condition(r, 0)
		k := c.Keys()[0]

		if !f.Has(k) {
			f.Set(k, must.NotFail(c.Get(k)))
		}
	}

	return f
}

func index(r *rand.Rand) *keyindex.Index {
	ix := &keyindex.Index{Name: "ix"}
	for _, p := range r.Perm(len(paths))[:1+r.Intn(3)] {
		ix.Fields = append(ix.Fields, keyindex.Field{Path: paths[p], Desc: r.Intn(4) == 0})
	}

	return ix
}

func sortOf(r *rand.Rand, ix *keyindex.Index) ([]keyindex.SortField, *types.Document) {
	var fs []keyindex.SortField

	switch r.Intn(3) {
	case 0: // none
	case 1: // the index's fields, maybe reversed, maybe a prefix
		rev := r.Intn(2) == 0
		for _, f := range ix.Fields[:1+r.Intn(len(ix.Fields))] {
			fs = append(fs, keyindex.SortField{Path: f.Path, Desc: f.Desc != rev})
		}
	default:
		for _, p := range r.Perm(len(paths))[:1+r.Intn(2)] {
			fs = append(fs, keyindex.SortField{Path: paths[p], Desc: r.Intn(2) == 0})
		}
	}

	doc := types.MakeDocument(0)

	for _, f := range fs {
		if doc.Has(f.Path) {
			return nil, nil
		}

		dir := int64(1)
		if f.Desc {
			dir = -1
		}

		doc.Set(f.Path, dir)
	}

	return fs, doc
}

func inRanges(k []byte, ranges []keyindex.Range) bool {
	for _, rg := range ranges {
		if bytes.Compare(k, rg.Lo) >= 0 && bytes.Compare(k, rg.Hi) < 0 {
			return true
		}
	}

	return false
}

// before reports whether FerretDB's sort puts b strictly before a.
func before(t *testing.T, b, a *types.Document, sortDoc *types.Document) bool {
	pair := []*types.Document{a, b}
	require.NoError(t, common.SortDocuments(pair, sortDoc))

	return pair[0] == b
}

func TestPlansHoldEveryMatchAndGiveTheSort(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	planned, sortedChecks := 0, 0

	for trial := 0; trial < 10000; trial++ {
		ix := index(r)
		arrays = trial%2 == 0

		var docs []*types.Document
		keys := map[*types.Document][][]byte{}

		for i := 0; i < 25; i++ {
			doc := document(r, i)

			k, multikey, err := ix.Entries(doc)
			if err != nil {
				continue // parallel arrays: MongoDB refuses such a document
			}

			ix.Multikey = ix.Multikey || multikey
			docs = append(docs, doc)
			keys[doc] = k
		}

		f := filter(r)
		fs, sortDoc := sortOf(r, ix)

		plan := keyindex.Choose([]*keyindex.Index{ix}, f, fs)
		if plan == nil {
			continue
		}

		planned++

		for _, doc := range docs {
			match, err := common.FilterDocument(doc, f)
			if err != nil {
				match = false
			}

			if !match {
				continue
			}

			ok := slices.ContainsFunc(keys[doc], func(k []byte) bool { return inRanges(k, plan.Ranges) })
			require.True(t, ok, "trial %d: %v matches %v but no key of it is in the ranges of index %+v", trial, doc, f, ix.Fields)
		}

		if !plan.Sorted || len(fs) == 0 {
			continue
		}

		// Read as the iterator does: ranges in order (reversed: last first, each backwards),
		// keys in order within a range, a document at its first key.
		type entry struct {
			k   []byte
			doc *types.Document
		}

		var entries []entry

		for _, doc := range docs {
			for _, k := range keys[doc] {
				if inRanges(k, plan.Ranges) {
					entries = append(entries, entry{k, doc})
				}
			}
		}

		sort.SliceStable(entries, func(i, j int) bool {
			c := bytes.Compare(entries[i].k, entries[j].k)
			if plan.Reverse {
				return c > 0
			}

			return c < 0
		})

		seen := map[*types.Document]bool{}
		var out []*types.Document

		for _, e := range entries {
			if seen[e.doc] {
				continue
			}

			seen[e.doc] = true

			if match, err := common.FilterDocument(e.doc, f); err == nil && match {
				out = append(out, e.doc)
			}
		}

		for i := 1; i < len(out); i++ {
			require.False(t, before(t, out[i], out[i-1], sortDoc),
				"trial %d: sort %v by index %+v (reverse %v): %v came before %v", trial, sortDoc, ix.Fields, plan.Reverse, out[i-1], out[i])
		}

		sortedChecks++
	}

	t.Logf("%d plans checked, %d of them sorted", planned, sortedChecks)
	require.Greater(t, planned, 3000)
	require.Greater(t, sortedChecks, 500)
}

func TestEncodingOrdersValuesAsFerretDBSorts(t *testing.T) {
	r := rand.New(rand.NewSource(3))

	for i := 0; i < 20000; i++ {
		a, b := value(r, 1), value(r, 1)
		if _, ok := a.(*types.Array); ok {
			continue // a top-level array sorts by an element, not as a value
		}

		if _, ok := b.(*types.Array); ok {
			continue
		}

		da := must.NotFail(types.NewDocument("v", a))
		db := must.NotFail(types.NewDocument("v", b))
		sortDoc := must.NotFail(types.NewDocument("v", int64(1)))

		ka, kb := keyindex.Append(nil, a), keyindex.Append(nil, b)
		c := bytes.Compare(ka, kb)

		switch {
		case c < 0:
			require.False(t, before(t, db, da, sortDoc), "%v encodes before %v", types.FormatAnyValue(a), types.FormatAnyValue(b))
		case c > 0:
			require.False(t, before(t, da, db, sortDoc), "%v encodes after %v", types.FormatAnyValue(a), types.FormatAnyValue(b))
		default:
			require.False(t, before(t, db, da, sortDoc) || before(t, da, db, sortDoc), "%v and %v encode the same", types.FormatAnyValue(a), types.FormatAnyValue(b))
		}
	}
}

func TestMultikeyConditionsAreNotIntersected(t *testing.T) {
	// {a: [1, 10]} matches {a: {$gt: 5, $lt: 3}}: one element is above 5, another below 3.
	doc := must.NotFail(types.NewDocument("_id", int32(1), "a", must.NotFail(types.NewArray(int32(1), int32(10)))))
	f := must.NotFail(types.NewDocument("a", must.NotFail(types.NewDocument("$gt", int32(5), "$lt", int32(3)))))

	match, err := common.FilterDocument(doc, f)
	require.NoError(t, err)
	require.True(t, match)

	ix := &keyindex.Index{Name: "a", Fields: []keyindex.Field{{Path: "a"}}}
	keys, multikey, err := ix.Entries(doc)
	require.NoError(t, err)
	require.True(t, multikey)

	ix.Multikey = true
	plan := keyindex.Choose([]*keyindex.Index{ix}, f, nil)
	require.NotNil(t, plan)
	require.True(t, slices.ContainsFunc(keys, func(k []byte) bool { return inRanges(k, plan.Ranges) }))
}

func ExampleAppend() {
	for _, v := range []any{types.Null, int32(-1), 0.5, int64(2), "a", types.ObjectID{}, false, time.UnixMilli(0)} {
		fmt.Printf("% x\n", keyindex.Append(nil, v)[:1])
	}
	// Output:
	// 05
	// 0a
	// 0a
	// 0a
	// 0f
	// 23
	// 28
	// 2d
}
