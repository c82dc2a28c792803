package koda_test

import (
	"slices"
	"testing"

	"github.com/kodahq/koda"
)

func TestPageSizeAndPage(t *testing.T) {
	for limit, want := range map[int]int{0: 50, -1: 50, 1: 1, 200: 200, 201: 50} {
		if got := koda.PageSize(limit); got != want {
			t.Errorf("PageSize(%d) = %d, want %d", limit, got, want)
		}
	}
	id := func(s string) string { return s }
	items, next := koda.Page([]string{"a", "b", "c"}, 2, id)
	if !slices.Equal(items, []string{"a", "b"}) || next != "b" {
		t.Errorf("a fuller page: %v, next %q; want [a b], next b", items, next)
	}
	items, next = koda.Page([]string{"a", "b"}, 2, id)
	if !slices.Equal(items, []string{"a", "b"}) || next != "" {
		t.Errorf("the last page: %v, next %q; want [a b], no next", items, next)
	}
}
