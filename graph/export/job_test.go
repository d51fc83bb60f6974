package export

import "testing"

// TestExportText: chunks are stored as text PostgreSQL accepts — NUL and
// invalid UTF-8 become U+FFFD, everything else is kept byte for byte.
func TestExportText(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "",
		"id,reason\nvtx_1,top up\n": "id,reason\nvtx_1,top up\n",
		"\"a,\"\"b\"\"\",Grüße ✓\n": "\"a,\"\"b\"\"\",Grüße ✓\n",
		"a\x00b,\x00\x00\n":         "a\uFFFDb,\uFFFD\uFFFD\n",
		"bad \xff\xfe utf8\n":       "bad \uFFFD utf8\n",
		"x\x00\xffy\n":              "x\uFFFD\uFFFDy\n",
	} {
		if got := exportText([]byte(in)); got != want {
			t.Errorf("exportText(%q) = %q, want %q", in, got, want)
		}
	}
}
