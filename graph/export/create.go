package export

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
)

// The generic export (REST POST /v1/exports, GraphQL createExport): one
// use case that hands each exported_object to its export — the same use
// cases the per-resource routes call (POST /v1/orders/export, POST
// /v1/vouchers/{code}/transactions/export).

// ExportInput is the body of POST /v1/exports.
type ExportInput struct {
	ExportedObject string         `json:"exported_object"`
	Parameters     map[string]any `json:"parameters"`
}

// ExportedObjects are the documented exported_object values; those this
// server exports are in exporters.
var ExportedObjects = []string{"voucher", "redemption", "publication", "customer", "order", "points_expiration",
	"voucher_transactions"}

// exporters schedule an export of each supported exported_object from
// the request's parameters.
var exporters = map[string]func(ctx context.Context, params map[string]any) (*ent.Export, error){
	"order": func(ctx context.Context, params map[string]any) (*ent.Export, error) {
		var p OrderExportParameters
		if err := decodeParameters(params, &p); err != nil {
			return nil, err
		}
		return Orders(ctx, &OrderExportInput{Parameters: &p})
	},
	"customer":             Customers,
	"voucher":              Vouchers,
	"redemption":           Redemptions,
	"publication":          Publications,
	"voucher_transactions": voucherTransactionsFromFilters,
	"points_expiration":    pointsExpirationFromFilters,
}

// Create schedules an export of in.ExportedObject.
func Create(ctx context.Context, in ExportInput) (*ent.Export, error) {
	if !slices.Contains(ExportedObjects, in.ExportedObject) {
		return nil, apperr.InvalidPayload("Property .exported_object must be one of %s, got %q",
			strings.Join(ExportedObjects, ", "), in.ExportedObject)
	}
	export, ok := exporters[in.ExportedObject]
	if !ok {
		return nil, apperr.InvalidPayload("Exports of %s are not available on this server yet; the exported objects are %s",
			in.ExportedObject, strings.Join(sortedExporters(), ", "))
	}
	return export(ctx, in.Parameters)
}

// sortedExporters names the exported objects this server exports.
func sortedExporters() []string {
	var names []string
	for _, o := range ExportedObjects {
		if _, ok := exporters[o]; ok {
			names = append(names, o)
		}
	}
	return names
}

// decodeParameters reads params into dst, refusing unknown members.
func decodeParameters(params map[string]any, dst any) error {
	if params == nil {
		return nil
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("encoding export parameters: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return apperr.InvalidPayload("Property .parameters may hold fields, order and filters: %v", err)
	}
	return nil
}

// Customers schedules a CSV export of the project's customers.
func Customers(ctx context.Context, params map[string]any) (*ent.Export, error) {
	stored, err := checkExportParameters(params, CustomerExportFields, customerFilters, customerOrders, false)
	if err != nil {
		return nil, err
	}
	return scheduleExport(ctx, "customer", stored, JobExportCustomers)
}

// exportParameters are the members of an export's parameters; campaign_id
// only a vouchers export's.
type exportParameters struct {
	Fields     []string       `json:"fields"`
	Order      *string        `json:"order"`
	Filters    map[string]any `json:"filters"`
	CampaignID *string        `json:"campaign_id"`
}

// checkExportParameters checks an export's fields, order (created_at or a
// member of orders) and filters, and returns the parameters to store:
// what the request sent, as the real service shows them.
func checkExportParameters(params map[string]any, fields []string, filters filterSet, orders map[string]sortExpr, campaign bool) (map[string]any, error) {
	var p exportParameters
	if err := decodeParameters(params, &p); err != nil {
		return nil, err
	}
	stored := map[string]any{}
	if p.Order != nil {
		if err := checkOrder(*p.Order, orders); err != nil {
			return nil, err
		}
		stored["order"] = *p.Order
	}
	if p.Fields != nil {
		if err := checkFields(p.Fields, fields); err != nil {
			return nil, err
		}
		stored["fields"] = p.Fields
	}
	if p.Filters != nil {
		if _, err := parseFilters(p.Filters, filters, ""); err != nil {
			return nil, err
		}
		stored["filters"] = storedFilters(p.Filters)
	}
	if p.CampaignID != nil {
		if !campaign {
			return nil, apperr.InvalidPayload("Property .parameters.campaign_id is allowed only in a voucher export")
		}
		stored["campaign_id"] = *p.CampaignID
	}
	return stored, nil
}

// checkFields refuses fields not in allowed (nor metadata.<key>) and repeats.
func checkFields(fields, allowed []string) error {
	seen := map[string]bool{}
	for i, f := range fields {
		if !slices.Contains(allowed, f) && !(strings.HasPrefix(f, "metadata.") && len(f) > len("metadata.")) {
			return apperr.InvalidPayload("Property .parameters.fields[%d] must be one of %s or metadata.<key>, got %q",
				i, strings.Join(allowed, ", "), f)
		}
		if seen[f] {
			return apperr.InvalidPayload("Property .parameters.fields[%d] repeats %q", i, f)
		}
		seen[f] = true
	}
	return nil
}

// scheduleExport stores an export of object with its parameters and the
// job of type jobType that writes it, in the request's transaction.
func scheduleExport(ctx context.Context, object string, params map[string]any, jobType string) (*ent.Export, error) {
	return schedule(ctx, object, nil, params, jobType)
}
