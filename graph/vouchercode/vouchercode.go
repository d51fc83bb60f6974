// Package vouchercode makes voucher codes from a code configuration:
// prefix + pattern + postfix, where each '#' of the pattern is one character
// of the charset and every other character is literal. Randomness comes from
// crypto/rand and is unbiased; duplicate charset characters are ignored.
package vouchercode

import (
	"crypto/rand"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// Placeholder is the pattern character replaced by a random charset character.
const Placeholder = '#'

// Generator makes codes of one configuration.
type Generator struct {
	charset []rune
	prefix  string
	postfix string
	// pattern split at placeholders: literals[i] precedes slot i; the last
	// element follows the last slot.
	literals []string
	slots    int
}

// New returns a generator. charset must hold at least one character and
// pattern at least one '#'.
func New(charset, pattern, prefix, postfix string) (*Generator, error) {
	if !utf8.ValidString(charset) || !utf8.ValidString(pattern) || !utf8.ValidString(prefix) || !utf8.ValidString(postfix) {
		return nil, errors.New("code configuration must be valid UTF-8 text")
	}
	seen := map[rune]bool{}
	var set []rune
	for _, r := range charset {
		if !seen[r] {
			seen[r] = true
			set = append(set, r)
		}
	}
	if len(set) == 0 {
		return nil, errors.New("charset must contain at least one character")
	}
	literals := strings.Split(pattern, string(Placeholder))
	if len(literals) < 2 {
		return nil, errors.New("pattern must contain at least one # placeholder")
	}
	return &Generator{charset: set, prefix: prefix, postfix: postfix, literals: literals, slots: len(literals) - 1}, nil
}

// Charset returns the de-duplicated charset.
func (g *Generator) Charset() string { return string(g.charset) }

// Slots is the number of random characters per code.
func (g *Generator) Slots() int { return g.slots }

// Space is the number of distinct codes the configuration can produce,
// saturated at math.MaxUint64.
func (g *Generator) Space() uint64 {
	n := uint64(len(g.charset))
	space := uint64(1)
	for range g.slots {
		hi, lo := bits.Mul64(space, n)
		if hi != 0 {
			return math.MaxUint64
		}
		space = lo
	}
	return space
}

// Random returns a uniformly random code drawn from src.
func (g *Generator) Random(src *Source) string {
	var b strings.Builder
	b.WriteString(g.prefix)
	for i, lit := range g.literals {
		b.WriteString(lit)
		if i < g.slots {
			b.WriteRune(g.charset[src.Intn(len(g.charset))])
		}
	}
	b.WriteString(g.postfix)
	return b.String()
}

// At returns the i-th code of the space in charset order (the slots read as
// base-len(charset) digits, most significant first). i must be < Space().
func (g *Generator) At(i uint64) string {
	n := uint64(len(g.charset))
	digits := make([]rune, g.slots)
	for k := g.slots - 1; k >= 0; k-- {
		digits[k] = g.charset[i%n]
		i /= n
	}
	var b strings.Builder
	b.WriteString(g.prefix)
	for k, lit := range g.literals {
		b.WriteString(lit)
		if k < g.slots {
			b.WriteRune(digits[k])
		}
	}
	b.WriteString(g.postfix)
	return b.String()
}

// Matcher describes, for a SQL pattern match, every code this configuration
// can produce (and possibly a few more: it does not restrict slot characters
// to the charset, so counts of existing codes err on the safe side).
type Matcher struct {
	// Like is a LIKE pattern with '\' as escape character ('_' per slot).
	Like string
	// Glob is the equivalent case-sensitive SQLite GLOB pattern ('?' per slot).
	Glob string
}

// Match returns the SQL patterns matching this configuration's codes.
func (g *Generator) Match() Matcher {
	var like, glob strings.Builder
	lit := func(s string) {
		for _, r := range s {
			switch r {
			case '%', '_', '\\':
				like.WriteRune('\\')
			}
			like.WriteRune(r)
			switch r {
			case '*', '?', '[':
				glob.WriteString("[" + string(r) + "]")
			default:
				glob.WriteRune(r)
			}
		}
	}
	lit(g.prefix)
	for i, l := range g.literals {
		lit(l)
		if i < g.slots {
			like.WriteRune('_')
			glob.WriteRune('?')
		}
	}
	lit(g.postfix)
	return Matcher{Like: like.String(), Glob: glob.String()}
}

// Source is a buffered reader of crypto/rand for unbiased bounded draws.
// It is not safe for concurrent use.
type Source struct {
	buf [4096]byte
	pos int
}

// NewSource returns an empty source; it fills itself on first use.
func NewSource() *Source { return &Source{pos: 4096} }

func (s *Source) uint32() uint32 {
	if s.pos+4 > len(s.buf) {
		if _, err := rand.Read(s.buf[:]); err != nil {
			panic(fmt.Errorf("vouchercode: reading crypto/rand: %w", err))
		}
		s.pos = 0
	}
	v := uint32(s.buf[s.pos]) | uint32(s.buf[s.pos+1])<<8 | uint32(s.buf[s.pos+2])<<16 | uint32(s.buf[s.pos+3])<<24
	s.pos += 4
	return v
}

// Intn returns a uniform integer in [0, n) by rejection sampling; n must be
// in (0, 2^31].
func (s *Source) Intn(n int) int {
	if n <= 0 || n > 1<<31 {
		panic("vouchercode: Intn bound out of range")
	}
	limit := (1 << 32) / uint64(n) * uint64(n)
	for {
		if v := uint64(s.uint32()); v < limit {
			return int(v % uint64(n))
		}
	}
}

// Uint64n returns a uniform integer in [0, n), n > 0.
func (s *Source) Uint64n(n uint64) uint64 {
	if n <= 1<<31 {
		return uint64(s.Intn(int(n)))
	}
	limit := math.MaxUint64 - math.MaxUint64%n
	for {
		v := uint64(s.uint32())<<32 | uint64(s.uint32())
		if v < limit {
			return v % n
		}
	}
}
