package interp

import "fmt"

// RefusedImport says whether importing path needs the project's opt-in
// (strata.yaml kernel.allow) that allow lacks, and if so the message the
// block gets. Compiled workers (kernel/build) apply the same rule before
// building, so a block is refused the same way in both modes.
func RefusedImport(path string, allow map[string]bool) (msg string, refused bool) {
	why, ok := restricted[path]
	if !ok || allow[path] {
		return "", false
	}
	return fmt.Sprintf("import %q is refused: it lets a block %s; a project opts in with `kernel: {allow: [%s]}` in strata.yaml", path, why, path), true
}
