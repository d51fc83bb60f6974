package bin

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/ent/binrecord"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// CheckFree answers 409 duplicate_found when a binned resource of the type
// still holds name (a campaign name, voucher code, product or SKU
// source_id): the name is free again once its bin entry is deleted
// (DELETE /v1/trash-bin/{id}, or purged), or when it was deleted with
// force=true.
func CheckFree(ctx context.Context, typ, name string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	taken, err := c.BinEntry.Query().Where(binentry.ResourceTypeEQ(binentry.ResourceType(typ)),
		binentry.ReservedName(name)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("checking the bin for %s %s: %w", typ, name, err)
	}
	if !taken && typ == TypeVoucher {
		if taken, err = c.BinRecord.Query().Where(binrecord.Code(name)).Exist(ctx); err != nil {
			return fmt.Errorf("checking the bin for voucher %s: %w", name, err)
		}
	}
	if taken {
		return apperr.Duplicate(typ, fmt.Sprintf("A %s %s is in the trash bin; delete its bin entry to use the name again", typ, name))
	}
	return nil
}

// ReservedAmong returns which of names a binned resource of the type still
// holds (the codes a generation or import must not create), a voucher's
// code also when a binned campaign's record holds it. A project with no
// binned resource of the type costs one indexed existence check (two for
// vouchers).
func ReservedAmong(ctx context.Context, typ string, names []string) (map[string]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	rt := binentry.ResourceTypeEQ(binentry.ResourceType(typ))
	binned, err := c.BinEntry.Query().Where(rt, binentry.ReservedNameNotNil()).Exist(ctx)
	if err != nil {
		return nil, wrapReserved(typ, err)
	}
	// A binned campaign's vouchers are records holding their codes.
	records := false
	if typ == TypeVoucher {
		if records, err = c.BinRecord.Query().Exist(ctx); err != nil {
			return nil, wrapReserved(typ, err)
		}
	}
	if !binned && !records {
		return nil, nil
	}
	out := map[string]bool{}
	for start := 0; start < len(names); start += reservedChunk {
		chunk := names[start:min(start+reservedChunk, len(names))]
		var held []string
		if binned {
			if held, err = c.BinEntry.Query().Where(rt, binentry.ReservedNameIn(chunk...)).
				Select(binentry.FieldReservedName).Strings(ctx); err != nil {
				return nil, wrapReserved(typ, err)
			}
		}
		if records {
			codes, err := c.BinRecord.Query().Where(binrecord.CodeIn(chunk...)).Select(binrecord.FieldCode).Strings(ctx)
			if err != nil {
				return nil, wrapReserved(typ, err)
			}
			held = append(held, codes...)
		}
		for _, n := range held {
			out[n] = true
		}
	}
	return out, nil
}

// reservedChunk bounds the names of one lookup (SQLite's and PostgreSQL's
// parameter limits).
const reservedChunk = 5000

func wrapReserved(typ string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("checking the bin for %s names: %w", typ, err)
}
