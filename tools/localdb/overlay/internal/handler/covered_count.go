// Emporium's localdb: counts the backend answers without reading documents
// (backends.QueryParams.CountOnly; the SQLite backend counts index keys, keyindex.CountPlan).

package handler

import (
	"math"
	"strings"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// countResult is n as the count command and the `$sum`/`$count` of a pipeline give it: an
// int32, or an int64 beyond.
func countResult(n int64) any {
	if n <= math.MaxInt32 {
		return int32(n)
	}

	return n
}

// skipLimit applies the count command's skip and limit (0: none) to a count.
func skipLimit(n, skip, limit int64) int64 {
	n = max(n-skip, 0)
	if limit > 0 {
		n = min(n, limit)
	}

	return n
}

// countPipeline recognises a pipeline that only counts the documents of its first stage's
// `$match`: `$match`, then any `$skip` and `$limit`, then `$count` or a `$group` of a constant
// `_id` whose one accumulator is `{$sum: 1}` (the driver's countDocuments). It returns that
// filter and the pipeline's result for a count of the matched documents.
func countPipeline(stages []any) (*types.Document, func(n int64) []*types.Document, bool) {
	if len(stages) < 2 {
		return nil, nil, false
	}

	docs := make([]*types.Document, len(stages))

	for i, s := range stages {
		d, ok := s.(*types.Document)
		if !ok || d.Len() != 1 {
			return nil, nil, false
		}

		docs[i] = d
	}

	filter, ok := must.NotFail(docs[0].Get(docs[0].Command())).(*types.Document)
	if !ok || docs[0].Command() != "$match" {
		return nil, nil, false
	}

	// The count after each $skip and $limit, in order.
	var steps []func(int64) int64

	for _, d := range docs[1 : len(docs)-1] {
		v, ok := wholeNumber(must.NotFail(d.Get(d.Command())))
		if !ok {
			return nil, nil, false
		}

		switch d.Command() {
		case "$skip":
			steps = append(steps, func(n int64) int64 { return max(n-v, 0) })
		case "$limit":
			steps = append(steps, func(n int64) int64 { return min(n, v) })
		default:
			return nil, nil, false
		}
	}

	last := docs[len(docs)-1]
	spec := must.NotFail(last.Get(last.Command()))

	var result func(n int64) *types.Document

	switch last.Command() {
	case "$count":
		field, ok := spec.(string)
		if !ok || field == "" || strings.HasPrefix(field, "$") || strings.Contains(field, ".") {
			return nil, nil, false
		}

		result = func(n int64) *types.Document {
			return must.NotFail(types.NewDocument(field, countResult(n)))
		}

	case "$group":
		group, ok := spec.(*types.Document)
		if !ok || group.Len() != 2 || group.Keys()[0] != "_id" {
			return nil, nil, false
		}

		id := group.Values()[0]

		switch id := id.(type) {
		case types.NullType, int32, int64, bool:
		case string:
			if strings.HasPrefix(id, "$") {
				return nil, nil, false // a field path
			}
		default:
			return nil, nil, false
		}

		field := group.Keys()[1]

		acc, ok := group.Values()[1].(*types.Document)
		if !ok || acc.Len() != 1 || acc.Command() != "$sum" || must.NotFail(acc.Get("$sum")) != int32(1) || strings.Contains(field, ".") {
			return nil, nil, false
		}

		result = func(n int64) *types.Document {
			return must.NotFail(types.NewDocument("_id", id, field, countResult(n)))
		}

	default:
		return nil, nil, false
	}

	return filter, func(n int64) []*types.Document {
		for _, step := range steps {
			n = step(n)
		}

		if n == 0 {
			return nil // no document, no group
		}

		return []*types.Document{result(n)}
	}, true
}

// wholeNumber is a $skip's or $limit's value.
func wholeNumber(v any) (int64, bool) {
	switch v := v.(type) {
	case int32:
		return int64(v), v >= 0
	case int64:
		return v, v >= 0
	case float64:
		if v >= 0 && v < math.MaxInt64 && v == math.Trunc(v) {
			return int64(v), true
		}
	}

	return 0, false
}
