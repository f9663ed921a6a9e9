// Emporium's localdb: indexes held in key tables (see package keyindex).
//
// Each index the engine can hold (keyindex.Usable) is a table of (k, id) rows instead of a
// SQLite expression index: k is an index key in keyindex's encoding, id the document's `_id`
// as the `_id_` expression index has it (so a key row joins its document through that index).
// A unique index makes k the primary key; otherwise (k, id) is. A second index on id serves
// updates and deletes. The tables are written in the same transaction as the documents.

package metadata

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"strings"

	sqlite3 "modernc.org/sqlite"
	sqlite3lib "modernc.org/sqlite/lib"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/keyindex"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// KeyIndex is the engine's view of a keyed index.
func (index *IndexInfo) KeyIndex() *keyindex.Index {
	fields := make([]keyindex.Field, len(index.Key))
	for i, k := range index.Key {
		fields[i] = keyindex.Field{Path: k.Field, Desc: k.Descending}
	}

	return &keyindex.Index{Name: index.Name, Fields: fields, Unique: index.Unique, Multikey: index.Multikey}
}

// keyTables is off with LOCALDB_INDEX_ENGINE=sqlite: new indexes are upstream's SQLite
// expression indexes and existing ones are left as they are (to measure the difference, and to
// write a database as upstream FerretDB does, which the next start without it upgrades).
var keyTables = os.Getenv("LOCALDB_INDEX_ENGINE") != "sqlite"

// keyable reports whether the engine holds this index.
func keyable(index *IndexInfo) bool {
	if !keyTables {
		return false
	}

	fields := make([]keyindex.Field, len(index.Key))
	for i, k := range index.Key {
		fields[i] = keyindex.Field{Path: k.Field, Desc: k.Descending}
	}

	return index.Name != "_id_" && keyindex.Usable(fields)
}

// IDText is a document `_id` as key tables (and the `_id_` index) hold it.
func IDText(id any) string {
	return string(must.NotFail(sjson.MarshalSingleValue(id)))
}

// keyTableName picks a table name for an index's keys, unused in the collection.
func keyTableName(c *Collection, indexName string) string {
	h := fnv.New32a()
	must.NotFail(h.Write([]byte(indexName)))
	s := h.Sum32()

	for {
		name := fmt.Sprintf("%s_k%08x", c.TableName, s)
		if !slices.ContainsFunc(c.Settings.Indexes, func(i IndexInfo) bool { return i.KeyTable == name }) {
			return name
		}

		s++
	}
}

// createKeyTable creates an index's key table and fills it from the collection's documents.
// It fails, creating nothing, when a unique index would hold a key twice (MongoDB's E11000).
func createKeyTable(ctx context.Context, db *fsql.DB, c *Collection, index *IndexInfo) error {
	index.Keyed = true
	index.KeyTable = keyTableName(c, index.Name)

	pk := "PRIMARY KEY (k, id)"
	if index.Unique {
		pk = "PRIMARY KEY (k)"
	}

	err := db.InTransaction(ctx, func(tx *fsql.Tx) error {
		q := fmt.Sprintf(`CREATE TABLE %q (k BLOB NOT NULL, id TEXT NOT NULL, %s) WITHOUT ROWID, STRICT`, index.KeyTable, pk)
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return lazyerrors.Error(err)
		}

		q = fmt.Sprintf(`CREATE INDEX %q ON %q (id)`, index.KeyTable+"_id", index.KeyTable)
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return lazyerrors.Error(err)
		}

		multikey, err := fillKeyTable(ctx, tx, c.TableName, index)
		index.Multikey = multikey

		return err
	})
	if err != nil {
		index.Keyed, index.KeyTable, index.Multikey = false, "", false
		return err
	}

	return nil
}

// dropIndexStorage drops an index's key table, or its SQLite index.
func dropIndexStorage(ctx context.Context, db *fsql.DB, table string, index *IndexInfo) error {
	q := fmt.Sprintf("DROP INDEX IF EXISTS %q", table+"_"+index.Name)
	if index.Keyed {
		q = fmt.Sprintf("DROP TABLE IF EXISTS %q", index.KeyTable)
	}

	_, err := db.ExecContext(ctx, q)

	return err
}

// fillKeyTable writes the keys of every document of the table.
func fillKeyTable(ctx context.Context, tx *fsql.Tx, table string, index *IndexInfo) (bool, error) {
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(`SELECT %s FROM %q`, DefaultColumn, table))
	if err != nil {
		return false, lazyerrors.Error(err)
	}

	var docs []*types.Document

	for rows.Next() {
		var b []byte
		if err = rows.Scan(&b); err != nil {
			rows.Close()
			return false, lazyerrors.Error(err)
		}

		doc, err := sjson.Unmarshal(b)
		if err != nil {
			rows.Close()
			return false, lazyerrors.Error(err)
		}

		docs = append(docs, doc)
	}

	if err = rows.Err(); err != nil {
		rows.Close()
		return false, lazyerrors.Error(err)
	}

	rows.Close()

	ki := index.KeyIndex()
	w := KeyWriter{Index: ki, Table: index.KeyTable}

	multikey := false

	for i := 0; i < len(docs); i += keyBatch {
		m, err := w.Insert(ctx, tx, docs[i:min(i+keyBatch, len(docs))])
		if err != nil {
			return false, err
		}

		multikey = multikey || m
	}

	return multikey, nil
}

// keyBatch is how many documents' keys one INSERT writes at most (SQLite allows 32,766
// parameters per statement; a document has few keys in practice).
const keyBatch = 100

// DuplicateKeyError is a unique index refusing a key (MongoDB's E11000).
type DuplicateKeyError struct {
	Index string
	Err   error
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("E11000 duplicate key error index: %s (%s)", e.Index, e.Err)
}

func (e *DuplicateKeyError) Unwrap() error { return e.Err }

// KeyWriter writes one index's keys.
type KeyWriter struct {
	Index *keyindex.Index
	Table string
}

// isUniqueViolation tells whether err is SQLite refusing a duplicate key.
func isUniqueViolation(err error) bool {
	var se *sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}

	return se.Code() == sqlite3lib.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3lib.SQLITE_CONSTRAINT_PRIMARYKEY
}

// Insert writes the keys of new documents; it reports whether one of them went through an
// array (the index is multikey from now on).
func (w *KeyWriter) Insert(ctx context.Context, tx *fsql.Tx, docs []*types.Document) (bool, error) {
	multikey := false

	var args []any

	for _, doc := range docs {
		keys, m, err := w.Index.Entries(doc)
		if err != nil {
			return false, err
		}

		multikey = multikey || m
		id := IDText(must.NotFail(doc.Get("_id")))

		for _, k := range keys {
			args = append(args, k, id)
		}
	}

	return multikey, w.insertRows(ctx, tx, args)
}

// insertRows writes (k, id) pairs, given flat.
func (w *KeyWriter) insertRows(ctx context.Context, tx *fsql.Tx, args []any) error {
	for len(args) > 0 {
		n := min(len(args), 2*500)

		q := fmt.Sprintf(`INSERT INTO %q (k, id) VALUES %s`, w.Table, strings.TrimSuffix(strings.Repeat("(?, ?), ", n/2), ", "))
		if _, err := tx.ExecContext(ctx, q, args[:n]...); err != nil {
			if isUniqueViolation(err) {
				return &DuplicateKeyError{Index: w.Index.Name, Err: err}
			}

			return lazyerrors.Error(err)
		}

		args = args[n:]
	}

	return nil
}

// Update rewrites the keys of a changed document: only the keys that changed. It reports
// whether the document went through an array.
func (w *KeyWriter) Update(ctx context.Context, tx *fsql.Tx, doc *types.Document) (bool, error) {
	keys, multikey, err := w.Index.Entries(doc)
	if err != nil {
		return false, err
	}

	id := IDText(must.NotFail(doc.Get("_id")))

	rows, err := tx.QueryContext(ctx, fmt.Sprintf(`SELECT k FROM %q WHERE id = ? ORDER BY k`, w.Table), id)
	if err != nil {
		return false, lazyerrors.Error(err)
	}

	var old [][]byte

	for rows.Next() {
		var k []byte
		if err = rows.Scan(&k); err != nil {
			rows.Close()
			return false, lazyerrors.Error(err)
		}

		old = append(old, k)
	}

	err = rows.Err()
	rows.Close()

	if err != nil {
		return false, lazyerrors.Error(err)
	}

	gone, added := diffKeys(old, keys, id)

	if len(gone) > 0 {
		q := fmt.Sprintf(`DELETE FROM %q WHERE id = ? AND k IN (%s)`, w.Table, strings.TrimSuffix(strings.Repeat("?, ", len(gone)), ", "))
		if _, err = tx.ExecContext(ctx, q, append([]any{id}, gone...)...); err != nil {
			return false, lazyerrors.Error(err)
		}
	}

	return multikey, w.insertRows(ctx, tx, added)
}

// UpdateFrom rewrites the keys of a changed document given its previous version, read in the
// same write command (writes run one at a time): only the keys that changed, without reading
// the stored ones first, and a changed key of a single-key document as one UPDATE. If a key the
// previous version gives is not stored, it falls back to Update, which reads them.
func (w *KeyWriter) UpdateFrom(ctx context.Context, tx *fsql.Tx, old, doc *types.Document) (bool, error) {
	keys, multikey, err := w.Index.Entries(doc)
	if err != nil {
		return false, err
	}

	oldKeys, _, err := w.Index.Entries(old)
	if err != nil {
		return w.Update(ctx, tx, doc)
	}

	id := IDText(must.NotFail(doc.Get("_id")))
	gone, added := diffKeys(oldKeys, keys, id)

	switch {
	case len(gone) == 0 && len(added) == 0:
		return multikey, nil

	case len(gone) == 1 && len(added) == 2:
		q := fmt.Sprintf(`UPDATE %q SET k = ? WHERE k = ? AND id = ?`, w.Table)

		res, err := tx.ExecContext(ctx, q, added[0], gone[0], id)
		if err != nil {
			if isUniqueViolation(err) {
				return false, &DuplicateKeyError{Index: w.Index.Name, Err: err}
			}

			return false, lazyerrors.Error(err)
		}

		if n, _ := res.RowsAffected(); n != 1 {
			return w.Update(ctx, tx, doc)
		}

		return multikey, nil
	}

	if len(gone) > 0 {
		q := fmt.Sprintf(`DELETE FROM %q WHERE id = ? AND k IN (%s)`, w.Table, strings.TrimSuffix(strings.Repeat("?, ", len(gone)), ", "))

		res, err := tx.ExecContext(ctx, q, append([]any{id}, gone...)...)
		if err != nil {
			return false, lazyerrors.Error(err)
		}

		if n, _ := res.RowsAffected(); n != int64(len(gone)) {
			return w.Update(ctx, tx, doc)
		}
	}

	return multikey, w.insertRows(ctx, tx, added)
}

// UpdateManyFrom is UpdateFrom for several documents at once, for an index that is not unique
// (where the order of the documents' changes cannot matter): one DELETE of every key that went
// and one INSERT of every key that came. If the DELETE finds fewer keys than the previous
// versions give, each document's keys are redone from the stored ones (Update).
func (w *KeyWriter) UpdateManyFrom(ctx context.Context, tx *fsql.Tx, old, docs []*types.Document) (bool, error) {
	multikey := false

	var gone, added []any

	for i, doc := range docs {
		keys, m, err := w.Index.Entries(doc)
		if err != nil {
			return false, err
		}

		multikey = multikey || m

		oldKeys, _, err := w.Index.Entries(old[i])
		if err != nil {
			return w.updateEach(ctx, tx, docs)
		}

		id := IDText(must.NotFail(doc.Get("_id")))
		g, a := diffKeys(oldKeys, keys, id)

		for _, k := range g {
			gone = append(gone, k, id)
		}

		added = append(added, a...)
	}

	var deleted int64

	for rest := gone; len(rest) > 0; {
		n := min(len(rest), 2*500)

		q := fmt.Sprintf(`DELETE FROM %q WHERE (k, id) IN (VALUES %s)`, w.Table, strings.TrimSuffix(strings.Repeat("(?, ?), ", n/2), ", "))

		res, err := tx.ExecContext(ctx, q, rest[:n]...)
		if err != nil {
			return false, lazyerrors.Error(err)
		}

		ra, _ := res.RowsAffected()
		deleted += ra
		rest = rest[n:]
	}

	if deleted != int64(len(gone)/2) {
		return w.updateEach(ctx, tx, docs)
	}

	return multikey, w.insertRows(ctx, tx, added)
}

// updateEach redoes the keys of each document from the stored ones.
func (w *KeyWriter) updateEach(ctx context.Context, tx *fsql.Tx, docs []*types.Document) (bool, error) {
	multikey := false

	for _, doc := range docs {
		m, err := w.Update(ctx, tx, doc)
		if err != nil {
			return false, err
		}

		multikey = multikey || m
	}

	return multikey, nil
}

// diffKeys compares a document's stored keys with its new ones (both sorted): the keys to
// remove, and the (k, id) pairs to add, flat.
func diffKeys(old, keys [][]byte, id string) (gone, added []any) {
	i, j := 0, 0

	for i < len(old) || j < len(keys) {
		switch {
		case j == len(keys) || (i < len(old) && string(old[i]) < string(keys[j])):
			gone = append(gone, old[i])
			i++
		case i == len(old) || string(keys[j]) < string(old[i]):
			added = append(added, keys[j], id)
			j++
		default:
			i++
			j++
		}
	}

	return gone, added
}

// Delete removes the keys of deleted documents (ids as IDText gives them).
func (w *KeyWriter) Delete(ctx context.Context, tx *fsql.Tx, ids []any) error {
	for len(ids) > 0 {
		n := min(len(ids), 500)

		q := fmt.Sprintf(`DELETE FROM %q WHERE id IN (%s)`, w.Table, strings.TrimSuffix(strings.Repeat("?, ", n), ", "))
		if _, err := tx.ExecContext(ctx, q, ids[:n]...); err != nil {
			return lazyerrors.Error(err)
		}

		ids = ids[n:]
	}

	return nil
}

// KeyWriters are the writers of a collection's keyed indexes.
func (c *Collection) KeyWriters() []*KeyWriter {
	var res []*KeyWriter

	for i := range c.Settings.Indexes {
		index := &c.Settings.Indexes[i]
		if index.Keyed {
			res = append(res, &KeyWriter{Index: index.KeyIndex(), Table: index.KeyTable})
		}
	}

	return res
}

// IndexesSetMultikey records that these indexes are multikey from now on, in memory (so
// queries planned from now on know) and in the metadata table, in the caller's transaction.
// Called before the documents that made them multikey are committed: a query that can see
// those documents was planned knowing (see keyindex, Plan).
func (r *Registry) IndexesSetMultikey(ctx context.Context, tx *fsql.Tx, dbName, collectionName string, names []string) error {
	r.rw.Lock()
	defer r.rw.Unlock()

	c := r.colls[dbName][collectionName]
	if c == nil {
		return nil
	}

	for i := range c.Settings.Indexes {
		if slices.Contains(names, c.Settings.Indexes[i].Name) {
			c.Settings.Indexes[i].Multikey = true
		}
	}

	q := fmt.Sprintf("UPDATE %q SET settings = ? WHERE table_name = ?", metadataTableName)
	if _, err := tx.ExecContext(ctx, q, c.Settings, c.TableName); err != nil {
		return lazyerrors.Error(err)
	}

	return nil
}

// upgradeIndexes turns the indexes of a database written by upstream FerretDB (or an older
// localdb) into key tables, once: a SQLite expression index is dropped and its key table built
// from the documents.
func (r *Registry) upgradeIndexes(ctx context.Context, db *fsql.DB, colls map[string]*Collection) error {
	if !keyTables {
		return nil
	}

	for _, c := range colls {
		changed := false

		for i := range c.Settings.Indexes {
			index := &c.Settings.Indexes[i]
			if index.Keyed || !keyable(index) {
				continue
			}

			// Keep the expression index if the keys cannot be built (a unique index over
			// documents that MongoDB would call duplicates, such as two without the field).
			if err := createKeyTable(ctx, db, c, index); err != nil {
				r.l.WarnContext(ctx, fmt.Sprintf("localdb: index %s of %s stays a SQLite index: %s", index.Name, c.Name, err))
				continue
			}

			if _, err := db.ExecContext(ctx, fmt.Sprintf("DROP INDEX IF EXISTS %q", c.TableName+"_"+index.Name)); err != nil {
				return lazyerrors.Error(err)
			}

			changed = true
		}

		if changed {
			q := fmt.Sprintf("UPDATE %q SET settings = ? WHERE table_name = ?", metadataTableName)
			if _, err := db.ExecContext(ctx, q, c.Settings, c.TableName); err != nil {
				return lazyerrors.Error(err)
			}

			r.l.InfoContext(ctx, "localdb: indexes of "+c.Name+" moved to key tables")
		}
	}

	return nil
}
