package keyindex

import (
	"bytes"
	"slices"
	"strings"

	"github.com/FerretDB/FerretDB/internal/types"
)

// The planner turns a filter into key ranges of one index. The ranges only ever narrow what
// is read: the handler applies the whole filter to every document read, so the ranges must
// hold every document MongoDB would match (a superset), never exactly those. Each condition
// the planner does not understand is simply not used for narrowing.

// boundKind says how a bound's bytes relate to the values it bounds.
type boundKind uint8

const (
	unbounded boundKind = iota
	inclusive           // at a value, the value included
	exclusive           // at a value, the value excluded
	typeEdge            // at the start (low) or end (high) of all values of a type
)

// bound is one end of an interval of values, in the ascending encoding.
type bound struct {
	enc  []byte // a value's encoding; for typeEdge, the type byte (low) or type byte + 1 (high)
	kind boundKind
}

// interval is the values between lo and hi.
type interval struct {
	lo, hi bound
}

// low and high are the interval in ascending key space, for one component: [low, high).
func (iv interval) low() []byte {
	switch iv.lo.kind {
	case unbounded:
		return nil
	case exclusive:
		return append(slices.Clip(iv.lo.enc), top)
	}

	return iv.lo.enc
}

func (iv interval) high() []byte {
	switch iv.hi.kind {
	case unbounded:
		return []byte{top}
	case inclusive:
		return append(slices.Clip(iv.hi.enc), top)
	}

	return iv.hi.enc
}

// point reports whether the interval is one value (its encoding).
func (iv interval) point() ([]byte, bool) {
	if iv.lo.kind == inclusive && iv.hi.kind == inclusive && bytes.Equal(iv.lo.enc, iv.hi.enc) {
		return iv.lo.enc, true
	}

	return nil, false
}

// desc is the interval for a descending component: in inverted key space, [low, high).
// (Inverting bytes reverses the order of prefix-free encodings, so each asc bound maps to the
// other end; the kinds say whether the value itself is in or out.)
func (iv interval) desc() (lo, hi []byte) {
	inv := func(b []byte) []byte {
		c := slices.Clone(b)
		invert(c, 0)

		return c
	}

	switch iv.hi.kind {
	case unbounded:
		lo = nil
	case inclusive:
		lo = inv(iv.hi.enc)
	case exclusive:
		lo = append(inv(iv.hi.enc), top)
	case typeEdge: // values of types up to hi.enc-1
		lo = []byte{^(iv.hi.enc[0] - 1)}
	}

	switch iv.lo.kind {
	case unbounded:
		hi = []byte{top}
	case inclusive:
		hi = append(inv(iv.lo.enc), top)
	case exclusive:
		hi = inv(iv.lo.enc)
	case typeEdge: // values of types from lo.enc on
		hi = []byte{^iv.lo.enc[0] + 1}
	}

	return lo, hi
}

// set is a union of intervals, sorted and disjoint; nil means "no condition" (everything).
type set []interval

func pointSet(v any) set {
	if !Encodable(v) {
		return nil
	}

	if v == types.Null {
		// null matches missing and null fields (both the null key) and MongoDB's undefined: two
		// points, so that later index fields still narrow. (Only an empty array gives the
		// undefined key, and {f: null} does not match it: a superset, which planFor drops for an
		// index that is not multikey.)
		return set{undefinedPoint, nullPoint}
	}

	enc := Append(nil, v)

	return set{{lo: bound{enc, inclusive}, hi: bound{enc, inclusive}}}
}

var (
	undefinedPoint = interval{lo: bound{[]byte{typeUndefined}, inclusive}, hi: bound{[]byte{typeUndefined}, inclusive}}
	nullPoint      = interval{lo: bound{[]byte{typeNull}, inclusive}, hi: bound{[]byte{typeNull}, inclusive}}
)

// neSet is every value but v (`$ne`), for a path that is a plain field name: a document MongoDB
// matches has no element equal to v (and an empty array's undefined key is not v), so some key
// of it is in the set. Nil when v is not one encodable value (arrays, regular expressions).
func neSet(path string, v any) set {
	switch v.(type) {
	case *types.Array, types.Regex:
		return nil
	}

	if strings.Contains(path, ".") || !Encodable(v) {
		return nil // through arrays of documents, a path's keys are not its values
	}

	enc := Append(nil, v)

	return set{{lo: bound{kind: unbounded}, hi: bound{enc, exclusive}}, {lo: bound{enc, exclusive}, hi: bound{kind: unbounded}}}
}

// broad reports whether a set reaches both ends of the key space ($ne): as the only bound of a
// query it narrows nothing worth reading documents by key for.
func broad(s set) bool {
	return len(s) > 0 && s[0].lo.kind == unbounded && s[len(s)-1].hi.kind == unbounded
}

// rangeSet is the values of v's type on one side of v: MongoDB's comparison operators match
// values of the same type only.
func rangeSet(op string, v any) set {
	switch v.(type) {
	case types.NullType, *types.Document, *types.Array, types.Regex:
		return nil
	}

	if !Encodable(v) {
		return nil
	}

	t := TypeByte(v)
	enc := Append(nil, v)
	first := bound{[]byte{t}, typeEdge}
	last := bound{[]byte{t + 1}, typeEdge}

	switch op {
	case "$gt":
		return set{{lo: bound{enc, exclusive}, hi: last}}
	case "$gte":
		return set{{lo: bound{enc, inclusive}, hi: last}}
	case "$lt":
		return set{{lo: first, hi: bound{enc, exclusive}}}
	case "$lte":
		return set{{lo: first, hi: bound{enc, inclusive}}}
	}

	return nil
}

// union merges sets (overlapping or touching intervals become one).
func union(sets ...set) set {
	var all set
	for _, s := range sets {
		all = append(all, s...)
	}

	slices.SortFunc(all, func(a, b interval) int { return bytes.Compare(a.low(), b.low()) })

	var res set

	for _, iv := range all {
		if n := len(res); n > 0 && bytes.Compare(iv.low(), res[n-1].high()) <= 0 {
			if bytes.Compare(iv.high(), res[n-1].high()) > 0 {
				res[n-1].hi = iv.hi
			}

			continue
		}

		res = append(res, iv)
	}

	return res
}

// intersect is the values in both sets (for an index that is not multikey: one value per
// document, which must satisfy every condition).
func intersect(a, b set) set {
	res := set{} // empty, not nil (no condition): nothing can match

	for _, x := range a {
		for _, y := range b {
			iv := x
			if bytes.Compare(y.low(), x.low()) > 0 {
				iv.lo = y.lo
			}

			if bytes.Compare(y.high(), x.high()) < 0 {
				iv.hi = y.hi
			}

			if bytes.Compare(iv.low(), iv.high()) < 0 {
				res = append(res, iv)
			}
		}
	}

	return res
}

// conditions are the interval sets a filter puts on each path: every set must hold (a
// conjunction), and each set alone holds every matching document.
type conditions map[string][]set

func (c conditions) add(path string, s set) {
	if s != nil {
		c[path] = append(c[path], s)
	}
}

// Conditions reads what a filter says about each path.
func Conditions(filter *types.Document) conditions {
	c := conditions{}
	if filter == nil {
		return c
	}

	keys := filter.Keys()
	values := filter.Values()

	for i, key := range keys {
		switch key {
		case "$and":
			arr, ok := values[i].(*types.Array)
			if !ok {
				continue
			}

			for j := 0; j < arr.Len(); j++ {
				e, _ := arr.Get(j)
				if d, ok := e.(*types.Document); ok {
					for p, sets := range Conditions(d) {
						c[p] = append(c[p], sets...)
					}
				}
			}

		case "$or":
			// A path every branch bounds is bounded by the union of the branches' bounds
			// (each branch's first set for it: within a branch, sets are not intersected,
			// which holds for multikey indexes too).
			arr, ok := values[i].(*types.Array)
			if !ok || arr.Len() == 0 {
				continue
			}

			var branches []conditions

			for j := 0; j < arr.Len(); j++ {
				e, _ := arr.Get(j)

				d, ok := e.(*types.Document)
				if !ok {
					branches = nil
					break
				}

				branches = append(branches, Conditions(d))
			}

			if len(branches) == 0 {
				continue
			}

			for p, sets := range branches[0] {
				all := []set{sets[0]}

				for _, b := range branches[1:] {
					if len(b[p]) == 0 {
						all = nil
						break
					}

					all = append(all, b[p][0])
				}

				if all != nil {
					c.add(p, union(all...))
				}
			}

		default:
			if strings.HasPrefix(key, "$") {
				continue // $nor, $comment, $expr, $where, $text: no narrowing
			}

			c.value(key, values[i])
		}
	}

	return c
}

func (c conditions) value(path string, v any) {
	switch v := v.(type) {
	case *types.Document:
		if v.Len() > 0 && strings.HasPrefix(v.Keys()[0], "$") {
			c.operators(path, v)
			return
		}

		c.add(path, pointSet(v)) // an embedded document, equal as a whole

	case *types.Array, types.Regex:
		// array equality (or an element equal to the array) and regular expressions: no narrowing

	default:
		c.add(path, pointSet(v))
	}
}

func (c conditions) operators(path string, ops *types.Document) {
	keys := ops.Keys()
	values := ops.Values()

	for i, op := range keys {
		v := values[i]

		switch op {
		case "$eq":
			switch v.(type) {
			case *types.Array, types.Regex:
				continue
			}

			c.add(path, pointSet(v))

		case "$in":
			arr, ok := v.(*types.Array)
			if !ok {
				continue
			}

			var sets []set

			for j := 0; j < arr.Len(); j++ {
				e, _ := arr.Get(j)

				switch e.(type) {
				case *types.Array, types.Regex:
					sets = nil
				default:
					sets = append(sets, pointSet(e))
				}

				if sets == nil || sets[len(sets)-1] == nil {
					sets = nil
					break
				}
			}

			if len(sets) > 0 {
				c.add(path, union(sets...))
			}

		case "$gt", "$gte", "$lt", "$lte":
			c.add(path, rangeSet(op, v))

		case "$ne":
			c.add(path, neSet(path, v))
		}
	}
}

// SortField is one field of a requested sort.
type SortField struct {
	Path string
	Desc bool
}

// Range is a half-open range of keys: Lo <= k < Hi.
type Range struct {
	Lo, Hi []byte
}

// Args are the range's bounds as SQL parameters (`k >= ? AND k < ?`). A range from the very
// start has no low key, and a nil []byte is bound as SQL NULL, for which `k >= NULL` holds for
// no row: the empty key, below every key, stands for it.
func (r Range) Args() (lo, hi []byte) {
	if r.Lo == nil {
		return []byte{}, r.Hi
	}

	return r.Lo, r.Hi
}

// Plan is how to read a query through one index.
type Plan struct {
	Index   *Index
	Ranges  []Range // in ascending key order, disjoint
	Reverse bool    // read backwards (last range first, each from its end)
	Sorted  bool    // the documents come in the requested sort order
	score   int
	used    int  // the leading index fields the ranges bound (exactly, for an index that is not multikey)
	empty   bool // nothing can match
}

// maxRanges caps the cartesian product of point conditions.
const maxRanges = 256

// Choose picks the index that narrows a query most, or nil when none narrows it or gives its
// sort (then the table is scanned as upstream does).
func Choose(indexes []*Index, filter *types.Document, sort []SortField) *Plan {
	conds := Conditions(filter)

	var best *Plan

	for _, ix := range indexes {
		p := planFor(ix, conds, sort, false)
		if p != nil && (best == nil || p.score > best.score || (p.score == best.score && len(p.Index.Fields) < len(best.Index.Fields))) {
			best = p
		}
	}

	return best
}

// planFor plans a query through one index. broadOK lets a set that narrows little ($ne) be the
// first bound (a count read from the keys alone gains from it; a query reading documents does
// not).
func planFor(ix *Index, conds conditions, sort []SortField, broadOK bool) *Plan {
	// The interval set each index field is bounded by.
	bounds := make([]set, len(ix.Fields))

	for i, f := range ix.Fields {
		sets := conds[f.Path]
		if len(sets) == 0 {
			continue
		}

		s := sets[0]

		// One value per document unless multikey: every condition holds for that value.
		// With arrays, each condition may hold for another element: use one. Prefer a
		// condition of points (equality, $in), which narrows most.
		if ix.Multikey {
			for _, o := range sets {
				if allPoints(o) {
					s = o
					break
				}
			}
		} else {
			for _, o := range sets[1:] {
				s = intersect(s, o)
			}

			// Only an empty array gives the undefined key: none here.
			s = slices.DeleteFunc(slices.Clone(s), func(iv interval) bool {
				enc, ok := iv.point()
				return ok && len(enc) == 1 && enc[0] == typeUndefined
			})
		}

		bounds[i] = s
	}

	// Leading fields bounded by points (the cartesian product of their values), then at most
	// one field bounded by intervals.
	prefixes := [][]byte{nil}
	points, single := 0, 0
	var rangeField set
	ranged := false

	for i, f := range ix.Fields {
		s := bounds[i]
		if s == nil {
			break
		}

		if len(s) == 0 {
			// Nothing can match; one empty range says so.
			return &Plan{Index: ix, Ranges: nil, Sorted: true, score: 1000, used: len(ix.Fields), empty: true}
		}

		if allPoints(s) && len(prefixes)*len(s) <= maxRanges {
			next := make([][]byte, 0, len(prefixes)*len(s))

			for _, p := range prefixes {
				for _, iv := range s {
					enc, _ := iv.point()
					c := slices.Clone(enc)

					if f.Desc {
						invert(c, 0)
					}

					e := append(slices.Clip(p), c...)
					next = append(next, e)
				}
			}

			if f.Desc {
				slices.SortFunc(next, bytes.Compare)
			}

			prefixes = next
			points++

			if len(s) == 1 && single == points-1 {
				single++
			}

			continue
		}

		if points == 0 && broad(s) && !broadOK {
			break
		}

		rangeField = s
		ranged = true

		break
	}

	var ranges []Range

	for _, p := range prefixes {
		if !ranged {
			ranges = append(ranges, Range{Lo: p, Hi: append(slices.Clip(p), top)})
			continue
		}

		f := ix.Fields[points]

		for _, iv := range rangeField {
			var lo, hi []byte
			if f.Desc {
				lo, hi = iv.desc()
			} else {
				lo, hi = iv.low(), iv.high()
			}

			ranges = append(ranges, Range{Lo: append(slices.Clip(p), lo...), Hi: append(slices.Clip(p), hi...)})
		}
	}

	slices.SortFunc(ranges, func(a, b Range) int { return bytes.Compare(a.Lo, b.Lo) })

	sorted, reverse := sortOrder(ix, single, sort)
	if points == 0 && !ranged && !(sorted && len(sort) > 0) {
		return nil // reads the whole index for nothing
	}

	score := 10*points + 5*b2i(ranged)
	if len(sort) > 0 && sorted {
		score += 15
	}

	if ix.Unique && points == len(ix.Fields) && single == points {
		score += 100 // one document at most
	}

	return &Plan{Index: ix, Ranges: ranges, Reverse: reverse, Sorted: sorted, score: score, used: points + b2i(ranged)}
}

// sortOrder reports whether reading the index (forwards, or backwards when reverse) gives the
// requested sort. The first `single` fields hold one value each, so the sort may skip them;
// the rest of the sort must follow the index fields after them, all in the index's directions
// or all reversed. A multikey index gives no sort (MongoDB sorts an array by its smallest or
// largest element, which an index read by range does not reproduce).
func sortOrder(ix *Index, single int, sort []SortField) (sorted, reverse bool) {
	if len(sort) == 0 {
		return true, false
	}

	if ix.Multikey {
		return false, false
	}

	fixed := map[string]bool{}
	for _, f := range ix.Fields[:single] {
		fixed[f.Path] = true
	}

	var rest []SortField

	for _, s := range sort {
		if !fixed[s.Path] {
			rest = append(rest, s)
		}
	}

	if len(rest) == 0 {
		return true, false
	}

	if single+len(rest) > len(ix.Fields) {
		return false, false
	}

	for i, s := range rest {
		f := ix.Fields[single+i]
		if f.Path != s.Path {
			return false, false
		}

		r := f.Desc != s.Desc
		if i == 0 {
			reverse = r
		} else if r != reverse {
			return false, false
		}
	}

	return true, reverse
}

func allPoints(s set) bool {
	for _, iv := range s {
		if _, ok := iv.point(); !ok {
			return false
		}
	}

	return true
}

func b2i(b bool) int {
	if b {
		return 1
	}

	return 0
}
