package supervisor

import (
	"os"
	"strings"
)

// kernelEnvKeys are the variables of this process a kernel inherits: what
// a program needs to run (paths, locale, time zone, the Go runtime's
// knobs), nothing else. The server's environment holds the credentials
// the project's secrets name (PG_URL), and a block that lists os.Environ
// must not read them: it gets a secret through ctx.Secret, by name, masked
// in its output.
var kernelEnvKeys = map[string]bool{
	"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "SHELL": true,
	"LANG": true, "LANGUAGE": true, "TZ": true, "TMPDIR": true, "TERM": true,
	"GOGC": true, "GOMEMLIMIT": true, "GOMAXPROCS": true, "GODEBUG": true, "GOTRACEBACK": true,
	"GOCOVERDIR": true, // coverage of kernels run by tests
}

// kernelEnv is the environment a kernel starts with: the allowed variables
// of this process, then extra.
func kernelEnv(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if kernelEnvKeys[k] || strings.HasPrefix(k, "LC_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}
