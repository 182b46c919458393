package zookeeper

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The ZooKeeper lookups live beside the descriptor, which declares them as its server's
// requirement, rather than in zktopo: a program can check for the server without
// linking a client.

// ErrNoServer says Java or the ZooKeeper server jar was not found.
var ErrNoServer = errors.New("ZooKeeper server not found: install it (Debian/Ubuntu: apt-get install zookeeper, " +
	"which brings Java) or set ZOOKEEPER_JAVA_DIR to the directory holding zookeeper.jar and JAVA_HOME to a Java runtime")

// zooKeeperJarDir is where Debian's libzookeeper-java puts zookeeper.jar; the jar's
// manifest names its dependencies there by absolute path.
const zooKeeperJarDir = "/usr/share/java"

// zooKeeperLogJars bind ZooKeeper's slf4j logging to log4j 1.2, as Debian's package
// ships them: without a binding the server logs nothing, not even why it exited.
var zooKeeperLogJars = []string{"slf4j-log4j12.jar", "log4j-1.2.jar"}

// Install is the Java runtime and the jars a server runs with.
type Install struct {
	Java string
	// Classpath holds zookeeper.jar first, then the logging binding where it is found.
	Classpath []string
	// Logging says the binding was found: without it the server's log stays empty.
	Logging bool
	// JVMOptions come before the server's own: $LOCKBENCH_ZOOKEEPER_JVM_OPTIONS, split
	// at spaces (make test starts every server with C1 only, a third less CPU a start).
	JVMOptions []string
}

// JVMOptionsEnv names the extra JVM options every ZooKeeper server is started with.
const JVMOptionsEnv = "LOCKBENCH_ZOOKEEPER_JVM_OPTIONS"

// Find finds java ($JAVA_HOME/bin/java, else java on PATH) and zookeeper.jar
// ($ZOOKEEPER_JAVA_DIR, else /usr/share/java).
func Find() (Install, error) {
	java, err := findJava()
	if err != nil {
		return Install{}, err
	}
	dir := zooKeeperJarDir
	if d := os.Getenv("ZOOKEEPER_JAVA_DIR"); d != "" {
		dir = d
	}
	jar := filepath.Join(dir, "zookeeper.jar")
	if fi, err := os.Stat(jar); err != nil || fi.IsDir() {
		return Install{}, fmt.Errorf("no %s: %w", jar, ErrNoServer)
	}
	install := Install{Java: java, Classpath: []string{jar}, Logging: true,
		JVMOptions: strings.Fields(os.Getenv(JVMOptionsEnv))}
	for _, name := range zooKeeperLogJars {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err != nil {
			install.Logging = false
			continue
		}
		install.Classpath = append(install.Classpath, p)
	}
	return install, nil
}

func findJava() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		java := filepath.Join(home, "bin", "java")
		if fi, err := os.Stat(java); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return java, nil
		}
		return "", fmt.Errorf("JAVA_HOME=%s has no executable bin/java: %w", home, ErrNoServer)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("java is not on PATH: %w", ErrNoServer)
	}
	return java, nil
}
