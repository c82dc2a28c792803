package config

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v3"
)

// Assets bounds the files tenants upload to their asset library (internal/assets).
// Every bound is checked before anything is stored; a file over one is refused with a
// code naming it.
type Assets struct {
	ImageMaxBytes  int64         // KODA_ASSET_IMAGE_MAX_BYTES (default 20 MB)
	ImageMaxPixels int64         // KODA_ASSET_IMAGE_MAX_PIXELS: width × height, read from the header before decoding (default 40 megapixels)
	FontMaxBytes   int64         // KODA_ASSET_FONT_MAX_BYTES (default 10 MB)
	AudioMaxBytes  int64         // KODA_ASSET_AUDIO_MAX_BYTES (default 100 MB)
	AudioMaxLength time.Duration // KODA_ASSET_AUDIO_MAX_DURATION (default 10m)
	FFprobe        string        // KODA_FFPROBE: the ffprobe binary that reads audio (default ffprobe)
}

func assetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.Int64Flag{Name: "asset-image-max-bytes", Value: 20_000_000, Usage: "largest image upload, bytes", Sources: cli.EnvVars("KODA_ASSET_IMAGE_MAX_BYTES")},
		&cli.Int64Flag{Name: "asset-image-max-pixels", Value: 40_000_000, Usage: "most pixels (width × height) of an uploaded image, checked from its header before it is decoded", Sources: cli.EnvVars("KODA_ASSET_IMAGE_MAX_PIXELS")},
		&cli.Int64Flag{Name: "asset-font-max-bytes", Value: 10_000_000, Usage: "largest font upload, bytes", Sources: cli.EnvVars("KODA_ASSET_FONT_MAX_BYTES")},
		&cli.Int64Flag{Name: "asset-audio-max-bytes", Value: 100_000_000, Usage: "largest audio upload, bytes", Sources: cli.EnvVars("KODA_ASSET_AUDIO_MAX_BYTES")},
		&cli.DurationFlag{Name: "asset-audio-max-duration", Value: 10 * time.Minute, Usage: "longest audio upload", Sources: cli.EnvVars("KODA_ASSET_AUDIO_MAX_DURATION")},
		&cli.StringFlag{Name: "ffprobe", Value: "ffprobe", Usage: "path to the ffprobe binary that checks audio uploads", Sources: cli.EnvVars("KODA_FFPROBE")},
	}
}

func assetsFromCommand(cmd *cli.Command) Assets {
	return Assets{
		ImageMaxBytes:  cmd.Int64("asset-image-max-bytes"),
		ImageMaxPixels: cmd.Int64("asset-image-max-pixels"),
		FontMaxBytes:   cmd.Int64("asset-font-max-bytes"),
		AudioMaxBytes:  cmd.Int64("asset-audio-max-bytes"),
		AudioMaxLength: cmd.Duration("asset-audio-max-duration"),
		FFprobe:        cmd.String("ffprobe"),
	}
}

func (a Assets) validate() error {
	for _, v := range []struct {
		name string
		n    int64
	}{{"KODA_ASSET_IMAGE_MAX_BYTES", a.ImageMaxBytes}, {"KODA_ASSET_IMAGE_MAX_PIXELS", a.ImageMaxPixels},
		{"KODA_ASSET_FONT_MAX_BYTES", a.FontMaxBytes}, {"KODA_ASSET_AUDIO_MAX_BYTES", a.AudioMaxBytes}} {
		if v.n < 1 {
			return fmt.Errorf("%s must be at least 1", v.name)
		}
	}
	if a.AudioMaxLength <= 0 {
		return fmt.Errorf("KODA_ASSET_AUDIO_MAX_DURATION must be positive")
	}
	return nil
}
