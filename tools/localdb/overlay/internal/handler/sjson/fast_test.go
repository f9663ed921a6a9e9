// Emporium's localdb: fastUnmarshal gives exactly what upstream's Unmarshal gives.

package sjson

import (
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/FerretDB/FerretDB/internal/types"
)

func randomString(r *rand.Rand) string {
	parts := []string{"a", "Z", "<p>", "&amp;", "\"", "\\", "/", "\n", "\t", "é", "日本", "😀", "\u2028", "\x00", "\x7f", string([]byte{0xff}), " ", "key"}
	var b strings.Builder

	for i := r.Intn(8); i > 0; i-- {
		b.WriteString(parts[r.Intn(len(parts))])
	}

	return b.String()
}

func randomValue(r *rand.Rand, depth int) any {
	n := 13
	if depth > 3 {
		n = 11 // no more nesting
	}

	switch r.Intn(n) {
	case 0:
		return r.NormFloat64() * 1e6
	case 1:
		return randomString(r)
	case 2:
		b := make([]byte, r.Intn(5))
		r.Read(b)

		return types.Binary{B: b, Subtype: types.BinarySubtype(r.Intn(3))}
	case 3:
		var id types.ObjectID
		r.Read(id[:])

		return id
	case 4:
		return r.Intn(2) == 0
	case 5:
		return time.UnixMilli(r.Int63n(4e12) - 1e12)
	case 6:
		return types.Null
	case 7:
		return types.Regex{Pattern: randomString(r), Options: "i"}
	case 8:
		return int32(r.Int31()) - 1<<30
	case 9:
		return types.Timestamp(r.Uint64())
	case 10:
		return r.Int63() - 1<<62
	case 11:
		return randomDocument(r, depth+1)
	default:
		arr := types.MakeArray(0)
		for i := r.Intn(4); i > 0; i-- {
			arr.Append(randomValue(r, depth+1))
		}

		return arr
	}
}

func randomDocument(r *rand.Rand, depth int) *types.Document {
	doc := types.MakeDocument(0)

	for i := r.Intn(6); i > 0; i-- {
		key := randomString(r)
		if key == "" || strings.ContainsAny(key, "\"\\\x00") || strings.HasPrefix(key, "$") || doc.Has(key) {
			continue
		}

		doc.Set(key, randomValue(r, depth))
	}

	return doc
}

func TestFastUnmarshalMatchesUpstream(t *testing.T) {
	t.Parallel()

	r := rand.New(rand.NewSource(1))
	fast, written := 0, 0

	for i := 0; i < 20000; i++ {
		doc := randomDocument(r, 0)

		b, err := Marshal(doc)
		if err != nil {
			continue // e.g. a value upstream cannot write
		}

		want, wantErr := unmarshalUpstream(b)
		got, gotErr := Unmarshal(b)

		if wantErr != nil {
			require.Error(t, gotErr, "%s", b)
			continue
		}

		require.NoError(t, gotErr, "%s", b)
		require.Equal(t, want, got, "%s", b)

		written++

		if _, err := fastUnmarshal(b); err == nil {
			fast++
		} else if written-fast < 3 {
			t.Logf("slow: %s", b)
		}
	}

	require.Greater(t, written, 10000)
	require.Equal(t, written, fast, "the fast path decodes everything Marshal writes")
}

func TestFastUnmarshalHandWritten(t *testing.T) {
	t.Parallel()

	for _, s := range []string{
		`{"$s":{}}`,
		`{"$s":{"p":{"a":{"t":"string"}},"$k":["a"]},"a":"x\u00e9\ud83d\ude00\ud800z"}`,
		`{"$s":{"p":{"a":{"t":"string"},"b":{"t":"int"}},"$k":["b","a"]},"a":"x","b":1}`, // keys out of order
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1.5}`,
		`{"$s":{"p":{"a":{"t":"array","i":[]}},"$k":["a"]},"a":[]}`,
		`{"$s":{"p":{"a":{"t":"object","$s":{}}},"$k":["a"]},"a":{}}`,
		`{"$s":{"p":{"a":{"t":"binData","s":0}},"$k":["a"]},"a":null}`,
		`{"$s":{"p":{"a":{"t":"string"}},"$k":["a"]},"a":"x","a":"y"}`,
		` { "$s" : { "p" : { "a" : { "t" : "long" } } , "$k" : [ "a" ] } , "a" : 7 } `,
	} {
		want, wantErr := unmarshalUpstream([]byte(s))
		got, gotErr := Unmarshal([]byte(s))

		if wantErr != nil {
			require.Error(t, gotErr, s)
			continue
		}

		require.NoError(t, gotErr, s)
		require.Equal(t, want, got, s)
	}
}
