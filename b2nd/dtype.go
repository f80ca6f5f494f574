package b2nd

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/blosc2go/blosc2"
)

// MaxItemSize is the largest element a DType may describe: the largest
// typesize a Blosc2 chunk accepts.
const MaxItemSize = blosc2.MaxTypeSize

// maxDTypeDepth bounds the nesting of structured and subarray types.
const maxDTypeDepth = 32

// DType is a parsed NumPy dtype description, as python-blosc2 stores it in
// the b2nd metalayer (dtype_format 0): a type string such as "<f8", "|u1",
// "<U5", "<M8[ns]", or a structured type written as Python's str(dtype),
// e.g. "[('a', '<i4'), ('b', '<f8', (2,))]".
type DType struct {
	// Kind is NumPy's kind character: 'b' (bool), 'i', 'u', 'f', 'c',
	// 'm' (timedelta), 'M' (datetime), 'S' (bytes), 'U' (UCS-4 text),
	// 'O' (object) or 'V' (void: raw bytes, structured and subarray types).
	Kind byte
	// Order is the byte order: '<' little-endian, '>' big-endian, '|' not
	// applicable (one-byte, bytes and void types).
	Order byte
	// Size is the item size in bytes: the array's typesize.
	Size int
	// Unit is the datetime or timedelta unit, such as "ns" or "10us"
	// ("" for generic); empty for other kinds.
	Unit string
	// Fields are the members of a structured type, in order.
	Fields []Field
	// Base and Shape describe a subarray type: Shape elements of Base.
	Base  *DType
	Shape []int
	// explicit records that a structured type needs NumPy's dict form
	// (offsets with gaps, or an item size beyond the last field).
	explicit bool
	aligned  bool
}

// Field is one member of a structured DType.
type Field struct {
	Name   string
	Title  string // optional title (NumPy's (title, name) pairs)
	Offset int    // byte offset in the item
	Type   DType
}

// ParseDType parses a NumPy dtype string. It accepts NumPy's type strings
// ("<f8", "|b1", ">i2", "<U5", "|S10", "|V8", "<M8[ns]"), the shorthand
// forms np.dtype accepts ("f8", "float64", "uint8", "bool", "d"),
// comma-separated lists ("i4,f8"), and Python literals of structured types
// in list or dict form as str(dtype) prints them. Errors wrap
// blosc2.ErrInvalidOption, or blosc2.ErrUnsupported for valid NumPy types
// an array cannot hold (object, zero-size).
func ParseDType(s string) (DType, error) {
	d, err := parseDType(s)
	if err != nil {
		return DType{}, err
	}
	if d.Size <= 0 {
		return DType{}, fmt.Errorf("%w: dtype %q has item size 0", blosc2.ErrUnsupported, s)
	}
	if d.hasObject() {
		return DType{}, fmt.Errorf("%w: dtype %q holds Python objects", blosc2.ErrUnsupported, s)
	}
	return d, nil
}

func parseDType(s string) (DType, error) { return parseDTypeDepth(s, 0) }

func parseDTypeDepth(s string, depth int) (DType, error) {
	if depth > maxDTypeDepth {
		return DType{}, fmt.Errorf("%w: dtype nested more than %d levels", blosc2.ErrInvalidOption, maxDTypeDepth)
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return DType{}, fmt.Errorf("%w: empty dtype", blosc2.ErrInvalidOption)
	}
	wrap := func(d DType, err error) (DType, error) {
		if err != nil && !errors.Is(err, blosc2.ErrInvalidOption) {
			err = fmt.Errorf("%w: dtype %q: %v", blosc2.ErrInvalidOption, s, err)
		}
		return d, err
	}
	if t[0] == '[' || t[0] == '{' {
		return wrap(parseLiteral(t, depth))
	}
	if parts := splitTop(t); len(parts) > 1 {
		// "i4,(2,3)f8": fields f0, f1, ...
		var fields []pyValue
		for i, part := range parts {
			fields = append(fields, pyValue{kind: pyTuple, items: []pyValue{
				{kind: pyStr, str: "f" + strconv.Itoa(i)}, {kind: pyStr, str: strings.TrimSpace(part)},
			}})
		}
		return wrap(dtypeFromValue(pyValue{kind: pyList, items: fields}, depth+1))
	}
	if dims, rest, ok := shapePrefix(t); ok {
		// "3f4", "(2,3)f4": a subarray type.
		base, err := parseDTypeDepth(rest, depth+1)
		if err != nil {
			return DType{}, err
		}
		return wrap(subarray(base, dims))
	}
	if t[0] == '(' {
		return wrap(parseLiteral(t, depth))
	}
	return wrap(parseSimple(t))
}

func parseLiteral(t string, depth int) (DType, error) {
	p := &pyParser{s: t}
	v, err := p.parse()
	if err != nil {
		return DType{}, err
	}
	return dtypeFromValue(v, depth+1)
}

// splitTop splits t at the commas outside parentheses, brackets, braces
// and quotes.
func splitTop(t string) []string {
	var parts []string
	level, start := 0, 0
	var quote byte
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			level++
		case c == ')' || c == ']' || c == '}':
			level--
		case c == ',' && level == 0:
			parts = append(parts, t[start:i])
			start = i + 1
		}
	}
	return append(parts, t[start:])
}

// shapePrefix recognises NumPy's "3f4" and "(2,3)f4" forms: a repeat
// count or a shape before a type.
func shapePrefix(t string) (pyValue, string, bool) {
	if t[0] >= '0' && t[0] <= '9' {
		j := 0
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		n, err := strconv.ParseInt(t[:j], 10, 64)
		if err != nil || j == len(t) {
			return pyValue{}, "", false
		}
		return pyValue{kind: pyInt, num: n}, t[j:], true
	}
	if t[0] != '(' {
		return pyValue{}, "", false
	}
	j := strings.IndexByte(t, ')')
	if j < 0 || j == len(t)-1 || strings.Trim(t[1:j], "0123456789, ") != "" {
		return pyValue{}, "", false
	}
	p := &pyParser{s: t[:j+1]}
	v, err := p.parse()
	if err != nil {
		return pyValue{}, "", false
	}
	if v.kind == pyInt {
		v = pyValue{kind: pyTuple, items: []pyValue{v}}
	}
	return v, t[j+1:], true
}

// namedTypes are the type names np.dtype accepts, as type strings on a
// little-endian 64-bit Linux machine.
var namedTypes = map[string]string{
	"bool": "|b1", "bool_": "|b1", "bool8": "|b1", "?": "|b1",
	"int8": "|i1", "byte": "|i1", "b": "|i1",
	"uint8": "|u1", "ubyte": "|u1", "B": "|u1",
	"int16": "<i2", "short": "<i2", "h": "<i2",
	"uint16": "<u2", "ushort": "<u2", "H": "<u2",
	"int32": "<i4", "intc": "<i4", "i": "<i4",
	"uint32": "<u4", "uintc": "<u4", "I": "<u4",
	"int64": "<i8", "int": "<i8", "int_": "<i8", "intp": "<i8", "long": "<i8", "longlong": "<i8", "l": "<i8", "q": "<i8", "p": "<i8",
	"uint64": "<u8", "uint": "<u8", "uintp": "<u8", "ulong": "<u8", "ulonglong": "<u8", "L": "<u8", "Q": "<u8", "P": "<u8",
	"float16": "<f2", "half": "<f2", "e": "<f2",
	"float32": "<f4", "single": "<f4", "f": "<f4",
	"float64": "<f8", "double": "<f8", "float": "<f8", "float_": "<f8", "d": "<f8",
	"longdouble": "<f16", "float128": "<f16", "g": "<f16",
	"complex64": "<c8", "csingle": "<c8", "F": "<c8",
	"complex128": "<c16", "cdouble": "<c16", "complex": "<c16", "complex_": "<c16", "D": "<c16",
	"clongdouble": "<c32", "complex256": "<c32", "G": "<c32",
	"bytes": "|S0", "bytes_": "|S0", "string_": "|S0", "S": "|S0", "a": "|S0",
	"str": "<U0", "str_": "<U0", "unicode": "<U0", "U": "<U0",
	"void": "|V0", "V": "|V0",
	"object": "|O", "object_": "|O", "O": "|O",
	"datetime64": "<M8", "M": "<M8", "M8": "<M8",
	"timedelta64": "<m8", "m": "<m8", "m8": "<m8",
}

// parseSimple parses a non-structured type string.
func parseSimple(t string) (DType, error) {
	if n, ok := namedTypes[t]; ok {
		t = n
	} else if strings.HasPrefix(t, "datetime64[") || strings.HasPrefix(t, "timedelta64[") {
		k := "<M8"
		if t[0] == 't' {
			k = "<m8"
		}
		t = k + t[strings.IndexByte(t, '['):]
	}
	order := byte('=')
	switch t[0] {
	case '<', '>', '|', '=':
		order = t[0]
		t = t[1:]
	}
	if t == "" {
		return DType{}, fmt.Errorf("missing kind")
	}
	kind := t[0]
	rest := t[1:]
	unit := ""
	if kind == 'M' || kind == 'm' {
		if i := strings.IndexByte(rest, '['); i >= 0 {
			if !strings.HasSuffix(rest, "]") {
				return DType{}, fmt.Errorf("bad datetime unit")
			}
			unit = rest[i+1 : len(rest)-1]
			rest = rest[:i]
			if !validUnit(unit) {
				return DType{}, fmt.Errorf("bad datetime unit %q", unit)
			}
		}
	}
	size := -1
	if rest != "" {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 || rest[0] == '+' || rest[0] == '-' {
			return DType{}, fmt.Errorf("bad size %q", rest)
		}
		size = n
	}
	d := DType{Kind: kind}
	switch kind {
	case 'b', '?':
		d.Kind = 'b'
		if size == -1 && kind == 'b' {
			// NumPy's char code 'b' alone is int8; only "b1" is bool.
			d.Kind, size = 'i', 1
		}
		if size != 1 && d.Kind == 'b' {
			return DType{}, fmt.Errorf("bool of %d bytes", size)
		}
		d.Size = 1
	case 'i', 'u':
		if size == -1 {
			size = map[byte]int{'i': 4, 'u': 4}[kind]
		}
		if size != 1 && size != 2 && size != 4 && size != 8 {
			return DType{}, fmt.Errorf("integer of %d bytes", size)
		}
		d.Size = size
	case 'f':
		if size == -1 {
			size = 4
		}
		if size != 2 && size != 4 && size != 8 && size != 12 && size != 16 {
			return DType{}, fmt.Errorf("float of %d bytes", size)
		}
		d.Size = size
	case 'c':
		if size == -1 {
			size = 8
		}
		if size != 8 && size != 16 && size != 24 && size != 32 {
			return DType{}, fmt.Errorf("complex of %d bytes", size)
		}
		d.Size = size
	case 'M', 'm':
		if size == -1 {
			size = 8
		}
		if size != 8 {
			return DType{}, fmt.Errorf("datetime of %d bytes", size)
		}
		d.Size, d.Unit = 8, unit
	case 'S', 'a', 'V':
		if kind == 'a' {
			d.Kind = 'S'
		}
		if size == -1 {
			size = 0
		}
		d.Size = size
	case 'U':
		if size == -1 {
			size = 0
		}
		if size > MaxItemSize/4 {
			return DType{}, fmt.Errorf("%d characters is too large", size)
		}
		d.Size = 4 * size
	case 'O':
		if size != -1 && size != 8 {
			return DType{}, fmt.Errorf("object of %d bytes", size)
		}
		d.Size = 8
	default:
		return DType{}, fmt.Errorf("unknown kind %q", kind)
	}
	if d.Size > MaxItemSize {
		return DType{}, fmt.Errorf("item size %d exceeds %d", d.Size, MaxItemSize)
	}
	switch {
	case d.Size == 1 && d.Kind != 'U', d.Kind == 'S', d.Kind == 'V', d.Kind == 'b':
		d.Order = '|'
	case order == '>':
		d.Order = '>'
	case order == '|':
		// NumPy accepts '|' only where byte order does not apply; for wider
		// types it means native.
		d.Order = '<'
	default:
		d.Order = '<'
	}
	return d, nil
}

func validUnit(u string) bool {
	i := 0
	for i < len(u) && u[i] >= '0' && u[i] <= '9' {
		i++
	}
	if i > 9 {
		return false
	}
	switch u[i:] {
	case "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "μs", "ns", "ps", "fs", "as", "generic":
		return true
	}
	return false
}

// dtypeFromValue interprets a parsed Python literal as np.dtype would.
func dtypeFromValue(v pyValue, depth int) (DType, error) {
	if depth > maxDTypeDepth {
		return DType{}, fmt.Errorf("nested more than %d levels", maxDTypeDepth)
	}
	switch v.kind {
	case pyStr:
		return parseDTypeDepth(v.str, depth+1)
	case pyList:
		return structFromList(v.items, depth)
	case pyDict:
		return structFromDict(v, depth)
	case pyTuple:
		// (base, shape): a subarray type.
		if len(v.items) != 2 {
			return DType{}, fmt.Errorf("a type tuple has 2 elements, not %d", len(v.items))
		}
		base, err := dtypeFromValue(v.items[0], depth+1)
		if err != nil {
			return DType{}, err
		}
		return subarray(base, v.items[1])
	}
	return DType{}, fmt.Errorf("not a type description")
}

// subarray builds the type of shape elements of base.
func subarray(base DType, shape pyValue) (DType, error) {
	var dims []int
	switch shape.kind {
	case pyInt:
		dims = []int{int(shape.num)}
	case pyTuple, pyList:
		for _, x := range shape.items {
			if x.kind != pyInt {
				return DType{}, fmt.Errorf("subarray shape holds a non-integer")
			}
			dims = append(dims, int(x.num))
		}
	default:
		return DType{}, fmt.Errorf("bad subarray shape")
	}
	if len(dims) > MaxDim*2 {
		return DType{}, fmt.Errorf("subarray of %d dimensions", len(dims))
	}
	n := int64(1)
	for _, x := range dims {
		if x < 0 {
			return DType{}, fmt.Errorf("negative subarray dimension %d", x)
		}
		n *= int64(x)
		if n*int64(base.Size) > MaxItemSize {
			return DType{}, fmt.Errorf("subarray exceeds %d bytes", MaxItemSize)
		}
	}
	if shape.kind == pyInt && dims[0] == 1 {
		return base, nil // np.dtype(('f4', 1)) is plain f4
	}
	b := base
	return DType{Kind: 'V', Order: '|', Size: int(n) * base.Size, Base: &b, Shape: dims}, nil
}

func structFromList(items []pyValue, depth int) (DType, error) {
	d := DType{Kind: 'V', Order: '|'}
	seen := map[string]bool{}
	for _, it := range items {
		if it.kind != pyTuple || len(it.items) < 2 || len(it.items) > 3 {
			return DType{}, fmt.Errorf("a field is a (name, type[, shape]) tuple")
		}
		var f Field
		switch n := it.items[0]; {
		case n.kind == pyStr:
			f.Name = n.str
		case n.kind == pyTuple && len(n.items) == 2 && n.items[0].kind == pyStr && n.items[1].kind == pyStr:
			f.Title, f.Name = n.items[0].str, n.items[1].str
		default:
			return DType{}, fmt.Errorf("bad field name")
		}
		if seen[f.Name] {
			return DType{}, fmt.Errorf("field %q appears twice", f.Name)
		}
		seen[f.Name] = true
		ft, err := dtypeFromValue(it.items[1], depth+1)
		if err != nil {
			return DType{}, err
		}
		if len(it.items) == 3 {
			if ft, err = subarray(ft, it.items[2]); err != nil {
				return DType{}, err
			}
		}
		f.Offset = d.Size
		f.Type = ft
		if d.Size+ft.Size > MaxItemSize {
			return DType{}, fmt.Errorf("structure exceeds %d bytes", MaxItemSize)
		}
		d.Size += ft.Size
		d.Fields = append(d.Fields, f)
	}
	return d, nil
}

func structFromDict(v pyValue, depth int) (DType, error) {
	get := func(k string) (pyValue, bool) {
		for i, key := range v.keys {
			if key.kind == pyStr && key.str == k {
				return v.items[i], true
			}
		}
		return pyValue{}, false
	}
	for _, key := range v.keys {
		if key.kind != pyStr {
			return DType{}, fmt.Errorf("dict key is not a string")
		}
		switch key.str {
		case "names", "formats", "offsets", "titles", "itemsize", "aligned":
		default:
			return DType{}, fmt.Errorf("unknown dict key %q", key.str)
		}
	}
	names, ok1 := get("names")
	formats, ok2 := get("formats")
	if !ok1 || !ok2 || (names.kind != pyList && names.kind != pyTuple) || (formats.kind != pyList && formats.kind != pyTuple) ||
		len(names.items) != len(formats.items) {
		return DType{}, fmt.Errorf("dict form needs names and formats of equal length")
	}
	offsets, hasOff := get("offsets")
	if hasOff && ((offsets.kind != pyList && offsets.kind != pyTuple) || len(offsets.items) != len(names.items)) {
		return DType{}, fmt.Errorf("offsets do not match names")
	}
	titles, hasTitles := get("titles")
	if hasTitles && titles.kind != pyNone && ((titles.kind != pyList && titles.kind != pyTuple) || len(titles.items) != len(names.items)) {
		return DType{}, fmt.Errorf("titles do not match names")
	}
	d := DType{Kind: 'V', Order: '|', explicit: hasOff}
	if a, ok := get("aligned"); ok && a.kind == pyBool && a.num != 0 {
		d.aligned = true
	}
	end := 0
	seen := map[string]bool{}
	for i := range names.items {
		n := names.items[i]
		if n.kind != pyStr {
			return DType{}, fmt.Errorf("field name is not a string")
		}
		if seen[n.str] {
			return DType{}, fmt.Errorf("field %q appears twice", n.str)
		}
		seen[n.str] = true
		ft, err := dtypeFromValue(formats.items[i], depth+1)
		if err != nil {
			return DType{}, err
		}
		f := Field{Name: n.str, Type: ft, Offset: end}
		if hasOff {
			o := offsets.items[i]
			if o.kind != pyInt || o.num < 0 || o.num > MaxItemSize {
				return DType{}, fmt.Errorf("bad offset")
			}
			f.Offset = int(o.num)
		}
		if hasTitles && titles.kind != pyNone {
			switch t := titles.items[i]; t.kind {
			case pyStr:
				f.Title = t.str
			case pyNone:
			default:
				return DType{}, fmt.Errorf("bad title")
			}
		}
		if f.Offset+ft.Size > MaxItemSize {
			return DType{}, fmt.Errorf("structure exceeds %d bytes", MaxItemSize)
		}
		end = max(end, f.Offset+ft.Size)
		if !hasOff {
			end = f.Offset + ft.Size
		}
		d.Fields = append(d.Fields, f)
	}
	d.Size = end
	if is, ok := get("itemsize"); ok {
		if is.kind != pyInt || is.num < int64(end) || is.num > MaxItemSize {
			return DType{}, fmt.Errorf("itemsize smaller than the fields")
		}
		if int(is.num) != end {
			d.explicit = true
		}
		d.Size = int(is.num)
	}
	if d.explicit {
		// Packed offsets need no dict form; keep it only when it matters.
		off := 0
		packed := d.Size == sumSizes(d.Fields)
		for _, f := range d.Fields {
			if f.Offset != off {
				packed = false
			}
			off += f.Type.Size
		}
		d.explicit = !packed
	}
	return d, nil
}

func sumSizes(fs []Field) int {
	n := 0
	for _, f := range fs {
		n += f.Type.Size
	}
	return n
}

func (d *DType) hasObject() bool {
	if d.Kind == 'O' {
		return true
	}
	if d.Base != nil && d.Base.hasObject() {
		return true
	}
	for i := range d.Fields {
		if d.Fields[i].Type.hasObject() {
			return true
		}
	}
	return false
}

// Structured reports whether d has fields.
func (d DType) Structured() bool { return d.Fields != nil }

// String returns the description python-blosc2 stores: NumPy's dtype.str
// for plain types ("<f8", "|u1", "<U5", "<M8[ns]"), Python's str(dtype)
// for structured ones.
func (d DType) String() string {
	var b strings.Builder
	d.write(&b)
	return b.String()
}

func (d *DType) write(b *strings.Builder) {
	switch {
	case d.Fields != nil && d.explicit:
		b.WriteString("{'names': [")
		for i, f := range d.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyQuote(f.Name))
		}
		b.WriteString("], 'formats': [")
		for i, f := range d.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			f.Type.writeFormat(b)
		}
		b.WriteString("], 'offsets': [")
		for i, f := range d.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(f.Offset))
		}
		b.WriteString("]")
		if hasTitles(d.Fields) {
			b.WriteString(", 'titles': [")
			for i, f := range d.Fields {
				if i > 0 {
					b.WriteString(", ")
				}
				if f.Title == "" {
					b.WriteString("None")
				} else {
					b.WriteString(pyQuote(f.Title))
				}
			}
			b.WriteString("]")
		}
		fmt.Fprintf(b, ", 'itemsize': %d", d.Size)
		if d.aligned {
			b.WriteString(", 'aligned': True")
		}
		b.WriteString("}")
	case d.Fields != nil:
		b.WriteString("[")
		for i, f := range d.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(")
			if f.Title != "" {
				b.WriteString("(" + pyQuote(f.Title) + ", " + pyQuote(f.Name) + ")")
			} else {
				b.WriteString(pyQuote(f.Name))
			}
			b.WriteString(", ")
			t := &f.Type
			if t.Base != nil {
				t.Base.writeFormat(b)
				b.WriteString(", ")
				writeShape(b, t.Shape)
			} else {
				t.writeFormat(b)
			}
			b.WriteString(")")
		}
		b.WriteString("]")
	case d.Base != nil:
		b.WriteString("(")
		d.Base.writeFormat(b)
		b.WriteString(", ")
		writeShape(b, d.Shape)
		b.WriteString(")")
	default:
		b.WriteByte(d.Order)
		b.WriteByte(d.Kind)
		n := d.Size
		if d.Kind == 'U' {
			n /= 4
		}
		b.WriteString(strconv.Itoa(n))
		if d.Unit != "" {
			b.WriteString("[" + d.Unit + "]")
		}
	}
}

// writeFormat writes d where a Python literal expects a type: plain types
// quoted, structured ones as nested literals.
func (d *DType) writeFormat(b *strings.Builder) {
	if d.Fields == nil && d.Base == nil {
		b.WriteString(pyQuote(d.nestedString()))
		return
	}
	d.write(b)
}

// nestedString is a plain type as NumPy writes it inside a structured
// or subarray type: without the '|' byte order, bool as "?", and zero-size
// flexible types without their size.
func (d *DType) nestedString() string {
	switch {
	case d.Kind == 'b':
		return "?"
	case d.Order == '|' && d.Size == 0:
		return string(d.Kind)
	case d.Order == '|':
		return string(d.Kind) + strconv.Itoa(d.Size)
	}
	return d.String()
}

func hasTitles(fs []Field) bool {
	for _, f := range fs {
		if f.Title != "" {
			return true
		}
	}
	return false
}

func writeShape(b *strings.Builder, dims []int) {
	b.WriteString("(")
	for i, x := range dims {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(x))
	}
	if len(dims) == 1 {
		b.WriteString(",")
	}
	b.WriteString(")")
}

// pyQuote is Python's repr of a str.
func pyQuote(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteByte(q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}
