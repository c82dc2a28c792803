package llm_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/llm"
)

// TestListProjectAssets: the orchestrator's list_project_assets names the customer's
// files by role and path in the project, and the brand's colours.
func TestListProjectAssets(t *testing.T) {
	p := &koda.Project{Assets: []koda.ProjectAsset{
		{ID: "ast_1", Role: koda.RoleLogo, Kind: koda.AssetImage, File: "assets/logo.png", Name: "acme.png", Width: 64, Height: 32, Key: "assets/t/x.png"},
		{ID: "ast_2", Role: koda.RoleFont, Kind: koda.AssetFont, File: "assets/font.woff2", Name: "Acme.woff2"},
	}, Brand: &koda.Brand{Colors: koda.BrandColors{Primary: "#ff6600"}, EndCard: "acme.example"}}
	out, err := llm.ProjectAssets(p)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Assets []struct{ Role, Kind, Path, Name string } `json:"assets"`
		Colors koda.BrandColors                          `json:"brand_colors"`
		End    string                                    `json:"end_card"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got.Assets) != 2 || got.Assets[0].Role != "logo" || got.Assets[0].Path != "assets/logo.png" ||
		got.Assets[1].Path != "assets/font.woff2" || got.Colors.Primary != "#ff6600" || got.End != "acme.example" {
		t.Errorf("list_project_assets answered %s", out)
	}
	if strings.Contains(out, "assets/t/x.png") {
		t.Error("the storage key leaked to the model")
	}
}
