package foreign

import "math"

// Reading a record's fields without allocating.

// byName returns the code whose name is s in names, the engine's list of
// one code's names (engine.KindNames, BoundNames, CauseNames), indexed by
// code.
func byName[T ~uint8](names []string, s []byte) (T, bool) {
	for i, n := range names {
		if n == string(s) {
			return T(i), true
		}
	}
	return 0, false
}

// splitInto splits b on spaces into dst's backing array (no allocation
// while it fits) and returns the fields.
func splitInto(b []byte, dst [][]byte) [][]byte {
	out := dst[:0]
	i := 0
	for i < len(b) {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' {
			j++
		}
		if j > i {
			out = append(out, b[i:j])
		}
		i = j
	}
	return out
}

func fields(b []byte) [][]byte { return splitInto(b, nil) }

func cut(b []byte) (word, rest []byte) {
	b = trimSpace(b)
	for i, c := range b {
		if c == ' ' || c == '\t' {
			return b[:i], trimSpace(b[i+1:])
		}
	}
	return b, nil
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// maxInt bounds the stream's numbers either way: an int32, less its
// minimum, whose negation (a child's score seen from its parent)
// overflows: a child's score of -2147483648 made its parent's fail high
// read as no cutoff.
const maxInt = 1<<31 - 1

// atoi parses a decimal within maxInt either way without allocating.
func atoi(b []byte) (int, bool) {
	x, ok := atoi64(b)
	if !ok || x < -maxInt || x > maxInt {
		return 0, false
	}
	return int(x), true
}

func atoi64(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	neg := false
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		b = b[1:]
		if len(b) == 0 {
			return 0, false
		}
	}
	var x int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if x > (math.MaxInt64-d)/10 {
			return 0, false // out of int64's range
		}
		x = x*10 + d
	}
	if neg {
		x = -x
	}
	return x, true
}
