// Package doclinks finds the relative Markdown links of the project's documents whose
// target does not exist: a moved or renamed file must not leave a reader at a dead end.
package doclinks

import (
	"bufio"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Link is one relative link as written: the line it sits on and its target, anchor included.
type Link struct {
	Line   int
	Target string
}

// Broken is a link whose target is missing, named by the file that holds it.
type Broken struct {
	File string
	Link
}

func (b Broken) String() string {
	return fmt.Sprintf("%s:%d: %s does not exist", b.File, b.Line, b.Target)
}

// inlineLink matches [text](target) and ![alt](target), with an optional "title".
var inlineLink = regexp.MustCompile(`\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

// codeSpan matches inline code, whose brackets are text and not links.
var codeSpan = regexp.MustCompile("`+[^`]*`+")

// scheme matches a target that names a protocol (http:, https:, mailto:...): not a file.
var scheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// Documents lists README.md and every .md file under docs/ and findings/ of root,
// as paths relative to root: the documents a reader follows links through.
func Documents(root string) ([]string, error) {
	files := []string{"README.md"}
	for _, dir := range []string{"docs", "findings"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".md" {
				return err
			}
			r, err := filepath.Rel(root, path)
			files = append(files, r)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// Check returns every relative link of files (relative to root) whose target is missing.
func Check(root string, files []string) ([]Broken, error) {
	var broken []Broken
	for _, file := range files {
		text, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			return nil, err
		}
		for _, l := range Links(string(text)) {
			if !exists(root, filepath.Dir(file), l.Target) {
				broken = append(broken, Broken{File: file, Link: l})
			}
		}
	}
	return broken, nil
}

// Links returns the relative links of a Markdown text, leaving out fenced code blocks,
// inline code, links with a scheme and links to an anchor of the same page.
func Links(text string) []Link {
	var links []Link
	fence := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<24) // generated results pages have very long table rows
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if fence = nextFence(fence, line); fence != "" || isFence(line) {
			continue
		}
		for _, m := range inlineLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			if isRelative(m[1]) {
				links = append(links, Link{Line: n, Target: m[1]})
			}
		}
	}
	return links
}

// isFence tells whether line opens or closes a fenced code block.
func isFence(line string) bool {
	return fenceOf(line) != ""
}

// fenceOf is the fence marker a line starts with (``` or ~~~), or "".
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return ""
	}
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, f) {
			return f
		}
	}
	return ""
}

// nextFence is the open fence after line: a block closes only on its own marker.
func nextFence(open, line string) string {
	f := fenceOf(line)
	switch {
	case open == "":
		return f
	case f == open:
		return ""
	default:
		return open
	}
}

func isRelative(target string) bool {
	return !strings.HasPrefix(target, "#") && !scheme.MatchString(target)
}

// exists tells whether target, read from a document in dir (relative to root), names a
// file or folder; a target starting with / starts at root, as the repository's host reads it.
func exists(root, dir, target string) bool {
	path, _, _ := strings.Cut(target, "#")
	path, _, _ = strings.Cut(path, "?")
	if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	if !strings.HasPrefix(path, "/") {
		path = filepath.ToSlash(dir) + "/" + path
	}
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(path)))
	return err == nil
}
