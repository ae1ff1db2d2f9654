// Hard cases for Go: runes, raw strings, methods.
package hard

import (
	"fmt"
	"strings"
)

type Reader struct {
	buf []byte
}

type Generic[T any] struct {
	items []T
}

type Doer interface {
	Do() error
}

func runes() rune {
	r := '}'
	s := '{'
	q := '\''
	return r + s + q
}

func rawStrings() string {
	return `raw } with "quotes" and { ` + "}"
}

func (r *Reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n := copy(p, r.buf)
	return n, nil
}

func (g Generic[T]) Len() int {
	return len(g.items)
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func closures() func() string {
	inner := func() string {
		return strings.Repeat("}", 2)
	}
	return func() string {
		defer func() {
			fmt.Println("{")
		}()
		return inner()
	}
}

func multiLine(
	a int,
	b string,
) (int, error) {
	switch {
	case a > 0:
		return a, nil
	default:
		return 0, fmt.Errorf("%s}", b)
	}
}
