package main

import "github.com/hipgen/hipgen/internal/textdist"

func closest(name string, candidates []string) string {
	return textdist.Closest(name, candidates)
}
