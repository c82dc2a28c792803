package api

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// Brand is the tenant's brand kit (internal/lifecycle).
type Brand interface {
	// GetBrand returns the caller's kit or ENOTFOUND.
	GetBrand(ctx context.Context) (*koda.Brand, error)
	// PutBrand checks and replaces the caller's kit.
	PutBrand(ctx context.Context, b *koda.Brand) (*koda.Brand, error)
}

// brandRequest is the body of PUT /v1/brand: the whole kit, replaced. Asset fields
// are ids of the caller's assets ("" or missing: none).
type brandRequest struct {
	Logo       string           `json:"logo"`
	Font       string           `json:"font"`
	Soundtrack string           `json:"soundtrack"`
	Colors     koda.BrandColors `json:"colors"`
	EndCard    string           `json:"end_card"`
}

type brandView struct {
	Logo       *string          `json:"logo"`
	Font       *string          `json:"font"`
	Soundtrack *string          `json:"soundtrack"`
	Colors     koda.BrandColors `json:"colors"`
	EndCard    string           `json:"end_card"`
	UpdatedAt  time.Time        `json:"updated_at"`
}

func viewBrand(b *koda.Brand) brandView {
	id := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return brandView{Logo: id(b.Logo), Font: id(b.Font), Soundtrack: id(b.Soundtrack), Colors: b.Colors,
		EndCard: b.EndCard, UpdatedAt: b.UpdatedAt}
}

func (s *Server) brand() (Brand, error) {
	if s.Brand == nil {
		return nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "this server keeps no brand kits")
	}
	return s.Brand, nil
}

func (s *Server) getBrand(c *fiber.Ctx) error {
	br, err := s.brand()
	if err != nil {
		return err
	}
	b, err := br.GetBrand(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(viewBrand(b))
}

func (s *Server) putBrand(c *fiber.Ctx) error {
	br, err := s.brand()
	if err != nil {
		return err
	}
	var req brandRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	b, err := br.PutBrand(c.UserContext(), &koda.Brand{Logo: req.Logo, Font: req.Font, Soundtrack: req.Soundtrack,
		Colors: req.Colors, EndCard: req.EndCard})
	if err != nil {
		return err
	}
	return c.JSON(viewBrand(b))
}
