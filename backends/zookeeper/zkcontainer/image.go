package zkcontainer

import (
	"context"
	"os"
	"path/filepath"

	"github.com/lockbench/lockbench/backends/zookeeper"
	"github.com/lockbench/lockbench/topologies/container"
)

// javaMounts are the host dirs a ZooKeeper container mounts read-only: the Java home
// (263 MB here: mounted, not copied), the config its symlinks point into, and the
// dirs of the jars on the classpath (zookeeper.jar's manifest names its own by path).
func javaMounts(install zookeeper.Install) (home string, mounts []string, err error) {
	java, err := filepath.EvalSymlinks(install.Java)
	if err != nil {
		return "", nil, err
	}
	home = filepath.Dir(filepath.Dir(java)) // .../bin/java -> the Java home
	mounts = []string{home}
	for _, etc := range []string{"/etc/java-17-openjdk", "/etc/ssl/certs/java"} {
		if _, err := os.Stat(etc); err == nil {
			mounts = append(mounts, etc)
		}
	}
	seen := map[string]bool{}
	for _, jar := range install.Classpath {
		if d := filepath.Dir(jar); !seen[d] && !container.Under(d, mounts) {
			seen[d] = true
			mounts = append(mounts, d)
		}
	}
	return home, mounts, nil
}

// buildImage holds only what the mounted Java home needs from outside it: the
// libraries ldd lists for java and the JVM's own libraries, and the loader.
func buildImage(ctx context.Context, d *container.Topology, install zookeeper.Install) (string, []string, error) {
	home, mounts, err := javaMounts(install)
	if err != nil {
		return "", nil, err
	}
	files := container.Files{"/etc/passwd": "/etc/passwd", "/etc/group": "/etc/group"}
	elves := []string{filepath.Join(home, "bin", "java"), filepath.Join(home, "lib", "server", "libjvm.so")}
	for _, lib := range []string{"libjava", "libjimage", "libjli", "libnet", "libnio", "libzip", "libverify", "libextnet",
		"libmanagement", "libmanagement_ext", "libjsvml"} {
		elves = append(elves, filepath.Join(home, "lib", lib+".so"))
	}
	for _, e := range elves {
		if _, err := os.Stat(e); err != nil {
			continue // not every JDK build has every library
		}
		if err := files.AddLibraries(e, mounts); err != nil {
			return "", nil, err
		}
	}
	tag, err := d.BuildImage(ctx, "lockbench/zookeeper-host", files)
	return tag, mounts, err
}
