package b2nd

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// numpyDescribe is what python-blosc2 does with a dtype: it reads the
// stored string with np.dtype (falling back to ast.literal_eval), and
// writes dtype.str for plain types, str(dtype) for void/structured ones.
const numpyDescribe = `
import ast, sys
import numpy as np
for line in sys.stdin:
    s = line.rstrip("\n").encode().decode("unicode_escape")
    try:
        try:
            d = np.dtype(s)
        except Exception:
            d = np.dtype(ast.literal_eval(s))
        out = str(d) if d.kind == "V" else d.str
        print(d.itemsize, out.encode("unicode_escape").decode())
    except Exception as e:
        print(-1, type(e).__name__)
`

// TestNumPyDTypes checks our dtype parser against NumPy's: the item size
// of every accepted string, and that our canonical form is the string
// python-blosc2 would store for the same dtype. It runs only when
// BLOSC2_NUMPY_PYTHON names a Python interpreter with NumPy.
func TestNumPyDTypes(t *testing.T) {
	py := os.Getenv("BLOSC2_NUMPY_PYTHON")
	if py == "" {
		t.Skip("BLOSC2_NUMPY_PYTHON is not set")
	}
	inputs := []string{
		"<f8", "|u1", "|i1", ">f8", "<c16", "|b1", "|S10", "<U5", ">U3", "<M8[ns]", "<m8[s]", "<M8", "<M8[10us]",
		"|V8", "<f2", "<c8", "f8", "float64", "float32", "uint8", "int16", "bool", "?", "b", "B", "d", "i",
		"=i4", ">u1", "<S3", "S4", "U2", "complex64", "datetime64[ms]", "timedelta64[D]", "<i8", ">u2", "int64", "uint64",
		"[('a', '<i4'), ('b', '<f8')]", `[("a", "<i4"), ("b", ">f8", (2, 3))]`, "[('x', '<f4', (3,))]",
		"[('p', [('x', '<f4'), ('y', '<f4')]), ('t', '<M8[us]')]", "[(('Title', 'n'), '<i2')]",
		"i4,f8", "u1,(2,3)f4",
		"{'names': ['a', 'b'], 'formats': ['<i4', '<f8'], 'offsets': [0, 8], 'itemsize': 16}",
		"{'names': ['a', 'b'], 'formats': ['<i4', '<f8'], 'offsets': [0, 4], 'itemsize': 12}",
		"{'names': ['a'], 'formats': ['<i4'], 'offsets': [4], 'itemsize': 8, 'aligned': True}",
		"{'names': ['a', 'b'], 'formats': ['u1', ('<f4', (2,))]}",
		"('<i2', (2, 2))", "3f4", "(2,)i4", "2i4, (2,3)f4", "('u1', (3,))", "[('a', [('x', 'u1')], (2,))]",
		"[('a', '|i1'), ('b', '|b1'), ('c', '|V8'), ('d', '<M8[ns]'), ('e', '>U2'), ('g', '<f2'), ('h', '|u1', (2,))]",
		"{'names': ['a', 'b'], 'formats': ['?', ('S2', (2,))], 'offsets': [2, 4], 'itemsize': 12}", "[('a', 'S3'), ('b', '<U2'), ('c', '?')]",
	}
	cmd := exec.Command(py, "-c", numpyDescribe)
	var in strings.Builder
	for _, s := range inputs {
		in.WriteString(strconv.Quote(s)[1:len(strconv.Quote(s))-1] + "\n")
	}
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for i := 0; sc.Scan(); i++ {
		size, desc, _ := strings.Cut(sc.Text(), " ")
		n, _ := strconv.Atoi(size)
		d, err := ParseDType(inputs[i])
		if n < 0 {
			if err == nil {
				t.Errorf("%q: NumPy refuses it (%s), we accept it", inputs[i], desc)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: NumPy accepts it, we do not: %v", inputs[i], err)
			continue
		}
		if d.Size != n || d.String() != desc {
			t.Errorf("%q: ours size %d %q, NumPy's %d %q", inputs[i], d.Size, d.String(), n, desc)
		}
	}
}
