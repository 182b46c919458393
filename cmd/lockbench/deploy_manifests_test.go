package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The shipped worker manifests keep the worker contract: N workers with indices 0..N-1
// of N, one shared run id, a folder each, every flag one `lockbench run` knows, and a
// merge of exactly those folders. Kubernetes cannot run here; this reads its files.
func TestKubernetesManifestKeepsTheWorkerContract(t *testing.T) {
	type container struct {
		Command []string `yaml:"command"`
		Args    []string `yaml:"args"`
		Env     []struct {
			Name      string `yaml:"name"`
			Value     string `yaml:"value"`
			ValueFrom *struct {
				FieldRef struct {
					FieldPath string `yaml:"fieldPath"`
				} `yaml:"fieldRef"`
			} `yaml:"valueFrom"`
		} `yaml:"env"`
	}
	type object struct {
		Kind     string `yaml:"kind"`
		Metadata struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Parallelism    int    `yaml:"parallelism"`
			Template       struct {
				Spec struct {
					Containers []container `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	read := func(path string) []object {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var objs []object
		dec := yaml.NewDecoder(f)
		for {
			var o object
			if err := dec.Decode(&o); err == io.EOF {
				return objs
			} else if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			objs = append(objs, o)
		}
	}
	job := func(objs []object, name string) object {
		for _, o := range objs {
			if o.Kind == "Job" && o.Metadata.Name == name {
				return o
			}
		}
		t.Fatalf("no Job %s", name)
		return object{}
	}
	workers := job(read("../../deploy/kubernetes/workers.yaml"), "lockbench-workers")
	n := workers.Spec.Completions
	if workers.Spec.CompletionMode != "Indexed" || n < 2 || workers.Spec.Parallelism != n {
		t.Fatalf("workers Job: completionMode %q, completions %d, parallelism %d: want Indexed, N >= 2 all at once",
			workers.Spec.CompletionMode, n, workers.Spec.Parallelism)
	}
	c := workers.Spec.Template.Spec.Containers[0]
	vars := map[string]string{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.annotations['batch.kubernetes.io/job-completion-index']":
			vars[e.Name] = "INDEX"
		case e.Value != "":
			vars[e.Name] = e.Value
		}
	}
	if strings.Join(c.Command, " ") != "/usr/bin/lockbench run" {
		t.Fatalf("worker command %q: want /usr/bin/lockbench run", c.Command)
	}
	var folders []string
	for i := range n {
		args := expand(c.Args, `\$\(([A-Z_]+)\)`, func(name string) (string, bool) {
			v, ok := vars[name]
			return strings.ReplaceAll(v, "INDEX", fmt.Sprint(i)), ok
		}, t)
		folders = append(folders, checkWorkerArgs(t, args, i, n))
	}
	merge := job(read("../../deploy/kubernetes/merge.yaml"), "lockbench-merge")
	checkMergeArgs(t, merge.Spec.Template.Spec.Containers[0].Args, folders)
}

// The Compose file keeps the same contract, as CI's run of it shows in practice.
func TestComposeFileKeepsTheWorkerContract(t *testing.T) {
	var file struct {
		Services map[string]struct {
			Entrypoint []string `yaml:"entrypoint"`
			Command    []string `yaml:"command"`
		} `yaml:"services"`
	}
	data, err := os.ReadFile("../../deploy/compose/docker-compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	env := func(name string) (string, bool) { return "", false } // every variable takes its default
	var folders []string
	var n int
	for name := range file.Services {
		if strings.HasPrefix(name, "worker-") {
			n++
		}
	}
	for i := range n {
		s, ok := file.Services[fmt.Sprintf("worker-%d", i)]
		if !ok {
			t.Fatalf("no service worker-%d of %d", i, n)
		}
		if len(s.Entrypoint) < 2 || s.Entrypoint[0] != "/usr/bin/lockbench" || s.Entrypoint[1] != "run" {
			t.Fatalf("worker-%d entrypoint %q: want /usr/bin/lockbench run", i, s.Entrypoint)
		}
		args := append(append([]string{}, s.Entrypoint[2:]...), s.Command...)
		args = expand(args, `\$\{([A-Z_]+)(?::[-?]([^}]*))?\}`, func(name string) (string, bool) { return env(name) }, t)
		folders = append(folders, checkWorkerArgs(t, args, i, n))
	}
	m := file.Services["merge"]
	if len(m.Entrypoint) < 2 || m.Entrypoint[1] != "merge" {
		t.Fatalf("merge entrypoint %q", m.Entrypoint)
	}
	checkMergeArgs(t, m.Entrypoint[2:], folders)
}

// expand replaces each variable the pattern finds: by lookup, else by the pattern's
// default (its second group); a variable with neither fails the test.
func expand(args []string, pattern string, lookup func(string) (string, bool), t *testing.T) []string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = re.ReplaceAllStringFunc(a, func(m string) string {
			g := re.FindStringSubmatch(m)
			if v, ok := lookup(g[1]); ok {
				return v
			}
			if len(g) > 2 && g[2] != "" && strings.Contains(m, ":-") {
				return g[2]
			}
			if strings.Contains(m, ":?") {
				return "from-" + strings.ToLower(g[1]) // required: the user sets it
			}
			t.Fatalf("argument %q: %s has no value", a, g[1])
			return ""
		})
	}
	return out
}

// checkWorkerArgs parses args as `lockbench run` does and returns the worker's folder.
func checkWorkerArgs(t *testing.T, args []string, index, of int) string {
	t.Helper()
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f runFlags
	f.register(fs)
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		t.Fatalf("worker %d: lockbench run %q: %v (extra %q)", index, args, err, fs.Args())
	}
	if want := fmt.Sprintf("%d/%d", index, of); f.workers.worker != want {
		t.Errorf("worker %d: --worker %q, want %s", index, f.workers.worker, want)
	}
	if f.runID == "" || f.deployment == "" || f.out == "" {
		t.Errorf("worker %d: --run-id %q, --deployment %q, --out %q: a worker needs all three", index, f.runID, f.deployment, f.out)
	}
	return f.out
}

// checkMergeArgs checks the merge step names exactly the workers' folders.
func checkMergeArgs(t *testing.T, args, folders []string) {
	t.Helper()
	var dirs []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			dirs = append(dirs, a)
		}
	}
	if strings.Join(dirs, " ") != strings.Join(folders, " ") {
		t.Errorf("merge reads %q, the workers write %q", dirs, folders)
	}
}
