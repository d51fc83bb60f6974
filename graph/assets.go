package graph

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Asset kinds served for every voucher.
const (
	AssetQR      = "qr"
	AssetBarcode = "barcode"
)

// VoucherAssetPaths returns the image paths of a voucher's QR code and
// barcode. The asset id is the voucher's ID: 32 random characters, so the
// URL is unguessable and can be shared (e-mails) without credentials.
func VoucherAssetPaths(v *ent.Voucher) *VoucherAssets {
	return &VoucherAssets{
		QR:      &VoucherAsset{ID: v.ID, URL: "/v1/assets/" + AssetQR + "/" + v.ID},
		Barcode: &VoucherAsset{ID: v.ID, URL: "/v1/assets/" + AssetBarcode + "/" + v.ID},
	}
}

// voucherAssets resolves Voucher.assets.
func voucherAssets(_ context.Context, v *ent.Voucher) (*VoucherAssets, error) {
	return VoucherAssetPaths(v), nil
}

// CodeForAsset returns the code of the voucher an asset id names. Asset
// URLs carry no credentials, so this is a narrow cross-project lookup.
func CodeForAsset(ctx context.Context, assetID string) (string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	v, err := c.Voucher.Query().Where(voucher.ID(assetID)).Select(voucher.FieldCode).Only(viewer.NewSystemContext(ctx))
	if ent.IsNotFound(err) {
		return "", apperr.NotFound("asset", assetID)
	}
	if err != nil {
		return "", fmt.Errorf("looking up asset: %w", err)
	}
	return v.Code, nil
}

// CustomerAssetLinks returns a customer's cockpit and preference center
// links. The real service hosts both pages; this service hosts neither, so
// both are null rather than links to pages that do not exist
// (docs/publications.md).
func CustomerAssetLinks(_ *ent.Customer) *CustomerAssets {
	return &CustomerAssets{}
}

// customerAssets resolves Customer.assets.
func customerAssets(_ context.Context, c *ent.Customer) (*CustomerAssets, error) {
	return CustomerAssetLinks(c), nil
}
