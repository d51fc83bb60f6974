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

// voucherTransactionsFromFilters is the voucher_transactions export: the
// voucher named by filters.voucher_id.conditions.$in (one code or id).
func voucherTransactionsFromFilters(ctx context.Context, params map[string]any) (*ent.Export, error) {
	var p struct {
		Order   *string        `json:"order"`
		Fields  []string       `json:"fields"`
		Filters map[string]any `json:"filters"`
	}
	if err := decodeParameters(params, &p); err != nil {
		return nil, err
	}
	var codes []any
	for k, v := range p.Filters {
		switch k {
		case "junction":
		case "voucher_id":
			f, _ := v.(map[string]any)
			conds, _ := f["conditions"].(map[string]any)
			codes, _ = conds["$in"].([]any)
		default:
			return nil, apperr.InvalidPayload("Property .parameters.filters.%s is not supported; the filters are junction, voucher_id", k)
		}
	}
	code, _ := firstOf(codes).(string)
	if len(codes) != 1 || code == "" {
		return nil, apperr.InvalidPayload("Property .parameters.filters.voucher_id.conditions.$in must name one voucher")
	}
	return VoucherTransactions(ctx, code, &ExportParametersInput{Order: p.Order, Fields: p.Fields})
}

func firstOf(list []any) any {
	if len(list) == 0 {
		return nil
	}
	return list[0]
}

// Customers schedules a CSV export of the project's customers.
func Customers(ctx context.Context, params map[string]any) (*ent.Export, error) {
	stored, err := checkExportParameters(params, CustomerExportFields, customerFilterColumns,
		"-name, name, -id, id, -email, email, -source_id, source_id, -created_at, created_at, -updated_at, updated_at")
	if err != nil {
		return nil, err
	}
	return scheduleExport(ctx, "customer", stored, JobExportCustomers)
}

// checkExportParameters checks an export's fields, order (created_at or
// -created_at here; documented names the reference's) and filters over
// columns, and returns the parameters to store (what the request sent).
func checkExportParameters(params map[string]any, fields []string, columns map[string]string, documented string) (map[string]any, error) {
	var p OrderExportParameters // the same three members
	if err := decodeParameters(params, &p); err != nil {
		return nil, err
	}
	stored := map[string]any{}
	if p.Order != nil {
		if *p.Order != "created_at" && *p.Order != "-created_at" {
			return nil, apperr.InvalidPayload("Property .parameters.order must be created_at or -created_at here (of %s), got %q",
				documented, *p.Order)
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
		if _, err := parseFilters(p.Filters, columns); err != nil {
			return nil, err
		}
		stored["filters"] = p.Filters
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
