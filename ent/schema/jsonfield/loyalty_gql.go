package jsonfield

import (
	"encoding/json"
	"fmt"
	"io"
)

// The loyalty value types below are GraphQL scalars whose value is the same
// JSON object the REST API shows (snake_case keys): one definition, no
// second set of nested GraphQL types to keep in step with the interface.

func marshalGQL(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte("null")
	}
	_, _ = w.Write(b)
}

// unmarshalGQL converts a decoded GraphQL input value (maps, slices,
// numbers) into dst by way of JSON.
func unmarshalGQL(v any, dst any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding input: %w", err)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return fmt.Errorf("value does not match the expected shape: %w", err)
	}
	return nil
}

// MarshalGQL implements graphql.Marshaler.
func (v IncentivePoints) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *IncentivePoints) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v PointsProportional) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *PointsProportional) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v MaterialDetail) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *MaterialDetail) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v DigitalDetail) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *DigitalDetail) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v Earnings) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *Earnings) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v EarningTrigger) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *EarningTrigger) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v EarningValidityHours) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *EarningValidityHours) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v TriggerLimits) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *TriggerLimits) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }

// MarshalGQL implements graphql.Marshaler.
func (v ActivitySource) MarshalGQL(w io.Writer) { marshalGQL(w, v) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (v *ActivitySource) UnmarshalGQL(in any) error { return unmarshalGQL(in, v) }
