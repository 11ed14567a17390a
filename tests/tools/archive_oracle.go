// archive_oracle: writes zip and tar.gz archives the way
// hashicorp/terraform-provider-archive v2.7 does (zip_archiver.go,
// tar_archiver.go, archiver.go's walk), with Go's own archive/zip,
// archive/tar and compress/gzip, and prints "NAME SIZE SHA256" per archive.
// Run in a directory holding the tree tests/e2e/cases/provider_archive
// builds (see its test.t); `go run archive_oracle.go`.
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"
)

type addFn func(path, archivePath string, info os.FileInfo) error

func match(name string, excludes []string) bool {
	for _, e := range excludes {
		if e == "" {
			continue
		}
		if ok, _ := filepath.Match(e, name); ok {
			return true
		}
	}
	return false
}

func walker(base, dir string, excludes []string, noSymDirs bool, add addFn) filepath.WalkFunc {
	return func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		ap := filepath.Join(base, rel)
		m := match(ap, excludes)
		if info.IsDir() {
			if m {
				return filepath.SkipDir
			}
			return nil
		}
		if m {
			return nil
		}
		if info.Mode()&os.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(path)
			if err != nil {
				return err
			}
			ri, err := os.Stat(real)
			if err != nil {
				return err
			}
			if ri.IsDir() {
				if noSymDirs {
					return filepath.SkipDir
				}
				return filepath.Walk(real, walker(ap, real, excludes, noSymDirs, add))
			}
			info = ri
		}
		return add(path, ap, info)
	}
}

type job struct {
	name, kind    string // kind: content, file, dir, multi
	content       string
	filename      string
	src           string
	excludes      []string
	noSymDirs     bool
	mode          string
	multi         map[string]string
}

func zipIt(j job) []byte {
	f, _ := os.CreateTemp("", "z")
	defer os.Remove(f.Name())
	w := zip.NewWriter(f)
	addFile := func(path, ap string, fi os.FileInfo) error {
		fh, _ := zip.FileInfoHeader(fi)
		fh.Name = filepath.ToSlash(ap)
		fh.Method = zip.Deflate
		fh.SetModTime(time.Time{})
		if j.mode != "" {
			m, err := strconv.ParseUint(j.mode, 0, 32)
			if err != nil {
				panic(err)
			}
			fh.SetMode(os.FileMode(m))
		}
		fw, err := w.CreateHeader(fh)
		if err != nil {
			return err
		}
		b, _ := os.ReadFile(path)
		_, err = fw.Write(b)
		return err
	}
	switch j.kind {
	case "content":
		fw, _ := w.Create(j.filename)
		fw.Write([]byte(j.content))
	case "file":
		fi, _ := os.Stat(j.src)
		addFile(j.src, fi.Name(), fi)
	case "dir":
		if err := filepath.Walk(j.src, walker("", j.src, j.excludes, j.noSymDirs, addFile)); err != nil {
			panic(err)
		}
	case "multi":
		keys := []string{}
		for k := range j.multi {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fw, _ := w.Create(k)
			fw.Write([]byte(j.multi[k]))
		}
	}
	w.Close()
	f.Close()
	b, _ := os.ReadFile(f.Name())
	return b
}

func tgzIt(j job) []byte {
	f, _ := os.CreateTemp("", "t")
	defer os.Remove(f.Name())
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	mode := func(h *tar.Header) {
		if j.mode != "" {
			m, err := strconv.ParseInt(j.mode, 0, 32)
			if err != nil {
				panic(err)
			}
			h.Mode = m
		}
	}
	addFile := func(path, ap string, fi os.FileInfo) error {
		h := &tar.Header{Name: filepath.ToSlash(ap), Size: fi.Size(), Mode: int64(fi.Mode()), ModTime: time.Time{}}
		mode(h)
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		in, _ := os.Open(path)
		defer in.Close()
		_, err := io.Copy(tw, in)
		return err
	}
	addContent := func(name string, c []byte) {
		h := &tar.Header{Name: name, Size: int64(len(c)), ModTime: time.Time{}}
		mode(h)
		if err := tw.WriteHeader(h); err != nil {
			panic(err)
		}
		tw.Write(c)
	}
	switch j.kind {
	case "content":
		addContent(j.filename, []byte(j.content))
	case "file":
		fi, _ := os.Stat(j.src)
		addFile(j.src, fi.Name(), fi)
	case "dir":
		if err := filepath.Walk(j.src, walker("", j.src, j.excludes, j.noSymDirs, addFile)); err != nil {
			panic(err)
		}
	case "multi":
		keys := []string{}
		for k := range j.multi {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			addContent(k, []byte(j.multi[k]))
		}
	}
	tw.Close()
	gz.Close()
	f.Close()
	b, _ := os.ReadFile(f.Name())
	return b
}

func main() {
	big, _ := os.ReadFile("src/b/big.txt")
	jobs := []job{
		{name: "content", kind: "content", content: "hello world\n", filename: "hello.txt"},
		{name: "content2", kind: "content", content: "hello again\n", filename: "hello.txt"},
		{name: "file", kind: "file", src: "src/a.txt"},
		{name: "filemode", kind: "file", src: "src/b/run.sh", mode: "0666"},
		{name: "dir", kind: "dir", src: "src", excludes: []string{"skip.log", "b/*.bin"}},
		{name: "dirnosym", kind: "dir", src: "src", excludes: []string{"skip.log"}, noSymDirs: true, mode: "0644"},
		{name: "multi", kind: "multi", multi: map[string]string{"z.txt": "zed\n", "a/x.txt": string(big), "ünï.txt": "u\n"}},
	}
	for _, j := range jobs {
		z := zipIt(j)
		os.WriteFile("go-"+j.name+".zip", z, 0644)
		fmt.Printf("zip %s %d %x\n", j.name, len(z), sha256.Sum256(z))
		if j.name == "multi" {
			continue // non-ASCII names need PAX in tar
		}
		t := tgzIt(j)
		os.WriteFile("go-"+j.name+".tar.gz", t, 0644)
		fmt.Printf("tgz %s %d %x\n", j.name, len(t), sha256.Sum256(t))
	}
}
