package interp

import (
	_ "embed"
	"strings"
)

// Overlays are standard packages the kernel interprets from its own source
// (kernel/interp/overlay) instead of yaegi's: slices and maps, because yaegi's copies use generics it cannot run (slices.Clone failed
// inside yaegi's slices.go) and stop at Go 1.22 (no slices.Sort). The type
// checker reads the same source, so it accepts exactly what runs.
var (
	//go:embed overlay/slices.go.txt
	slicesOverlay string
	//go:embed overlay/maps.go.txt
	mapsOverlay string
)

var overlays = map[string]string{"slices": slicesOverlay, "maps": mapsOverlay}

// overlayPath is the import path an overlay has inside the interpreter,
// where the real path belongs to yaegi's own copy or the native package.
func overlayPath(std string) string { return "strata_std_" + std }

// overlayForInterp is the overlay's source as the interpreter compiles it.
func overlayForInterp(std string) string {
	return strings.Replace(overlays[std], "package "+std+"\n", "package "+overlayPath(std)+"\n", 1)
}
