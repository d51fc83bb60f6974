package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/gin-gonic/gin"
	gojson "github.com/goccy/go-json"
)

// A page of redemptions is written by redemptionListBody, not by the
// response codec: each entry's keys before and after its order document
// (redemptionHead, redemptionTail) are encoded by the codec's encoder, and
// the stored document is written between them, compacted by
// appendCompactJSON. The codec compacts a json.RawMessage with its
// validating compactor (a tenth of the server's CPU of a page, the
// documents as PostgreSQL prints jsonb: with a space after every colon and
// comma); stored documents are valid JSON (jsonb, or the service's own
// encoding on SQLite), so dropping the whitespace outside strings writes
// the same bytes. TestListedRedemptionsAsLoadedByEnt compares the pages
// with the codec's encoding of the same entries (redemptionListSpliced off).

// redemptionListSpliced makes redemptionListBody write the pages; a test
// turns it off to compare with the codec's encoding of gin.H.
var redemptionListSpliced = true

// listBuffers are the buffers of redemptionListBody (a page of 50 is
// ~50–100 KB; one that grew past 1 MB is left to the collector).
var listBuffers = sync.Pool{New: func() any { return new(listBuffer) }}

// entryBytes is the size of an entry of the last page written: a page's
// buffer, taken from the pool or new (the pool is emptied by garbage
// collections), is grown once to the page's likely size.
var entryBytes atomic.Int64

type listBuffer struct {
	out, scratch bytes.Buffer
	enc          *gojson.Encoder // into scratch
}

// renderRedemptionList writes {data_ref, object: "list", <key>: entries,
// total} (gin.H's keys, sorted), with extra keys of its own (voucher
// pages) in the same sorted place as the codec would write them.
func renderRedemptionList(c *gin.Context, fields gin.H, key string, entries []*redemptionObject) {
	if !redemptionListSpliced {
		fields[key] = entries
		c.PureJSON(http.StatusOK, fields)
		return
	}
	lb := listBuffers.Get().(*listBuffer)
	defer func() {
		if lb.out.Cap() <= 1<<20 {
			listBuffers.Put(lb)
		}
	}()
	if lb.enc == nil {
		lb.enc = gojson.NewEncoder(&lb.scratch)
		lb.enc.SetEscapeHTML(false)
	}
	lb.out.Reset()
	fields[key] = json.RawMessage(nil) // placeholder: written below, in its sorted place
	if err := lb.encode(fields); err != nil {
		renderError(c, err)
		return
	}
	envelope := bytes.Clone(lb.scratch.Bytes()) // {"data_ref":…,"<key>":null,…}\n
	marker := []byte(`"` + key + `":null`)
	at := bytes.Index(envelope, marker)
	if at < 0 {
		renderError(c, errPlaceholder)
		return
	}
	if n := entryBytes.Load(); n > 0 { // room for the page at once, not grown by doubling
		lb.out.Grow(len(envelope) + len(entries)*int(n+n/8))
	}
	lb.out.Write(envelope[:at+len(marker)-len("null")])
	lb.out.WriteByte('[')
	for i, e := range entries {
		if i > 0 {
			lb.out.WriteByte(',')
		}
		if err := lb.entry(e); err != nil {
			renderError(c, err)
			return
		}
	}
	lb.out.WriteByte(']')
	lb.out.Write(envelope[at+len(marker):])
	if len(entries) > 0 {
		entryBytes.Store(int64(lb.out.Len() / len(entries)))
	}
	h := c.Writer.Header()
	if len(h["Content-Type"]) == 0 {
		h["Content-Type"] = listContentType
	}
	h["Content-Length"] = []string{strconv.Itoa(lb.out.Len())}
	c.Status(http.StatusOK)
	_, _ = c.Writer.Write(lb.out.Bytes())
}

var errPlaceholder = errors.New("rendering a list: no place for its entries")

// listContentType is the Content-Type gin gives JSON answers.
var listContentType = []string{"application/json; charset=utf-8"}

// encode encodes v into the scratch buffer (with the codec's final newline).
func (lb *listBuffer) encode(v any) error {
	lb.scratch.Reset()
	return lb.enc.Encode(v)
}

// entry writes one redemption: its head's keys, the order, its tail's.
func (lb *listBuffer) entry(e *redemptionObject) error {
	if err := lb.encode(&e.redemptionHead); err != nil {
		return err
	}
	head := lb.scratch.Bytes() // {"id":…}\n, never empty: id is always there
	lb.out.Write(head[:len(head)-2])
	lb.out.WriteString(`,"order":`)
	if raw, ok := e.Order.(json.RawMessage); ok && len(raw) > 0 {
		lb.out.Grow(len(raw)) // room for the compacted text: appended in place, no copy
		lb.out.Write(appendCompactJSON(lb.out.AvailableBuffer(), raw))
	} else if ok || e.Order == nil {
		lb.out.WriteString("null")
	} else {
		if err := lb.encode(e.Order); err != nil {
			return err
		}
		lb.out.Write(bytes.TrimSuffix(lb.scratch.Bytes(), []byte{'\n'}))
	}
	if err := lb.encode(&e.redemptionTail); err != nil {
		return err
	}
	tail := lb.scratch.Bytes() // {"channel":…}\n, never empty: channel is always there
	lb.out.WriteByte(',')
	lb.out.Write(tail[1 : len(tail)-1])
	return nil
}

// appendCompactJSON appends the valid JSON text src without the
// whitespace outside its strings: the bytes a validating compactor
// (encoding/json's, goccy's) writes for it, as the codec does for a
// json.RawMessage. The text between strings is copied in runs up to the
// next quote or whitespace (a table lookup per byte); each string is
// copied whole up to its closing quote (found by bytes.IndexByte, a quote
// after an odd number of backslashes being escaped).
func appendCompactJSON(dst, src []byte) []byte {
	start := 0 // the run not yet copied: src[start:i]
	for i := 0; i < len(src); {
		switch compactClass[src[i]] {
		case compactOther:
			i++
		case compactSpace: // left out
			dst = append(dst, src[start:i]...)
			i++
			start = i
		default: // a string: copied with the run before it
			end := i + 1 // past the string's closing quote
			for {
				k := bytes.IndexByte(src[end:], '"')
				if k < 0 { // not JSON: the rest as it is
					return append(dst, src[start:]...)
				}
				end += k + 1
				escapes := 0
				for b := end - 2; b > i && src[b] == '\\'; b-- {
					escapes++
				}
				if escapes%2 == 0 {
					break
				}
			}
			i = end
		}
	}
	return append(dst, src[start:]...)
}

// compactClass classifies the bytes outside strings for appendCompactJSON.
var compactClass = [256]uint8{' ': compactSpace, '\t': compactSpace, '\n': compactSpace, '\r': compactSpace, '"': compactQuote}

const (
	compactOther = iota // copied
	compactSpace        // JSON whitespace, left out
	compactQuote        // a string begins
)
