package keyindex

import (
	"math"
	"strings"
	"time"

	"github.com/FerretDB/FerretDB/internal/types"
)

// Covered counts: a count whose filter the key ranges of an index express exactly is the number
// of keys in those ranges, read without any document. That needs an index that is not multikey
// (one key per document, whose components are the document's values, null for a missing field)
// and a filter every condition of which the planner turns into exactly the values it matches.

// CountPlan returns a plan whose ranges hold exactly the keys of the documents the filter
// matches, one key each, or nil when no index gives one (the count then reads documents).
func CountPlan(indexes []*Index, filter *types.Document) *Plan {
	paths, ok := exactPaths(filter, nil)
	if !ok || len(paths) == 0 {
		return nil
	}

	conds := Conditions(filter)

	var best *Plan

	for _, ix := range indexes {
		if ix.Multikey {
			continue
		}

		p := planFor(ix, conds, nil, true)
		if p == nil || !covers(p, paths) {
			continue
		}

		if best == nil || p.score > best.score || (p.score == best.score && len(p.Ranges) < len(best.Ranges)) {
			best = p
		}
	}

	return best
}

// covers reports whether every path with a condition is one of the index fields the plan's
// ranges bound.
func covers(p *Plan, paths map[string]bool) bool {
	if p.empty {
		return true // the conditions on the fields bounded so far already match nothing
	}

	for path := range paths {
		found := false

		for _, f := range p.Index.Fields[:p.used] {
			if f.Path == path {
				found = true
				break
			}
		}

		if !found {
			return false
		}
	}

	return true
}

// exactPaths collects the paths a filter has conditions on, and reports whether each condition
// is one the planner expresses exactly for a field that is not an array (Conditions gives it a
// set of exactly the values it matches): equality ($eq) with a scalar or null, `$in` of those,
// `$ne` of one, and `$gt`/`$gte`/`$lt`/`$lte` with a scalar (values of its type), on plain field
// names, under `$and`.
func exactPaths(filter *types.Document, paths map[string]bool) (map[string]bool, bool) {
	if paths == nil {
		paths = map[string]bool{}
	}

	if filter == nil {
		return paths, true
	}

	keys := filter.Keys()
	values := filter.Values()

	for i, key := range keys {
		if key == "$and" {
			arr, ok := values[i].(*types.Array)
			if !ok || arr.Len() == 0 {
				return nil, false
			}

			for j := 0; j < arr.Len(); j++ {
				e, _ := arr.Get(j)

				d, ok := e.(*types.Document)
				if !ok {
					return nil, false
				}

				if _, ok = exactPaths(d, paths); !ok {
					return nil, false
				}
			}

			continue
		}

		if key == "" || strings.HasPrefix(key, "$") || strings.Contains(key, ".") {
			return nil, false
		}

		if !exactCondition(values[i]) {
			return nil, false
		}

		paths[key] = true
	}

	return paths, true
}

func exactCondition(v any) bool {
	ops, ok := v.(*types.Document)
	if !ok {
		return exactScalar(v, true)
	}

	if ops.Len() == 0 || !strings.HasPrefix(ops.Keys()[0], "$") {
		return false // equality with an embedded document
	}

	values := ops.Values()

	for i, op := range ops.Keys() {
		switch op {
		case "$eq", "$ne":
			if !exactScalar(values[i], true) {
				return false
			}

		case "$gt", "$gte", "$lt", "$lte":
			if !exactScalar(values[i], false) {
				return false
			}

		case "$in":
			arr, ok := values[i].(*types.Array)
			if !ok || arr.Len() == 0 {
				return false
			}

			for j := 0; j < arr.Len(); j++ {
				if e, _ := arr.Get(j); !exactScalar(e, true) {
					return false
				}
			}

		default:
			return false
		}
	}

	return true
}

// exactScalar reports whether v is a value whose key is exactly the keys equal to it in
// MongoDB's comparison (and, for ranges, whose type's keys are exactly its type bracket).
func exactScalar(v any, nullOK bool) bool {
	switch v := v.(type) {
	case types.NullType:
		return nullOK
	case float64:
		return !math.IsNaN(v)
	case int32, int64, string, types.ObjectID, bool, time.Time:
		return true
	}

	return false
}
