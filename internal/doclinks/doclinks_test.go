package doclinks

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRepositoryLinksResolve walks the real README.md, docs/ and findings/.
func TestRepositoryLinksResolve(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root not found from the package folder: %v", err)
	}
	for _, b := range brokenUnder(t, root) {
		t.Error(b)
	}
}

func TestCheckReportsEachBrokenLinkWithFileAndLine(t *testing.T) {
	root := t.TempDir()
	write(t, root, "README.md", "See [the guide](docs/guide.md#start) and [gone](docs/gone.md).\n")
	write(t, root, "docs/guide.md", "Back [home](../README.md), [sibling](docs/other.md), [web](https://x.org/a.md).\n"+
		"[mail](mailto:a@b.c) and [here](#start) are not files.\n"+
		"[folder](../findings/run) and ![figure](../findings/run/fig.png \"a title\").\n")
	write(t, root, "findings/run/results.md", "Up [two](../../docs/guide.md) and [root](/docs/guide.md).\n")
	write(t, root, "findings/run/fig.png", "")
	got := brokenUnder(t, root)
	want := []Broken{
		{File: "README.md", Link: Link{Line: 1, Target: "docs/gone.md"}},
		{File: filepath.Join("docs", "guide.md"), Link: Link{Line: 1, Target: "docs/other.md"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("broken links:\n got %v\nwant %v", got, want)
	}
	if s, w := got[0].String(), "README.md:1: docs/gone.md does not exist"; s != w {
		t.Errorf("report %q, want %q", s, w)
	}
}

func TestLinksLeaveOutCodeAndOtherPages(t *testing.T) {
	text := "```\n[in a block](a.md)\n```\n" +
		"`[in a span](b.md)` but [real](c.md?x=1#top)\n" +
		"~~~go\n```\n[still a block](d.md)\n~~~\n" +
		"[web](http://x) [secure](https://x) [mail](mailto:x@y) [anchor](#a) [two](e.md) [three](f%20g.md)\n"
	want := []Link{{Line: 4, Target: "c.md?x=1#top"}, {Line: 9, Target: "e.md"}, {Line: 9, Target: "f%20g.md"}}
	if got := Links(text); !reflect.DeepEqual(got, want) {
		t.Errorf("links:\n got %v\nwant %v", got, want)
	}
}

func TestExistsReadsEscapesAnchorsAndRootPaths(t *testing.T) {
	root := t.TempDir()
	write(t, root, "docs/a b.md", "")
	for _, target := range []string{"a%20b.md", "a%20b.md#part", "/docs/a b.md", "../docs"} {
		if !exists(root, "docs", target) {
			t.Errorf("%s from docs/: missing, want found", target)
		}
	}
	if exists(root, "docs", "docs/a%20b.md") {
		t.Error("docs/a%20b.md from inside docs/: found, want missing")
	}
}

func write(t *testing.T, root, name, text string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// brokenUnder checks every document of root, failing t if they cannot be read.
func brokenUnder(t *testing.T, root string) []Broken {
	t.Helper()
	files, err := Documents(root)
	if err != nil {
		t.Fatal(err)
	}
	broken, err := Check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	return broken
}
