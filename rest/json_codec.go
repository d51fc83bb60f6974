package rest

import (
	stdjson "encoding/json"
	"io"

	ginjson "github.com/gin-gonic/gin/codec/json"
	gojson "github.com/goccy/go-json"
)

// responseCodec is gin's JSON codec for this service: responses are
// encoded by goccy/go-json, one of the codecs gin itself offers (build tag
// go_json), installed here at run time so every build uses it. It writes
// what encoding/json writes — map keys sorted, the same escaping — except
// that a float below 1e-6 gets a two-digit exponent (1e-07), the same
// number to any reader (TestResponseCodecWritesWhatEncodingJSONWrites).
// Encoding the REST shapes, maps of maps, took 16% of the server's CPU in
// the redemption benchmark; with this codec a redemption costs ~5% less
// CPU (docs/benchmarks.md). Decoding stays with encoding/json: request
// bodies are decoded by decodeBody, with its limits and error messages.
type responseCodec struct{}

// useResponseCodec installs responseCodec as gin's codec (NewRouter).
func useResponseCodec() { ginjson.API = responseCodec{} }

func (responseCodec) Marshal(v any) ([]byte, error) { return gojson.Marshal(v) }

func (responseCodec) MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	return gojson.MarshalIndent(v, prefix, indent)
}

func (responseCodec) NewEncoder(w io.Writer) ginjson.Encoder { return gojson.NewEncoder(w) }

func (responseCodec) Unmarshal(data []byte, v any) error { return stdjson.Unmarshal(data, v) }

func (responseCodec) NewDecoder(r io.Reader) ginjson.Decoder { return stdjson.NewDecoder(r) }
