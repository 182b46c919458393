package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lockbench/lockbench/safety/lab"
	"github.com/lockbench/lockbench/safety/suite"
)

// k8sContainer and k8sObject are what the manifest tests read of a Kubernetes object.
type k8sContainer struct {
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

type k8sObject struct {
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
				Containers []k8sContainer `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// k8sJob reads the Job named name from a manifest of several objects.
func k8sJob(t *testing.T, path, name string) k8sObject {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	for {
		var o k8sObject
		if err := dec.Decode(&o); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if o.Kind == "Job" && o.Metadata.Name == name {
			return o
		}
	}
	t.Fatalf("%s: no Job %s", path, name)
	return k8sObject{}
}

// indexedArgs checks an Indexed Job runs command in every pod and returns each pod's
// arguments, with the completion index and the other variables put in.
func indexedArgs(t *testing.T, job k8sObject, command string) [][]string {
	t.Helper()
	n := job.Spec.Completions
	if job.Spec.CompletionMode != "Indexed" || n < 2 {
		t.Fatalf("Job %s: completionMode %q, completions %d: want Indexed, N >= 2", job.Metadata.Name, job.Spec.CompletionMode, n)
	}
	c := job.Spec.Template.Spec.Containers[0]
	if strings.Join(c.Command, " ") != command {
		t.Fatalf("Job %s: command %q, want %s", job.Metadata.Name, c.Command, command)
	}
	vars := map[string]string{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.annotations['batch.kubernetes.io/job-completion-index']":
			vars[e.Name] = "INDEX"
		case e.Value != "":
			vars[e.Name] = e.Value
		}
	}
	var pods [][]string
	for i := range n {
		pods = append(pods, expand(c.Args, `\$\(([A-Z_]+)\)`, func(name string) (string, bool) {
			v, ok := vars[name]
			return strings.ReplaceAll(v, "INDEX", fmt.Sprint(i)), ok
		}, t))
	}
	return pods
}

// The shipped worker manifests keep the worker contract: N workers with indices 0..N-1
// of N, one shared run id, a folder each, every flag one `lockbench run` knows, and a
// merge of exactly those folders. Kubernetes cannot run here; this reads its files.
func TestKubernetesManifestKeepsTheWorkerContract(t *testing.T) {
	t.Parallel()
	workers := k8sJob(t, "../../deploy/kubernetes/workers.yaml", "lockbench-workers")
	if workers.Spec.Parallelism != workers.Spec.Completions {
		t.Errorf("workers Job: parallelism %d of %d: the load workers must run all at once", workers.Spec.Parallelism, workers.Spec.Completions)
	}
	var folders []string
	for i, args := range indexedArgs(t, workers, "/usr/bin/lockbench run") {
		folders = append(folders, checkWorkerArgs(t, args, i, workers.Spec.Completions))
	}
	merge := k8sJob(t, "../../deploy/kubernetes/merge.yaml", "lockbench-merge")
	checkMergeArgs(t, merge.Spec.Template.Spec.Containers[0].Args, folders)
}

// composeService is what the manifest tests read of a Compose service.
type composeService struct {
	Entrypoint  []string `yaml:"entrypoint"`
	Command     []string `yaml:"command"`
	NetworkMode string   `yaml:"network_mode"`
}

// composeWorkers reads a Compose file and returns its services prefix-0 .. prefix-(N-1),
// each checked to run `lockbench command`, with its arguments expanded (every variable
// takes its default), and the merge service.
func composeWorkers(t *testing.T, path, prefix, command string) (workers []composeService, args [][]string, merge composeService) {
	t.Helper()
	var file struct {
		Services map[string]composeService `yaml:"services"`
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	n := 0
	for name := range file.Services {
		if strings.HasPrefix(name, prefix+"-") {
			n++
		}
	}
	if n < 2 {
		t.Fatalf("%s: %d %s services, want N >= 2", path, n, prefix)
	}
	for i := range n {
		s, ok := file.Services[fmt.Sprintf("%s-%d", prefix, i)]
		if !ok {
			t.Fatalf("%s: no service %s-%d of %d", path, prefix, i, n)
		}
		if len(s.Entrypoint) < 2 || s.Entrypoint[0] != "/usr/bin/lockbench" || s.Entrypoint[1] != command {
			t.Fatalf("%s-%d entrypoint %q: want /usr/bin/lockbench %s", prefix, i, s.Entrypoint, command)
		}
		workers = append(workers, s)
		args = append(args, expand(append(append([]string{}, s.Entrypoint[2:]...), s.Command...), `\$\{([A-Z_]+)(?::[-?]([^}]*))?\}`,
			func(string) (string, bool) { return "", false }, t))
	}
	merge = file.Services["merge"]
	if len(merge.Entrypoint) < 2 || merge.Entrypoint[1] != "merge" {
		t.Fatalf("%s: merge entrypoint %q", path, merge.Entrypoint)
	}
	return workers, args, merge
}

// The Compose file keeps the same contract, as CI's run of it shows in practice.
func TestComposeFileKeepsTheWorkerContract(t *testing.T) {
	t.Parallel()
	_, args, merge := composeWorkers(t, "../../deploy/compose/docker-compose.yaml", "worker", "run")
	var folders []string
	for i, a := range args {
		folders = append(folders, checkWorkerArgs(t, a, i, len(args)))
	}
	checkMergeArgs(t, merge.Entrypoint[2:], folders)
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

// checkSafetyArgs checks one safety worker's arguments as `lockbench safety` would
// take them (every flag known, the scenario and its params valid, the worker's share
// I of N, servers started in the worker as processes) and returns its folder.
func checkSafetyArgs(t *testing.T, args []string, index, of int) string {
	t.Helper()
	var stderr strings.Builder
	if code := run(append(append([]string{"safety"}, args...), "--list"), nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("worker %d: lockbench safety %q: exit %d: %s", index, args, code, stderr.String())
	}
	values, params := map[string]string{}, paramFlags{}
	for _, a := range args {
		name, value, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !ok || !strings.HasPrefix(a, "--") {
			t.Fatalf("worker %d: argument %q: want --name=value", index, a)
		}
		if name == "param" {
			if err := params.Set(value); err != nil {
				t.Fatalf("worker %d: %v", index, err)
			}
			continue
		}
		values[name] = value
	}
	if _, err := suite.Choose(values["scenario"], lab.Params(params)); err != nil {
		t.Errorf("worker %d: --scenario %s with %v: %v", index, values["scenario"], params, err)
	}
	trials, err := strconv.Atoi(values["trials"])
	if err != nil {
		t.Fatalf("worker %d: --trials %q: %v", index, values["trials"], err)
	}
	share, err := safetyWorker(values["worker"], trials, 0)
	if err != nil || share == nil || share.Index != index || share.Of != of {
		t.Errorf("worker %d: --worker %q gives %+v (%v), want %d/%d", index, values["worker"], share, err, index, of)
	}
	if values["provider"] != "process" {
		t.Errorf("worker %d: --provider %q: a worker starts its own servers as processes (no engine in a pod)", index, values["provider"])
	}
	if values["out"] == "" {
		t.Errorf("worker %d: no --out", index)
	}
	return values["out"]
}

// The shipped safety campaign for Kubernetes splits one campaign over the Job's pods
// and merges exactly their folders.
func TestKubernetesSafetyManifestSplitsOneCampaign(t *testing.T) {
	t.Parallel()
	job := k8sJob(t, "../../deploy/kubernetes/safety.yaml", "lockbench-safety")
	var folders []string
	for i, args := range indexedArgs(t, job, "/usr/bin/lockbench safety") {
		folders = append(folders, checkSafetyArgs(t, args, i, job.Spec.Completions))
	}
	merge := k8sJob(t, "../../deploy/kubernetes/safety-merge.yaml", "lockbench-safety-merge")
	checkMergeArgs(t, merge.Spec.Template.Spec.Containers[0].Args, folders)
}

// The Compose safety campaign (run for real by deploy's tests) keeps the same contract.
func TestComposeSafetyFileSplitsOneCampaign(t *testing.T) {
	t.Parallel()
	workers, args, merge := composeWorkers(t, "../../deploy/compose/safety.yaml", "safety", "safety")
	var folders []string
	for i, a := range args {
		if workers[i].NetworkMode != "none" {
			t.Errorf("safety-%d network_mode %q: its servers are its own, it needs no network", i, workers[i].NetworkMode)
		}
		folders = append(folders, checkSafetyArgs(t, a, i, len(args)))
	}
	checkMergeArgs(t, merge.Entrypoint[2:], folders)
}
