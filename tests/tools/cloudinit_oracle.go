// cloudinit_oracle: prints, for each case on stdin (a JSON list of
// {Name, Gzip, B64, Boundary, Parts: [{ContentType, Content, Filename,
// MergeType}]}), the id (CRC-32 of rendered), length in bytes and SHA-256
// of what the upstream cloudinit provider renders: its two preamble lines,
// then Go's mime/multipart parts with textproto headers, gzip at
// DefaultCompression, standard base64.  The sums in
// tests/e2e/cases/provider_cloudinit came from it (Go 1.19).  Not run by
// any test: `go run tests/tools/cloudinit_oracle.go <
// tests/tools/cloudinit_oracle_cases.json` (the data sources of that case;
// the resource cases are res1/res2 of the same shape).

package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"mime/multipart"
	"net/textproto"
	"os"
)

type Part struct {
	ContentType, Content, Filename, MergeType string
}
type Case struct {
	Name     string
	Gzip     bool
	B64      bool
	Boundary string
	Parts    []Part
}

func render(w io.Writer, bnd string, parts []Part) error {
	mw := multipart.NewWriter(w)
	defer mw.Close()
	if err := mw.SetBoundary(bnd); err != nil {
		return err
	}
	w.Write([]byte(fmt.Sprintf("Content-Type: multipart/mixed; boundary=\"%s\"\n", mw.Boundary())))
	w.Write([]byte("MIME-Version: 1.0\r\n\r\n"))
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		h.Set("Content-Type", p.ContentType)
		h.Set("MIME-Version", "1.0")
		h.Set("Content-Transfer-Encoding", "7bit")
		if p.Filename != "" {
			h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, p.Filename))
		}
		if p.MergeType != "" {
			h.Set("X-Merge-Type", p.MergeType)
		}
		pw, err := mw.CreatePart(h)
		if err != nil {
			return err
		}
		pw.Write([]byte(p.Content))
	}
	return nil
}

func main() {
	var cases []Case
	json.NewDecoder(os.Stdin).Decode(&cases)
	for _, c := range cases {
		var buf bytes.Buffer
		var err error
		if c.Gzip {
			gz := gzip.NewWriter(&buf)
			err = render(gz, c.Boundary, c.Parts)
			gz.Close()
		} else {
			err = render(&buf, c.Boundary, c.Parts)
		}
		if err != nil {
			fmt.Printf("%s\tERR\t%s\n", c.Name, err)
			continue
		}
		out := buf.String()
		if c.B64 {
			out = base64.StdEncoding.EncodeToString(buf.Bytes())
		}
		fmt.Printf("%s\t%d\t%d\t%x\n", c.Name, crc32.ChecksumIEEE([]byte(out)), len(out), sha256.Sum256([]byte(out)))
	}
}
