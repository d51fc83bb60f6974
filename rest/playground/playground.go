// Package playground serves GraphiQL, the GraphQL explorer, entirely from
// the binary: the page and its assets (GraphiQL 3.8.3, React 18.3.1, both
// MIT-licensed, stored gzipped under assets/) are embedded, so the
// playground works without internet access.
package playground

import (
	"compress/gzip"
	"embed"
	"io"
	"net/http"
	"path"
	"strings"
)

//go:embed page.html assets/*.gz
var files embed.FS

// Page serves the playground HTML.
func Page(w http.ResponseWriter, _ *http.Request) {
	page, err := files.ReadFile("page.html")
	if err != nil {
		http.Error(w, "playground unavailable", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(page)
}

// Asset serves one embedded asset by name (e.g. "graphiql.min.js"): gzipped
// as stored when the client accepts gzip, decompressed otherwise. It
// reports false, having written nothing, when there is no such asset.
func Asset(w http.ResponseWriter, r *http.Request, name string) bool {
	name = path.Base(name)
	f, err := files.Open("assets/" + name + ".gz")
	if err != nil {
		return false
	}
	defer f.Close()
	switch path.Ext(name) {
	case ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	}
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Header().Set("Vary", "Accept-Encoding")
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = io.Copy(w, f)
		return true
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		http.Error(w, "corrupt asset", http.StatusInternalServerError)
		return true
	}
	_, _ = io.Copy(w, zr)
	return true
}
