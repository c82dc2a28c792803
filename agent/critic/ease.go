package critic

import (
	"math"
	"strings"
)

// ease mirrors runtime.js's easings, so the critic sees an element where the frame
// shows it (an easeOutBack fade is at 0.9 opacity when a linear one is at 0.6).
// cubic-bezier curves are taken as linear: none of the builtin agent's uses them.
func ease(name string, t float64) float64 {
	const c1, c3 = 1.70158, 1.70158 + 1
	c2 := c1 * 1.525
	pw := func(n float64) (in, out, inOut float64) {
		in = math.Pow(t, n)
		out = 1 - math.Pow(1-t, n)
		if t < 0.5 {
			inOut = math.Pow(2, n-1) * math.Pow(t, n)
		} else {
			inOut = 1 - math.Pow(-2*t+2, n)/2
		}
		return
	}
	powers := map[string]float64{"Quad": 2, "Cubic": 3, "Quart": 4, "Quint": 5}
	for k, n := range powers {
		if strings.HasSuffix(name, k) {
			in, out, io := pw(n)
			switch strings.TrimSuffix(name, k) {
			case "easeIn":
				return in
			case "easeOut":
				return out
			case "easeInOut":
				return io
			}
		}
	}
	switch name {
	case "easeInSine":
		return 1 - math.Cos(t*math.Pi/2)
	case "easeOutSine":
		return math.Sin(t * math.Pi / 2)
	case "easeInOutSine":
		return -(math.Cos(math.Pi*t) - 1) / 2
	case "easeInExpo":
		if t == 0 {
			return 0
		}
		return math.Pow(2, 10*t-10)
	case "easeOutExpo":
		if t == 1 {
			return 1
		}
		return 1 - math.Pow(2, -10*t)
	case "easeInOutExpo":
		switch {
		case t == 0 || t == 1:
			return t
		case t < 0.5:
			return math.Pow(2, 20*t-10) / 2
		}
		return (2 - math.Pow(2, -20*t+10)) / 2
	case "easeInBack":
		return c3*t*t*t - c1*t*t
	case "easeOutBack":
		return 1 + c3*math.Pow(t-1, 3) + c1*math.Pow(t-1, 2)
	case "easeInOutBack":
		if t < 0.5 {
			return math.Pow(2*t, 2) * ((c2+1)*2*t - c2) / 2
		}
		return (math.Pow(2*t-2, 2)*((c2+1)*(t*2-2)+c2) + 2) / 2
	case "easeOutElastic":
		if t == 0 || t == 1 {
			return t
		}
		return math.Pow(2, -10*t)*math.Sin((t*10-0.75)*2*math.Pi/3) + 1
	case "easeOutBounce":
		const n1, d1 = 7.5625, 2.75
		switch {
		case t < 1/d1:
			return n1 * t * t
		case t < 2/d1:
			t -= 1.5 / d1
			return n1*t*t + 0.75
		case t < 2.5/d1:
			t -= 2.25 / d1
			return n1*t*t + 0.9375
		}
		t -= 2.625 / d1
		return n1*t*t + 0.984375
	}
	return t
}
