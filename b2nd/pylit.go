package b2nd

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The subset of Python literals that str(dtype) produces: strings, integers,
// True/False/None, lists, tuples and dicts.

type pyKind uint8

const (
	pyNone pyKind = iota
	pyBool
	pyInt
	pyStr
	pyList
	pyTuple
	pyDict
)

type pyValue struct {
	kind  pyKind
	num   int64 // pyInt, pyBool
	str   string
	items []pyValue // list and tuple elements, dict values
	keys  []pyValue // dict keys
}

// pyParser is a recursive-descent parser over s.
type pyParser struct {
	s     string
	pos   int
	depth int
	nodes int
}

const (
	maxPyDepth = 64
	maxPyNodes = 1 << 16
)

var errPySyntax = errors.New("malformed Python literal")

func (p *pyParser) parse() (pyValue, error) {
	v, err := p.value()
	if err != nil {
		return v, err
	}
	p.space()
	if p.pos != len(p.s) {
		return v, fmt.Errorf("%w: trailing text at %d", errPySyntax, p.pos)
	}
	return v, nil
}

func (p *pyParser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n' || p.s[p.pos] == '\r') {
		p.pos++
	}
}

func (p *pyParser) value() (pyValue, error) {
	p.space()
	if p.pos >= len(p.s) {
		return pyValue{}, fmt.Errorf("%w: unexpected end", errPySyntax)
	}
	p.nodes++
	if p.nodes > maxPyNodes {
		return pyValue{}, fmt.Errorf("%w: too many elements", errPySyntax)
	}
	switch c := p.s[p.pos]; {
	case c == '[':
		return p.seq(']', pyList)
	case c == '(':
		return p.seq(')', pyTuple)
	case c == '{':
		return p.dict()
	case c == '\'' || c == '"':
		s, err := p.str()
		return pyValue{kind: pyStr, str: s}, err
	case c == 'b' && p.pos+1 < len(p.s) && (p.s[p.pos+1] == '\'' || p.s[p.pos+1] == '"'):
		// Byte strings appear as field names in Python 2 era files.
		p.pos++
		s, err := p.str()
		return pyValue{kind: pyStr, str: s}, err
	case c == '-' || c == '+' || (c >= '0' && c <= '9'):
		start := p.pos
		p.pos++
		for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
			p.pos++
		}
		n, err := strconv.ParseInt(p.s[start:p.pos], 10, 64)
		if err != nil {
			return pyValue{}, fmt.Errorf("%w: bad integer %q", errPySyntax, p.s[start:p.pos])
		}
		return pyValue{kind: pyInt, num: n}, nil
	}
	for _, w := range []struct {
		word string
		v    pyValue
	}{{"True", pyValue{kind: pyBool, num: 1}}, {"False", pyValue{kind: pyBool}}, {"None", pyValue{kind: pyNone}}} {
		if strings.HasPrefix(p.s[p.pos:], w.word) {
			p.pos += len(w.word)
			return w.v, nil
		}
	}
	return pyValue{}, fmt.Errorf("%w: unexpected %q at %d", errPySyntax, p.s[p.pos], p.pos)
}

// seq parses a list or tuple; a one-element tuple needs its trailing comma.
func (p *pyParser) seq(end byte, kind pyKind) (pyValue, error) {
	if p.depth++; p.depth > maxPyDepth {
		return pyValue{}, fmt.Errorf("%w: nested too deeply", errPySyntax)
	}
	defer func() { p.depth-- }()
	p.pos++
	v := pyValue{kind: kind}
	comma := false
	for {
		p.space()
		if p.pos < len(p.s) && p.s[p.pos] == end {
			p.pos++
			if kind == pyTuple && len(v.items) == 1 && !comma {
				return v.items[0], nil // (x) is just x
			}
			return v, nil
		}
		if len(v.items) > 0 && !comma {
			return pyValue{}, fmt.Errorf("%w: missing comma at %d", errPySyntax, p.pos)
		}
		it, err := p.value()
		if err != nil {
			return pyValue{}, err
		}
		v.items = append(v.items, it)
		p.space()
		comma = p.pos < len(p.s) && p.s[p.pos] == ','
		if comma {
			p.pos++
		}
	}
}

func (p *pyParser) dict() (pyValue, error) {
	if p.depth++; p.depth > maxPyDepth {
		return pyValue{}, fmt.Errorf("%w: nested too deeply", errPySyntax)
	}
	defer func() { p.depth-- }()
	p.pos++
	v := pyValue{kind: pyDict}
	comma := false
	for {
		p.space()
		if p.pos < len(p.s) && p.s[p.pos] == '}' {
			p.pos++
			return v, nil
		}
		if len(v.items) > 0 && !comma {
			return pyValue{}, fmt.Errorf("%w: missing comma at %d", errPySyntax, p.pos)
		}
		k, err := p.value()
		if err != nil {
			return pyValue{}, err
		}
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return pyValue{}, fmt.Errorf("%w: missing colon at %d", errPySyntax, p.pos)
		}
		p.pos++
		x, err := p.value()
		if err != nil {
			return pyValue{}, err
		}
		v.keys = append(v.keys, k)
		v.items = append(v.items, x)
		p.space()
		comma = p.pos < len(p.s) && p.s[p.pos] == ','
		if comma {
			p.pos++
		}
	}
}

// str parses a quoted string with Python's common escapes.
func (p *pyParser) str() (string, error) {
	q := p.s[p.pos]
	p.pos++
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == q:
			p.pos++
			return b.String(), nil
		case c == '\n':
			return "", fmt.Errorf("%w: newline in string", errPySyntax)
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		p.pos++
		if p.pos >= len(p.s) {
			break
		}
		e := p.s[p.pos]
		p.pos++
		switch e {
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '0':
			b.WriteByte(0)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if p.pos+n > len(p.s) {
				return "", fmt.Errorf("%w: short escape", errPySyntax)
			}
			r, err := strconv.ParseUint(p.s[p.pos:p.pos+n], 16, 32)
			if err != nil || r > utf8.MaxRune {
				return "", fmt.Errorf("%w: bad escape", errPySyntax)
			}
			p.pos += n
			b.WriteRune(rune(r))
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return "", fmt.Errorf("%w: unterminated string", errPySyntax)
}
