package vouchercode

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

const alnum = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

func TestGenerate(t *testing.T) {
	cases := []struct {
		name                              string
		charset, pattern, prefix, postfix string
		want                              *regexp.Regexp
		space                             uint64
	}{
		{"alphanumeric default", alnum, "########", "", "", regexp.MustCompile(`^[0-9a-zA-Z]{8}$`), 218340105584896},
		{"numbers with prefix and postfix", "0123456789", "####", "PRE-", "-POST", regexp.MustCompile(`^PRE-\d{4}-POST$`), 10000},
		{"pattern literals", "ABC", "X#-#Y", "", "", regexp.MustCompile(`^X[ABC]-[ABC]Y$`), 9},
		{"duplicates ignored", "aab", "##", "", "", regexp.MustCompile(`^[ab]{2}$`), 4},
		{"unicode charset", "äöü", "###", "", "", regexp.MustCompile(`^[äöü]{3}$`), 27},
		{"special characters", "%/ ", "##", "a%", "", regexp.MustCompile(`^a%[%/ ]{2}$`), 9},
		{"huge space saturates", alnum, strings.Repeat("#", 40), "", "", regexp.MustCompile(`^[0-9a-zA-Z]{40}$`), math.MaxUint64},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(tc.charset, tc.pattern, tc.prefix, tc.postfix)
			if err != nil {
				t.Fatal(err)
			}
			if g.Space() != tc.space {
				t.Errorf("Space() = %d, want %d", g.Space(), tc.space)
			}
			src := NewSource()
			for range 200 {
				if c := g.Random(src); !tc.want.MatchString(c) {
					t.Fatalf("Random() = %q does not match %s", c, tc.want)
				}
			}
			if c := g.At(0); !tc.want.MatchString(c) {
				t.Errorf("At(0) = %q", c)
			}
		})
	}
}

func TestAtEnumeratesTheWholeSpaceWithoutDuplicates(t *testing.T) {
	g, err := New("0123456789", "AB-##", "", "")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := range g.Space() {
		c := g.At(i)
		if seen[c] {
			t.Fatalf("duplicate %q", c)
		}
		seen[c] = true
	}
	if len(seen) != 100 || g.At(0) != "AB-00" || g.At(1) != "AB-01" || g.At(99) != "AB-99" {
		t.Errorf("enumeration wrong: %d codes, first %q, last %q", len(seen), g.At(0), g.At(99))
	}
}

func TestRandomIsUnbiased(t *testing.T) {
	// A 3-character charset does not divide 2^32: a naive modulo would skew.
	g, _ := New("abc", "#", "", "")
	src := NewSource()
	counts := map[string]int{}
	const n = 90000
	for range n {
		counts[g.Random(src)]++
	}
	for c, k := range counts {
		if math.Abs(float64(k)-n/3) > 1000 { // ~7 standard deviations
			t.Errorf("%q drawn %d times of %d", c, k, n)
		}
	}
}

func TestRejectsImpossibleConfigs(t *testing.T) {
	for _, bad := range [][2]string{{"", "###"}, {"abc", "ABC"}, {"abc", ""}, {"\xff", "#"}} {
		if _, err := New(bad[0], bad[1], "", ""); err == nil {
			t.Errorf("New(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

func TestMatchPatterns(t *testing.T) {
	g, _ := New("ab", "x_#%*", "p?", "[s")
	m := g.Match()
	if m.Like != `p?x\__\%*[s` {
		t.Errorf("Like = %q", m.Like)
	}
	if m.Glob != `p[?]x_?%[*][[]s` {
		t.Errorf("Glob = %q", m.Glob)
	}
}

func TestReservedPathWordsAreExact(t *testing.T) {
	for _, code := range []string{"bulk", "import", "importCSV", "metadata", "qualification"} {
		if !Reserved(code) {
			t.Errorf("Reserved(%q) = false", code)
		}
	}
	for _, code := range []string{"IMPORT", "importcsv", "Bulk", "import-1", " metadata", "qualifications", "export", ""} {
		if Reserved(code) {
			t.Errorf("Reserved(%q) = true", code)
		}
	}
}
