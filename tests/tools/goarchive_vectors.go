// goarchive_vectors: the SHA-256 sums tests/unit/test_goarchive.c expects:
// the same zip and tar.gz entries written by Go's archive/zip, archive/tar
// and compress/gzip.  Not run by any test: `go run tests/tools/goarchive_vectors.go`.

package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

func text(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %d of the archive test\n", i)
	}
	return b.Bytes()[:n]
}

func main() {
	// zip
	var zb bytes.Buffer
	w := zip.NewWriter(&zb)
	f, _ := w.Create("a.txt")
	f.Write([]byte("x"))
	f, _ = w.Create("dir/ünï.txt")
	f.Write(text(2000))
	f, _ = w.Create("tab\there~")
	f.Write(nil)
	for _, m := range []os.FileMode{0755, 0444, 0755 | os.ModeSetuid, os.FileMode(666)} {
		fh := &zip.FileHeader{Name: fmt.Sprintf("m%o", uint32(m)), Method: zip.Deflate}
		fh.SetModTime(time.Time{})
		fh.SetMode(m)
		f, _ = w.CreateHeader(fh)
		f.Write(text(100000))
	}
	w.Close()
	fmt.Printf("zip %d %x\n", zb.Len(), sha256.Sum256(zb.Bytes()))
	// tar.gz
	var tb bytes.Buffer
	gz := gzip.NewWriter(&tb)
	tw := tar.NewWriter(gz)
	long := strings.Repeat("d", 60) + "/" + strings.Repeat("e", 50) + "/" + strings.Repeat("f", 90)
	add := func(name string, mode int64, data []byte, pieces bool) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Size: int64(len(data)), Mode: mode, ModTime: time.Time{}}); err != nil {
			panic(err)
		}
		if pieces {
			io.CopyBuffer(struct{ io.Writer }{tw}, struct{ io.Reader }{bytes.NewReader(data)}, make([]byte, 32768))
		} else {
			tw.Write(data)
		}
	}
	add("empty", 0600, nil, false)
	add(long, 0644, text(700), false)
	add("big-pieces", 0755, text(200000), true)
	add("big-whole", 0755, text(200000), false)
	tw.Close()
	gz.Close()
	fmt.Printf("tgz %d %x\n", tb.Len(), sha256.Sum256(tb.Bytes()))
}
