package rest

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"net/http"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/code128"
	"github.com/boombuler/barcode/qr"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
)

// Image sizes of the served assets, in pixels.
const (
	qrSize                      = 300
	barcodeWidth, barcodeHeight = 600, 150
)

// serveAsset serves GET /v1/assets/{qr|barcode}/{id}: a PNG of the voucher
// code. No credentials: the unguessable id is the capability.
func serveAsset(kind string) gin.HandlerFunc {
	return func(c *gin.Context) {
		code, err := graph.CodeForAsset(c.Request.Context(), c.Param("id"))
		if err != nil {
			renderError(c, err)
			return
		}
		img, err := encodeAsset(kind, code)
		if err != nil {
			renderError(c, apperr.New(http.StatusUnprocessableEntity, "asset_unavailable", "Asset unavailable",
				"This code cannot be drawn as a "+kind+": "+err.Error()))
			return
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, withQuietZone(img, quietZone(kind, img))); err != nil {
			renderError(c, err)
			return
		}
		c.Header("Cache-Control", "public, max-age=86400")
		c.Data(http.StatusOK, "image/png", buf.Bytes())
	}
}

// quietZone is the white margin scanners need: 4 modules around a QR code,
// 10 modules left and right of a barcode.
func quietZone(kind string, img barcode.Barcode) image.Point {
	if kind == graph.AssetQR {
		return image.Pt(qrSize/10, qrSize/10)
	}
	return image.Pt(barcodeHeight/5, barcodeHeight/10)
}

// withQuietZone draws img centred on a white canvas with the given margins.
func withQuietZone(img image.Image, margin image.Point) image.Image {
	b := img.Bounds()
	canvas := image.NewGray(image.Rect(0, 0, b.Dx()+2*margin.X, b.Dy()+2*margin.Y))
	draw.Draw(canvas, canvas.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(canvas, b.Add(margin).Sub(b.Min), img, b.Min, draw.Src)
	return canvas
}

// encodeAsset draws code as a QR code or a Code 128 barcode.
func encodeAsset(kind, code string) (barcode.Barcode, error) {
	if kind == graph.AssetQR {
		bc, err := qr.Encode(code, qr.M, qr.Auto)
		if err != nil {
			return nil, err
		}
		return barcode.Scale(bc, qrSize, qrSize)
	}
	bc, err := code128.Encode(code)
	if err != nil {
		return nil, err
	}
	width := max(barcodeWidth, bc.Bounds().Dx())
	return barcode.Scale(bc, width, barcodeHeight)
}
