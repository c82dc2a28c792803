package assets

import "strings"

// headings are the directions drawings of travelling things face, in degrees (0 right,
// -90 up, 180 left), where the category's default is wrong: emoji animals and vehicles
// face left, these do not.
var headings = map[string]float64{
	"fluent:airplane": -45, "fluent:small-airplane": -45, "fluent:rocket": -45, "tabler:send": -45,
	"tabler:send-2": -45, "tabler:plane": 0, "tabler:rocket": -45, "fluent:shooting-star": 135, "fluent:comet": 135,
	"fluent:bird": 0, "fluent:speedboat": 0, "fluent:helicopter": 0, "fluent:snake": 0, "fluent:motorcycle": 0,
	"fluent:bicycle": 0, "fluent:racing-car": 180, "fluent:flying-saucer": 0, "fluent:airplane-departure": -45,
	"fluent:airplane-arrival": 45, "fluent:dove": 180, "tabler:zeppelin": 180, "tabler:car": 0, "tabler:bus": 0,
	"tabler:truck": 0, "tabler:bike": 0, "tabler:ship": 0, "tabler:sailboat": 0, "tabler:fish": 0,
}

// Heading is the direction the asset's drawing faces, in degrees (0 right, -90 up, 180
// left), for turning or mirroring it to its travel; false when it does not face a way
// (a house, a ball) or is not known.
func (a *Asset) Heading() (float64, bool) {
	if h, ok := headings[a.ID]; ok {
		return h, true
	}
	if a.Set == "fluent" || a.Set == "noto" {
		c := a.Category
		if strings.HasPrefix(c, "animals-nature/animal-") || c == "travel-places/transport-ground" || c == "travel-places/transport-water" {
			return 180, true
		}
	}
	return 0, false
}
