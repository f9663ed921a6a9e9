// Emporium's localdb: queries through key tables, and keeping them written (see package
// keyindex and metadata/keyed.go).

package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/keyindex"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// sortFields is a validated sort document as the planner takes it, or nil for `$natural`.
func sortFields(sort *types.Document) ([]keyindex.SortField, bool) {
	var res []keyindex.SortField

	keys := sort.Keys()
	values := sort.Values()

	for i, k := range keys {
		if k == "$natural" {
			return nil, false
		}

		var desc bool

		switch v := values[i].(type) {
		case int64:
			desc = v < 0
		case int32:
			desc = v < 0
		case float64:
			desc = v < 0
		default:
			return nil, false // $meta and the like
		}

		res = append(res, keyindex.SortField{Path: k, Desc: desc})
	}

	return res, true
}

// keyedIndexes are the collection's indexes that have key tables, and each one's table.
func keyedIndexes(meta *metadata.Collection) (indexes []*keyindex.Index, tables []string) {
	for i := range meta.Settings.Indexes {
		index := &meta.Settings.Indexes[i]
		if index.Keyed {
			indexes = append(indexes, index.KeyIndex())
			tables = append(tables, index.KeyTable)
		}
	}

	return indexes, tables
}

// planQuery picks a key table for the query, or returns nil (scan the table).
func planQuery(meta *metadata.Collection, params *backends.QueryParams) (*keyindex.Plan, string) {
	if params.NoIndex || params.OnlyRecordIDs || meta.Capped() || params.Sort.Len() != 0 {
		return nil, ""
	}

	sort, ok := sortFields(params.IndexSort)
	if !ok {
		return nil, ""
	}

	indexes, tables := keyedIndexes(meta)

	plan := keyindex.Choose(indexes, params.Filter, sort)
	if plan == nil {
		return nil, ""
	}

	for i, ix := range indexes {
		if ix == plan.Index {
			return plan, tables[i]
		}
	}

	panic("not reached")
}

// keyedIterator reads documents through a key table, range after range, as the caller asks
// for them (a query with a limit reads about that many).
type keyedIterator struct {
	ctx      context.Context
	db       *fsql.DB
	query    string
	ranges   []keyindex.Range
	rows     *fsql.Rows
	seen     map[string]struct{} // ids returned, when a document can have several keys
	m        sync.Mutex
	next     int
	reverse  bool
	finished bool
}

// The key rows drive the join (CROSS JOIN keeps them the outer loop), and `+x.id` has no
// affinity, so that SQLite looks each document up through the `_id_` expression index (a TEXT
// column compared with an expression would not use it).
func newKeyedIterator(ctx context.Context, db *fsql.DB, table, keyTable string, plan *keyindex.Plan) *keyedIterator {
	order := "ASC"
	if plan.Reverse {
		order = "DESC"
	}

	iter := &keyedIterator{
		ctx: ctx,
		db:  db,
		query: fmt.Sprintf(
			`SELECT x.id, t.%s FROM %q x CROSS JOIN %q t ON t.%s = +x.id WHERE x.k >= ? AND x.k < ? ORDER BY x.k %s, x.id %s`,
			metadata.DefaultColumn, keyTable, table, metadata.IDColumn, order, order,
		),
		ranges:  plan.Ranges,
		reverse: plan.Reverse,
	}

	if plan.Index.Multikey {
		iter.seen = map[string]struct{}{}
	}

	return iter
}

// Next implements iterator.Interface.
func (iter *keyedIterator) Next() (struct{}, *types.Document, error) {
	iter.m.Lock()
	defer iter.m.Unlock()

	var unused struct{}

	for {
		if iter.finished {
			return unused, nil, iterator.ErrIteratorDone
		}

		if err := context.Cause(iter.ctx); err != nil {
			iter.close()
			return unused, nil, lazyerrors.Error(err)
		}

		if iter.rows == nil {
			if iter.next == len(iter.ranges) {
				iter.close()
				return unused, nil, iterator.ErrIteratorDone
			}

			r := iter.ranges[iter.next]
			if iter.reverse {
				r = iter.ranges[len(iter.ranges)-1-iter.next]
			}

			iter.next++

			lo, hi := r.Args()

			rows, err := iter.db.QueryContext(iter.ctx, iter.query, lo, hi)
			if err != nil {
				iter.close()
				return unused, nil, lazyerrors.Error(err)
			}

			iter.rows = rows
		}

		if !iter.rows.Next() {
			err := iter.rows.Err()
			iter.rows.Close()
			iter.rows = nil

			if err != nil {
				iter.close()
				return unused, nil, lazyerrors.Error(err)
			}

			continue
		}

		var id string
		var b []byte

		if err := iter.rows.Scan(&id, &b); err != nil {
			iter.close()
			return unused, nil, lazyerrors.Error(err)
		}

		if iter.seen != nil {
			if _, dup := iter.seen[id]; dup {
				continue
			}

			iter.seen[id] = struct{}{}
		}

		doc, err := sjson.Unmarshal(b)
		if err != nil {
			iter.close()
			return unused, nil, lazyerrors.Error(err)
		}

		return unused, doc, nil
	}
}

// Close implements iterator.Interface.
func (iter *keyedIterator) Close() {
	iter.m.Lock()
	defer iter.m.Unlock()

	iter.close()
}

func (iter *keyedIterator) close() {
	if iter.rows != nil {
		iter.rows.Close()
		iter.rows = nil
	}

	iter.finished = true
}

// idsIn is the `_id` values of a filter's top-level `_id: {$in: [...]}` as the `_id_` index holds
// them, when every one is a string or an ObjectId (the types upstream pushes down for equality).
func idsIn(filter *types.Document) ([]any, bool) {
	v, err := filter.Get("_id")
	if err != nil {
		return nil, false
	}

	ops, ok := v.(*types.Document)
	if !ok || ops.Len() != 1 || !ops.Has("$in") {
		return nil, false
	}

	arr, ok := must.NotFail(ops.Get("$in")).(*types.Array)
	if !ok || arr.Len() == 0 || arr.Len() > 500 {
		return nil, false
	}

	ids := make([]any, arr.Len())

	for i := 0; i < arr.Len(); i++ {
		e := must.NotFail(arr.Get(i))

		switch e.(type) {
		case string, types.ObjectID:
			ids[i] = metadata.IDText(e)
		default:
			return nil, false
		}
	}

	return ids, true
}

// placeholders is "?, ?, …" for n values.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// writeKeys keeps a collection's key tables in step with a write, in its transaction: added
// documents (insert), changed ones (update, with their previous versions in old when known),
// or removed ids (remove, as IDText gives them).
// Indexes that a document made multikey are recorded before the transaction commits.
func (c *collection) writeKeys(ctx context.Context, tx *fsql.Tx, meta *metadata.Collection, insert, update, old []*types.Document, remove []any) error {
	var multikey []string

	for _, w := range meta.KeyWriters() {
		var m bool
		var err error

		switch {
		case insert != nil:
			m, err = w.Insert(ctx, tx, insert)
		case update != nil && old != nil && len(update) > 1 && !w.Index.Unique:
			m, err = w.UpdateManyFrom(ctx, tx, old, update)
		case update != nil:
			for i, doc := range update {
				var one bool
				if old != nil {
					one, err = w.UpdateFrom(ctx, tx, old[i], doc)
				} else {
					one, err = w.Update(ctx, tx, doc)
				}

				if err != nil {
					break
				}

				m = m || one
			}
		default:
			err = w.Delete(ctx, tx, remove)
		}

		if err != nil {
			var dup *metadata.DuplicateKeyError
			if errors.As(err, &dup) {
				return backends.NewError(backends.ErrorCodeInsertDuplicateID, err)
			}

			return err
		}

		if m && !w.Index.Multikey {
			multikey = append(multikey, w.Index.Name)
		}
	}

	if len(multikey) == 0 {
		return nil
	}

	return c.r.IndexesSetMultikey(ctx, tx, c.dbName, c.name, multikey)
}
