package keyindex

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/FerretDB/FerretDB/internal/types"
)

// Field is one component of an index: a dotted path and its direction.
type Field struct {
	Path string
	Desc bool
}

// Index is what the engine needs to know of an index.
type Index struct {
	Name     string
	Fields   []Field
	Unique   bool
	Multikey bool // some document's entry came through an array (MongoDB's flag of the same name)
}

// Usable reports whether the engine can hold an index on these paths: every path element a
// plain field name (not empty, not a number, which MongoDB reads as an array position, and
// not starting with `$`). Other indexes stay upstream's SQLite expression indexes.
func Usable(fields []Field) bool {
	if len(fields) == 0 {
		return false
	}

	for _, f := range fields {
		if f.Path == "_id" && len(fields) == 1 {
			return false // the `_id_` index stays upstream's: lookups by _id use it
		}

		for _, p := range strings.Split(f.Path, ".") {
			if p == "" || strings.HasPrefix(p, "$") {
				return false
			}

			if _, err := strconv.ParseUint(p, 10, 64); err == nil {
				return false
			}
		}
	}

	return true
}

// ParallelArraysError is MongoDB's refusal to index a document with arrays in two fields of
// one compound index ("cannot index parallel arrays").
type ParallelArraysError struct {
	Index string
	A, B  string
}

func (e *ParallelArraysError) Error() string {
	return fmt.Sprintf("cannot index parallel arrays [%s] [%s] (index %s)", e.A, e.B, e.Index)
}

// Entries returns the document's distinct index keys, sorted, and whether a path went through
// an array. MongoDB's rules: a missing field is null; an array at the end of a path gives an
// entry per element (an empty one gives undefined); an array along a path is walked into its
// documents (other elements give null).
func (ix *Index) Entries(doc *types.Document) ([][]byte, bool, error) {
	perField := make([][][]byte, len(ix.Fields))
	arrayAt := make([]string, len(ix.Fields))
	multikey := false

	for i, f := range ix.Fields {
		var w walker

		w.walk(doc, strings.Split(f.Path, "."), 0)

		if w.arrayAt >= 0 {
			multikey = true
			arrayAt[i] = strings.Join(strings.Split(f.Path, ".")[:w.arrayAt+1], ".")
		}

		comps := w.keys
		if f.Desc {
			for _, c := range comps {
				invert(c, 0)
			}
		}

		perField[i] = comps
	}

	// Arrays in two fields whose array positions differ: MongoDB refuses the document.
	for i := range arrayAt {
		for j := i + 1; j < len(arrayAt); j++ {
			if arrayAt[i] != "" && arrayAt[j] != "" && arrayAt[i] != arrayAt[j] {
				return nil, false, &ParallelArraysError{Index: ix.Name, A: arrayAt[i], B: arrayAt[j]}
			}
		}
	}

	keys := [][]byte{nil}

	for _, comps := range perField {
		next := make([][]byte, 0, len(keys)*len(comps))

		for _, k := range keys {
			for _, c := range comps {
				e := make([]byte, 0, len(k)+len(c))
				e = append(e, k...)
				next = append(next, append(e, c...))
			}
		}

		keys = next
	}

	slices.SortFunc(keys, bytes.Compare)
	keys = slices.CompactFunc(keys, bytes.Equal)

	return keys, multikey, nil
}

// walker collects the encoded values at one path.
type walker struct {
	keys    [][]byte
	arrayAt int // index of the path element where the first array was met, or -1
	started bool
}

func (w *walker) add(enc []byte) {
	for _, k := range w.keys {
		if bytes.Equal(k, enc) {
			return
		}
	}

	w.keys = append(w.keys, enc)
}

func (w *walker) sawArray(at int) {
	if w.arrayAt < 0 || !w.started {
		w.arrayAt = at
	}
}

func (w *walker) walk(v any, path []string, depth int) {
	if !w.started {
		w.arrayAt = -1
		w.started = true
	}

	if len(path) == 0 {
		arr, ok := v.(*types.Array)
		if !ok {
			w.add(Append(nil, v))
			return
		}

		w.sawArray(depth - 1)

		if arr.Len() == 0 {
			w.add(appendUndefined(nil))
			return
		}

		for i := 0; i < arr.Len(); i++ {
			e, _ := arr.Get(i)
			w.add(Append(nil, e))
		}

		return
	}

	switch v := v.(type) {
	case *types.Document:
		x, err := v.Get(path[0])
		if err != nil {
			w.add(Append(nil, types.Null))
			return
		}

		w.walk(x, path[1:], depth+1)

	case *types.Array:
		w.sawArray(depth - 1)

		if v.Len() == 0 {
			w.add(Append(nil, types.Null))
			return
		}

		for i := 0; i < v.Len(); i++ {
			e, _ := v.Get(i)

			if d, ok := e.(*types.Document); ok {
				w.walk(d, path, depth)
			} else {
				w.add(Append(nil, types.Null))
			}
		}

	default:
		w.add(Append(nil, types.Null))
	}
}
