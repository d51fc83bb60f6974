package location

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CreateInput is the input of createLocation: a name and a shape as the
// real service shows it ({type: circle, format: distance, distance:
// {center: "geo:lat,lng", radius}} or {type: polygon, format: geojson,
// geojson: {type: Polygon | MultiPolygon, coordinates}}).
type CreateInput struct {
	Name  string         `json:"name"`
	Shape map[string]any `json:"shape"`
}

// geoCenter is a circle's center: geo:latitude,longitude.
var geoCenter = regexp.MustCompile(`^geo:(-?[0-9]+(?:\.[0-9]+)?),(-?[0-9]+(?:\.[0-9]+)?)$`)

// CreateLocation serves createLocation: a location of the caller's project.
func CreateLocation(ctx context.Context, in CreateInput) (*ent.Location, error) {
	if strings.TrimSpace(in.Name) == "" || utf8.RuneCountInString(in.Name) > 1000 {
		return nil, apperr.InvalidPayload("Property .name must be a non-empty string of at most 1000 characters")
	}
	if err := checkShape(in.Shape); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	l, err := c.Location.Create().SetName(in.Name).SetShape(in.Shape).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating location: %w", err)
	}
	return l, nil
}

// checkShape refuses a shape that is neither a well-formed circle nor a
// well-formed polygon.
func checkShape(s map[string]any) error {
	switch s["type"] {
	case "circle":
		d, _ := s["distance"].(map[string]any)
		center, _ := d["center"].(string)
		radius, _ := d["radius"].(string)
		m := geoCenter.FindStringSubmatch(center)
		if s["format"] != "distance" || m == nil {
			return apperr.InvalidPayload("Property .shape of a circle must have format distance and distance.center as geo:latitude,longitude")
		}
		lat, _ := strconv.ParseFloat(m[1], 64)
		lng, _ := strconv.ParseFloat(m[2], 64)
		if lat < -90 || lat > 90 || lng < -180 || lng > 180 {
			return apperr.InvalidPayload("Property .shape.distance.center must be a latitude from -90 to 90 and a longitude from -180 to 180")
		}
		if r, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(radius, "km"), "m"), 64); err != nil || r <= 0 {
			return apperr.InvalidPayload("Property .shape.distance.radius must be a positive distance (e.g. \"15\", \"15km\")")
		}
		return nil
	case "polygon":
		g, _ := s["geojson"].(map[string]any)
		coords, _ := g["coordinates"].([]any)
		if s["format"] != "geojson" || (g["type"] != "Polygon" && g["type"] != "MultiPolygon") || len(coords) == 0 {
			return apperr.InvalidPayload("Property .shape of a polygon must have format geojson and a geojson Polygon or MultiPolygon with coordinates")
		}
		return nil
	}
	return apperr.InvalidPayload("Property .shape.type must be circle or polygon")
}
