// Package keyindex is Emporium's localdb index engine for FerretDB's SQLite backend.
//
// Upstream makes every MongoDB index a SQLite expression index over the stored JSON and never
// uses it: the backend pushes down nothing but `_id` equality, sorts in memory, and cannot index
// arrays. Here every secondary index is a table of keys instead (one row per index entry, as
// MongoDB's own storage does), in an encoding whose byte order is MongoDB's order of values:
// equality and ranges become key ranges, a query sorted like the index reads it in order and
// stops after its limit, and a field inside an array gets one entry per element (multikey).
//
// This package holds the pure parts: the key encoding (this file), the entries of a document
// (entries.go) and query planning (plan.go). The SQL lives in the sqlite and metadata packages.
package keyindex

import (
	"encoding/binary"
	"math"
	"math/big"
	"time"

	"github.com/FerretDB/FerretDB/internal/types"
)

// Type bytes, in MongoDB's order of types (its canonical type numbers, spaced so that a type
// byte plus one is never another type's byte: key ranges for "every value of this type" end at
// type+1). The encoding of each value starts with its type byte; a document or array ends with
// 0x00, below every type byte; 0xFF is above every type byte, inverted ones included.
const (
	typeUndefined = 0x02 // an empty array's entry, as in MongoDB
	typeNull      = 0x05 // null and missing
	typeNumber    = 0x0A // double, int and long compare as numbers
	typeString    = 0x0F
	typeObject    = 0x14
	typeArray     = 0x19
	typeBinData   = 0x1E
	typeObjectID  = 0x23
	typeBool      = 0x28
	typeDate      = 0x2D
	typeTimestamp = 0x2F
	typeRegex     = 0x32

	end = 0x00 // end of a document or array
	top = 0xFF // above every component: P+top bounds all keys that start with the components P
)

// TypeByte is the type byte of a value, in MongoDB's order of types.
func TypeByte(v any) byte {
	switch v.(type) {
	case types.NullType:
		return typeNull
	case float64, int32, int64:
		return typeNumber
	case string:
		return typeString
	case *types.Document:
		return typeObject
	case *types.Array:
		return typeArray
	case types.Binary:
		return typeBinData
	case types.ObjectID:
		return typeObjectID
	case bool:
		return typeBool
	case time.Time:
		return typeDate
	case types.Timestamp:
		return typeTimestamp
	case types.Regex:
		return typeRegex
	}

	panic("keyindex: unexpected type")
}

// Encodable reports whether v has a key encoding that orders it exactly (every BSON value
// FerretDB stores does, except a NaN, which the stored JSON cannot hold anyway).
func Encodable(v any) bool {
	switch v := v.(type) {
	case float64:
		return !math.IsNaN(v)
	case *types.Document:
		for _, f := range v.Values() {
			if !Encodable(f) {
				return false
			}
		}
	case *types.Array:
		for i := 0; i < v.Len(); i++ {
			e, _ := v.Get(i)
			if !Encodable(e) {
				return false
			}
		}
	}

	return true
}

// Append appends the key encoding of v: bytes that compare (as unsigned bytes, shorter first
// on a common prefix) as MongoDB compares the values, and no value's encoding is a prefix of
// another's.
func Append(b []byte, v any) []byte {
	b = append(b, TypeByte(v))
	return appendBody(b, v)
}

// appendUndefined appends an empty array's entry.
func appendUndefined(b []byte) []byte {
	return append(b, typeUndefined)
}

func appendBody(b []byte, v any) []byte {
	switch v := v.(type) {
	case types.NullType:
		return b

	case float64:
		return appendNumber(b, v, 0)

	case int32:
		return appendInt(b, int64(v))

	case int64:
		return appendInt(b, v)

	case string:
		return appendString(b, v)

	case *types.Document:
		keys := v.Keys()
		values := v.Values()

		for i, k := range keys {
			b = append(b, TypeByte(values[i]))
			b = appendString(b, k)
			b = appendBody(b, values[i])
		}

		return append(b, end)

	case *types.Array:
		for i := 0; i < v.Len(); i++ {
			e, _ := v.Get(i)
			b = Append(b, e)
		}

		return append(b, end)

	case types.Binary:
		b = binary.BigEndian.AppendUint32(b, uint32(len(v.B)))
		b = append(b, byte(v.Subtype))

		return append(b, v.B...)

	case types.ObjectID:
		return append(b, v[:]...)

	case bool:
		if v {
			return append(b, 1)
		}

		return append(b, 0)

	case time.Time:
		return binary.BigEndian.AppendUint64(b, uint64(v.UnixMilli())^(1<<63))

	case types.Timestamp:
		return binary.BigEndian.AppendUint64(b, uint64(v))

	case types.Regex:
		b = appendString(b, v.Pattern)
		return appendString(b, v.Options)
	}

	panic("keyindex: unexpected type")
}

// appendString escapes 0x00 as 0x00 0xFF and ends with 0x00 0x00: byte order, prefix-free.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			b = append(b, 0, 0xFF)
			continue
		}

		b = append(b, s[i])
	}

	return append(b, 0, 0)
}

// Numbers are 16 bytes: the value as an order-preserving float64, then the difference between
// the exact value and that float64 as an order-preserving int64. Equal numbers of any type
// encode the same (5, 5.0 and NumberLong(5) are one key, as in MongoDB), and two longs that
// round to the same float64 still order exactly.

func appendInt(b []byte, i int64) []byte {
	f := float64(i)
	if i > -1<<53 && i < 1<<53 {
		return appendNumber(b, f, 0) // exact
	}

	// i - int64(f), exactly: f is i rounded, so the difference is small, but int64(f) overflows
	// when f is 2^63.
	exact := new(big.Int).SetInt64(i)
	rounded, _ := big.NewFloat(f).Int(nil)

	return appendNumber(b, f, exact.Sub(exact, rounded).Int64())
}

func appendNumber(b []byte, f float64, rest int64) []byte {
	if f == 0 {
		f = 0 // -0 and +0 are one key
	}

	bits := math.Float64bits(f)
	if bits&(1<<63) != 0 {
		bits = ^bits
	} else {
		bits |= 1 << 63
	}

	b = binary.BigEndian.AppendUint64(b, bits)

	return binary.BigEndian.AppendUint64(b, uint64(rest)^(1<<63))
}

// invert flips every byte of b from start on (a descending index component).
func invert(b []byte, start int) {
	for i := start; i < len(b); i++ {
		b[i] = ^b[i]
	}
}
