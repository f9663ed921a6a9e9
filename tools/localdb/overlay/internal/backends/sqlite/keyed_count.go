// Emporium's localdb: counts answered from a key table alone (keyindex.CountPlan).

package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/keyindex"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// rangesPerStatement bounds the scalar subqueries of one statement (two parameters each).
const rangesPerStatement = 200

// countByKeys counts the documents a filter matches from the keys of an index that expresses it
// exactly, reading no document; ok is false when no index does (the count reads documents).
// The ranges of a statement are summed in one statement (one snapshot).
func countByKeys(ctx context.Context, db *fsql.DB, meta *metadata.Collection, filter *types.Document) (n int64, ok bool, err error) {
	indexes, tables := keyedIndexes(meta)

	plan := keyindex.CountPlan(indexes, filter)
	if plan == nil {
		return 0, false, nil
	}

	var keyTable string

	for i, ix := range indexes {
		if ix == plan.Index {
			keyTable = tables[i]
		}
	}

	one := fmt.Sprintf(`(SELECT count(*) FROM %q WHERE k >= ? AND k < ?)`, keyTable)

	for start := 0; start < len(plan.Ranges); start += rangesPerStatement {
		ranges := plan.Ranges[start:min(start+rangesPerStatement, len(plan.Ranges))]
		parts := make([]string, len(ranges))
		args := make([]any, 0, 2*len(ranges))

		for i, r := range ranges {
			parts[i] = one
			lo, hi := r.Args()
			args = append(args, lo, hi)
		}

		var c int64
		if err = db.QueryRowContext(ctx, `SELECT `+strings.Join(parts, " + "), args...).Scan(&c); err != nil {
			return 0, false, lazyerrors.Error(err)
		}

		n += c
	}

	return n, true, nil
}
