package job

import (
	"encoding/json"
	"fmt"
	"strings"
)

// MetadataJSONColumn is the name a CSV import gives its header's `metadata`
// column (as exports write it: the object's metadata as one JSON object);
// other metadata columns are named by their key. Header names never start
// with NUL, so no key can take it.
const MetadataJSONColumn = "\x00metadata"

// IsMetadataJSONColumn reports whether a header's column (its name as the
// user wrote it) is the exports' `metadata` column.
func IsMetadataJSONColumn(col string) bool {
	return strings.EqualFold(strings.TrimSpace(col), "metadata")
}

// AddMetadataColumn adds a CSV metadata column's value to metadata: the
// keys of a MetadataJSONColumn's JSON object (a key set by its own column
// wins), else the value v under the key col (text). A MetadataJSONColumn
// value that is not a JSON object is an error naming the row's problem.
func AddMetadataColumn(metadata map[string]any, col, v string) (map[string]any, error) {
	if metadata == nil {
		metadata = map[string]any{}
	}
	if col != MetadataJSONColumn {
		metadata[col] = v
		return metadata, nil
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(v), &obj); err != nil || obj == nil {
		return metadata, fmt.Errorf("Metadata must be a JSON object, got %q", v)
	}
	for k, x := range obj {
		if _, set := metadata[k]; !set {
			metadata[k] = x
		}
	}
	return metadata, nil
}
