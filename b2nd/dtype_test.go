package b2nd

import (
	"errors"
	"testing"

	"github.com/blosc2go/blosc2"
)

func TestParseDType(t *testing.T) {
	for _, c := range []struct {
		in   string
		size int
		str  string
	}{
		{"<f8", 8, "<f8"}, {"|u1", 1, "|u1"}, {"|i1", 1, "|i1"}, {">f8", 8, ">f8"}, {"<c16", 16, "<c16"},
		{"|b1", 1, "|b1"}, {"|S10", 10, "|S10"}, {"<U5", 20, "<U5"}, {">U3", 12, ">U3"},
		{"<M8[ns]", 8, "<M8[ns]"}, {"<m8[s]", 8, "<m8[s]"}, {"<M8", 8, "<M8"}, {"<M8[10us]", 8, "<M8[10us]"},
		{"|V8", 8, "|V8"}, {"<f2", 2, "<f2"}, {"<f16", 16, "<f16"}, {"<c32", 32, "<c32"},
		{"f8", 8, "<f8"}, {"float64", 8, "<f8"}, {"float32", 4, "<f4"}, {"uint8", 1, "|u1"}, {"int16", 2, "<i2"},
		{"bool", 1, "|b1"}, {"?", 1, "|b1"}, {"b", 1, "|i1"}, {"B", 1, "|u1"}, {"d", 8, "<f8"}, {"i", 4, "<i4"},
		{"=i4", 4, "<i4"}, {">u1", 1, "|u1"}, {"<S3", 3, "|S3"}, {"S4", 4, "|S4"}, {"a5", 5, "|S5"},
		{"complex64", 8, "<c8"}, {"datetime64[ms]", 8, "<M8[ms]"}, {"timedelta64[D]", 8, "<m8[D]"},
		{"U2", 8, "<U2"},
		{"[('a', '<i4'), ('b', '<f8')]", 12, "[('a', '<i4'), ('b', '<f8')]"},
		{`[("a", "<i4"), ("b", ">f8", (2, 3))]`, 52, "[('a', '<i4'), ('b', '>f8', (2, 3))]"},
		{"[('x', '<f4', (3,))]", 12, "[('x', '<f4', (3,))]"},
		{"[('p', [('x', '<f4'), ('y', '<f4')]), ('t', '<M8[us]')]", 16, "[('p', [('x', '<f4'), ('y', '<f4')]), ('t', '<M8[us]')]"},
		{"[(('Title', 'n'), '<i2')]", 2, "[(('Title', 'n'), '<i2')]"},
		{"[('it\\'s', '|u1')]", 1, `[("it's", 'u1')]`},
		{"i4,f8", 12, "[('f0', '<i4'), ('f1', '<f8')]"},
		{"{'names': ['a', 'b'], 'formats': ['<i4', '<f8'], 'offsets': [0, 8], 'itemsize': 16}", 16,
			"{'names': ['a', 'b'], 'formats': ['<i4', '<f8'], 'offsets': [0, 8], 'itemsize': 16}"},
		{"{'names': ['a', 'b'], 'formats': ['<i4', '<f8'], 'offsets': [0, 4], 'itemsize': 12}", 12,
			"[('a', '<i4'), ('b', '<f8')]"},
		{"{'names': ['a'], 'formats': ['<i4'], 'offsets': [4], 'itemsize': 8, 'aligned': True}", 8,
			"{'names': ['a'], 'formats': ['<i4'], 'offsets': [4], 'itemsize': 8, 'aligned': True}"},
		{"{'names': ['a', 'b'], 'formats': ['u1', ('<f4', (2,))]}", 9, "[('a', 'u1'), ('b', '<f4', (2,))]"},
		{"u1,(2,3)f4", 25, "[('f0', 'u1'), ('f1', '<f4', (2, 3))]"}, {"3f4", 12, "('<f4', (3,))"},
		{"(2,)i4", 8, "('<i4', (2,))"}, {"2i4, (2,3)f4", 32, "[('f0', '<i4', (2,)), ('f1', '<f4', (2, 3))]"},
		{"[('a', 'S3'), ('b', '<U2'), ('c', '?'), ('d', '|V2')]", 14, "[('a', 'S3'), ('b', '<U2'), ('c', '?'), ('d', 'V2')]"},
		{"('<i2', (2, 2))", 8, "('<i2', (2, 2))"},
	} {
		d, err := ParseDType(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if d.Size != c.size || d.String() != c.str {
			t.Errorf("%q: size %d string %q, want %d %q", c.in, d.Size, d.String(), c.size, c.str)
		}
		// The canonical string parses to the same thing.
		d2, err := ParseDType(d.String())
		if err != nil || d2.Size != d.Size || d2.String() != d.String() {
			t.Errorf("%q: reparsed %v %q %v", c.in, d2.Size, d2.String(), err)
		}
	}
}

func TestParseDTypeErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		want error
	}{
		{"", blosc2.ErrInvalidOption}, {"<", blosc2.ErrInvalidOption}, {"<f3", blosc2.ErrInvalidOption},
		{"<i16", blosc2.ErrInvalidOption}, {"|b2", blosc2.ErrInvalidOption}, {"<x4", blosc2.ErrInvalidOption},
		{"<M8[lightyears]", blosc2.ErrInvalidOption}, {"<M4", blosc2.ErrInvalidOption}, {"<i-4", blosc2.ErrInvalidOption},
		{"[('a', '<i4'), ('a', '<f8')]", blosc2.ErrInvalidOption}, {"[('a', '<i4')", blosc2.ErrInvalidOption},
		{"[('a')]", blosc2.ErrInvalidOption}, {"[('a', '<i4', (-1,))]", blosc2.ErrInvalidOption},
		{"[('a', '<i4', (1000000, 1000000))]", blosc2.ErrInvalidOption},
		{"|S999999999999", blosc2.ErrInvalidOption}, {"<U999999999", blosc2.ErrInvalidOption},
		{"{'names': ['a'], 'formats': ['<i4'], 'itemsize': 2}", blosc2.ErrInvalidOption},
		{"{'names': ['a'], 'formats': ['<i4', '<i4']}", blosc2.ErrInvalidOption},
		{"{'names': ['a'], 'formats': ['<i4'], 'bogus': 1}", blosc2.ErrInvalidOption},
		{"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", blosc2.ErrInvalidOption},
		{"[]", blosc2.ErrUnsupported}, {"|S0", blosc2.ErrUnsupported}, {"|O", blosc2.ErrUnsupported},
		{"[('a', 'O')]", blosc2.ErrUnsupported},
	} {
		if _, err := ParseDType(c.in); !errors.Is(err, c.want) {
			t.Errorf("%q: %v, want %v", c.in, err, c.want)
		}
	}
}
