package assets

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"os"

	// WebP has no decoder in the standard library; x/image's is the Go project's own,
	// pure Go (no libwebp to keep patched) and already a dependency.
	_ "golang.org/x/image/webp"

	"github.com/kodahq/koda"
)

// maxSide bounds either side of an image whatever its pixel count: no renderer
// preset needs a picture wider or taller than 4K by much, and a 1×40,000,000 strip
// is no logo.
const maxSide = 16384

// checkImage reads a raster image's dimensions from its header and bounds them before
// anything is decoded, so a small file declaring a huge picture (a decompression
// bomb) costs a header read; then decodes it and writes it anew to out. Writing anew
// drops whatever the file carried besides pixels: EXIF (GPS position, camera serial),
// XMP, ICC profiles and text chunks, and any trailing bytes (polyglot files). JPEG is
// written as JPEG at quality 92, PNG as PNG; WebP as PNG, because Go has no WebP
// encoder (lossless, so nothing is lost but bytes).
func (s *Service) checkImage(ctx context.Context, f *format, in *os.File, out io.Writer) (stored string, w, h int, err error) {
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return "", 0, 0, fmt.Errorf("rewind image: %w", err)
	}
	cfg, name, err := image.DecodeConfig(bufio.NewReader(in))
	if err != nil {
		return "", 0, 0, malformed("the file starts like a %s image but its header does not parse: %v", f.name, err)
	}
	if name != f.name {
		return "", 0, 0, malformed("the file starts like a %s image but decodes as %s", f.name, name)
	}
	if err := s.checkPixels(cfg.Width, cfg.Height); err != nil {
		return "", 0, 0, err
	}
	// Decoding holds the whole picture in memory (up to 4 bytes a pixel, more for
	// 16-bit PNG): a few at a time, whatever the number of uploads.
	select {
	case s.decodeSlots() <- struct{}{}:
		defer func() { <-s.decodeSlots() }()
	case <-ctx.Done():
		return "", 0, 0, ctx.Err()
	}
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return "", 0, 0, fmt.Errorf("rewind image: %w", err)
	}
	img, _, err := image.Decode(bufio.NewReader(in))
	if err != nil {
		return "", 0, 0, malformed("the %s image does not decode: %v", f.name, err)
	}
	b := img.Bounds()
	if b.Dx() != cfg.Width || b.Dy() != cfg.Height {
		return "", 0, 0, malformed("the %s image decodes to %d×%d, not the %d×%d its header declares", f.name, b.Dx(), b.Dy(), cfg.Width, cfg.Height)
	}
	switch f.name {
	case "jpeg":
		stored = "jpeg"
		err = jpeg.Encode(out, img, &jpeg.Options{Quality: 92})
	default:
		stored = "png"
		err = (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(out, img)
	}
	if err != nil {
		return "", 0, 0, fmt.Errorf("re-encode %s image as %s: %w", f.name, stored, err)
	}
	return stored, cfg.Width, cfg.Height, nil
}

// checkPixels bounds declared dimensions.
func (s *Service) checkPixels(w, h int) error {
	if w <= 0 || h <= 0 {
		return malformed("the image declares %d×%d pixels", w, h)
	}
	max := s.Limits.ImageMaxPixels
	if w > maxSide || h > maxSide || int64(w)*int64(h) > max {
		return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetDimensions,
			"the image declares %d×%d pixels (%.1f megapixels); images may have at most %.1f megapixels and %d pixels a side",
			w, h, float64(w)*float64(h)/1e6, float64(max)/1e6, maxSide)
	}
	return nil
}

func malformed(format string, args ...any) error {
	return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetMalformed, format, args...)
}
