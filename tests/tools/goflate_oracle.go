// goflate_oracle: prints the SHA-256 of Go's compress/flate and compress/gzip
// output for the inputs tests/unit/test_goflate.c generates (same LCG);
// its lines became that test's EXPECT table.  Not run by any test (they
// must not need Go): `go run tests/tools/goflate_oracle.go`.  docs/goflate.md.

package main

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
)

type lcg struct{ x uint64 }

func (l *lcg) next() uint32 {
	l.x = l.x*6364136223846793005 + 1442695040888963407
	return uint32(l.x >> 33)
}

var words = []string{"the ", "quick ", "brown ", "fox ", "jumps ", "over ", "lazy ", "dog ",
	"resource ", "provider ", "archive ", "zip ", "\n", "terraform ", "cairn ", "{ ", "} ", "= "}

func gen(kind int, n int, seed uint64) []byte {
	l := &lcg{seed}
	out := make([]byte, 0, n)
	switch kind {
	case 0: // text
		for len(out) < n {
			out = append(out, words[l.next()%uint32(len(words))]...)
		}
	case 1: // random
		for len(out) < n {
			out = append(out, byte(l.next()>>8))
		}
	case 2: // long repeats
		for len(out) < n {
			out = append(out, "abcabcabcabd"[len(out)%12])
			if l.next()%5000 == 0 {
				out = append(out, byte(l.next()))
			}
		}
	case 3: // small alphabet: many short matches, many blocks
		for len(out) < n {
			out = append(out, 'a'+byte(l.next()%4))
		}
	case 4: // mixed segments
		for len(out) < n {
			k := int(l.next() % 3)
			seg := int(l.next()%3000) + 1
			s := gen([]int{0, 1, 2}[k], seg, uint64(l.next()))
			out = append(out, s...)
		}
	case 5: // zeros
		for len(out) < n {
			out = append(out, 0)
		}
	}
	return out[:n]
}

type input struct {
	name string
	data []byte
}

func inputs() []input {
	return []input{
		{"empty", []byte{}},
		{"one", []byte("a")},
		{"short", []byte("hello, hello, hello world\n")},
		{"text20k", gen(0, 20000, 1)},
		{"random100k", gen(1, 100000, 2)},
		{"repeat300k", gen(2, 300000, 3)},
		{"abcd200k", gen(3, 200000, 4)},
		{"mixed150k", gen(4, 150000, 5)},
		{"text400k", gen(0, 400000, 6)},
		{"zeros70k", gen(5, 70000, 0)},
		{"mixed1m", gen(4, 1<<20, 7)},
	}
}

func comp(level int, data []byte, chunk int) []byte {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, level)
	if err != nil {
		panic(err)
	}
	if chunk == 0 {
		w.Write(data)
	} else {
		io.CopyBuffer(w, bytes.NewReader(data), make([]byte, chunk))
	}
	w.Close()
	return b.Bytes()
}

func main() {
	levels := []int{0, 2, 3, 4, 5, 6, 7, 8, 9, -2}
	for _, in := range inputs() {
		for _, lv := range levels {
			out := comp(lv, in.data, 0)
			fmt.Printf("%s %d %d %x\n", in.name, lv, len(out), sha256.Sum256(out))
		}
		out := comp(5, in.data, 32768)
		fmt.Printf("%s chunk5 %d %x\n", in.name, len(out), sha256.Sum256(out))
		for _, lv := range []int{-1, 9} {
			var b bytes.Buffer
			z, _ := gzip.NewWriterLevel(&b, lv)
			z.Write(in.data)
			z.Close()
			fmt.Printf("%s gzip%d %d %x\n", in.name, lv, b.Len(), sha256.Sum256(b.Bytes()))
		}
	}
}
