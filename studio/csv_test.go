package studio_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/studio"
)

// csvCases are files a person may upload: quoted commas, doubled quotes and line breaks
// in a cell, CRLF lines, a byte-order mark, blank lines, spaces before a field, and
// malformed files.
var csvCases = []string{
	"headline,price\nSpring,$5\n",
	"headline,price\r\n\"Big, bold sale\",\"$1,299\"\r\n",
	"\ufeffheadline,note\n\"She said \"\"hi\"\"\",\"two\nlines\"\nplain,\"crlf\r\ninside\"\n",
	"a,b\n\n\nx,y\n",
	"a, b\n 1, \"2, three\"\n",
	"a,b,c\n1,,3\n,,\n",
	"a,b\nno newline at the end,x",
	"a,b\n1,2,3\n",
	"a,b\n\"open,2\n",
	"a,b\nbare\"quote,2\n",
	"a,b\n\"x\"y,2\n",
	"a,b\n\u00a0\tx,\"y\"\n",
}

// goCSV reads s as the server reads an uploaded batch (api.csvBatchRequest).
func goCSV(s string) ([][]string, error) {
	r := csv.NewReader(strings.NewReader(s))
	r.TrimLeadingSpace = true
	var out [][]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(out) == 0 {
			rec[0] = strings.TrimPrefix(rec[0], "\ufeff") // as the server does with the header
		}
		out = append(out, rec)
	}
}

// TestCSVReadsAsTheServer runs the Studio's CSV reader (csv.js) in headless Chromium on
// each case and checks it finds the records Go's encoding/csv finds, or fails where it
// fails: the preview shows the rows the server would read.
func TestCSVReadsAsTheServer(t *testing.T) {
	chromium := renderer.FindChromium()
	if _, err := exec.LookPath(chromium); err != nil {
		t.Skipf("no Chromium: %v", err)
	}
	files := http.FileServer(http.FS(studio.FS()))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, "<!doctype html><title>csv</title>")
			return
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, time.Minute)
	defer cancelT()

	in, _ := json.Marshal(csvCases)
	var out []struct {
		Records [][]string `json:"records"`
		Error   string     `json:"error"`
		Header  []string   `json:"header"`
		Values  []map[string]string
	}
	script := `import('/csv.js').then((m) => ` + string(in) + `.map((s) => {
		try {
			const recs = m.parseCSV(s);
			const rows = recs.length ? m.batchRows(recs) : { header: [], rows: [] };
			return { records: recs.map((r) => r.fields), header: rows.header, Values: rows.rows.map((r) => r.values), error: '' };
		} catch (e) {
			return { records: null, error: e.message };
		}
	}))`
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/"),
		chromedp.Evaluate(script, &out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })); err != nil {
		t.Fatal(err)
	}
	if len(out) != len(csvCases) {
		t.Fatalf("%d results for %d cases", len(out), len(csvCases))
	}
	for i, s := range csvCases {
		want, werr := goCSV(s)
		got := out[i]
		switch {
		case werr != nil && got.Error == "":
			t.Errorf("case %q: Go refuses it (%v), the Studio reads %q", s, werr, got.Records)
		case werr == nil && got.Error != "":
			t.Errorf("case %q: the Studio refuses it (%s), Go reads %q", s, got.Error, want)
		case werr == nil && !reflect.DeepEqual(got.Records, want):
			t.Errorf("case %q: the Studio reads %q, Go %q", s, got.Records, want)
		}
	}
	// The rows sent are the cells as text, an empty one left out (the field keeps its
	// value), under the header's trimmed names.
	if got := out[5]; !reflect.DeepEqual(got.Values, []map[string]string{{"a": "1", "c": "3"}, {}}) {
		t.Errorf("rows of %q: %v", csvCases[5], got.Values)
	}
	if got := out[2]; got.Header[0] != "headline" || got.Values[0]["note"] != "two\nlines" {
		t.Errorf("rows of %q: header %q, values %q", csvCases[2], got.Header, got.Values)
	}
}
