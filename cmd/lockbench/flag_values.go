package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/sweep"
)

// splitList reads a comma-separated list; an empty entry or one given twice is an
// error (a typo, or a cell measured twice under one name).
func splitList(v string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
			return nil, fmt.Errorf("%q has an empty entry", v)
		case seen[s]:
			return nil, fmt.Errorf("%q names %s twice", v, s)
		}
		seen[s] = true
		out = append(out, s)
	}
	return out, nil
}

// parseList reads a comma-separated list (splitList) and each entry with parse: the one
// way every list-valued flag reads its values.
func parseList[T any](v string, parse func(string) (T, error)) ([]T, error) {
	parts, err := splitList(v)
	if err != nil {
		return nil, err
	}
	var out []T
	for _, s := range parts {
		x, err := parse(s)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func parseInts(v string) ([]int, error) { return parseList(v, parseCount) }

// parseCount reads a whole number; Config.Cells judges its range, naming the field.
func parseCount(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", v)
	}
	return n, nil
}

func parseFloats(v string) ([]float64, error) { return parseList(v, parseFloat) }

func parseFloat(v string) (float64, error) {
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", v)
	}
	return n, nil
}

func parseDuration(v string) (sweep.Duration, error) {
	if v == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration like 10ms", v)
	}
	return sweep.Duration(d), nil
}

func parseDurations(v string) ([]sweep.Duration, error) { return parseList(v, parseDuration) }
