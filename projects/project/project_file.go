package project

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/stratahq/strata/projects/secrets"
)

// ProjectFile is the name of the settings file that marks a Strata project.
const ProjectFile = "strata.yaml"

// Defaults applied when strata.yaml leaves a setting out.
const (
	DefaultTimezone      = "UTC"
	DefaultRetention     = 3
	DefaultMemoryLimit   = 2 << 30 // 2 GiB
	DefaultKernelTimeout = time.Minute
	minMemoryLimit       = 64 << 20 // below this the interpreter itself does not fit
)

// AllowableImports are the imports a block may only use when strata.yaml
// opts in through kernel.allow: each lets a block escape the kernel's
// control (run programs, touch memory, load code).
var AllowableImports = []string{"os/exec", "unsafe", "syscall", "plugin"}

// Project is a loaded project folder: strata.yaml plus every pipeline under
// pipelines/. Files on disk are the source of truth; a Project is a snapshot
// taken by Load and is not updated when files change.
type Project struct {
	Dir       string            // absolute path of the project folder
	Name      string            // from strata.yaml; the folder name when unset
	Timezone  string            // default zone of pipelines; "UTC" when unset
	Retention int               // versions kept per product partition, the current one included
	Kernel    KernelConfig      // limits of the kernel processes that run blocks
	Variables map[string]string // visible to every block; pipelines may override them
	// Extensions are the DuckDB extensions the warehouse loads on open
	// (installed by `strata extensions install`), as strata.yaml names them.
	Extensions []string
	// Secrets name the credentials blocks may read (ctx.Secret, {{secret
	// "pg"}} in a SQL block's ATTACH) and where their values are; never
	// the values (projects/secrets).
	Secrets map[string]secrets.Spec
	// Warehouse is where the products live (warehouse_config.go).
	Warehouse WarehouseConfig
	Alerts    AlertConfig // who hears of failures (alert_config.go)
	Login     LoginConfig // browser login through an OpenID provider (login_config.go)
	Pipelines map[string]*Pipeline
	Problems  Problems // everything wrong with the project, sorted; empty when valid

	// base are the problems of strata.yaml and of pipeline files that
	// cannot be read; recorded is the owner of each global product as the
	// warehouse has it (SetProductOwners), and owners the block that
	// exposes each, as decided from it.
	base     Problems
	recorded map[string]string
	owners   productOwners
}

// KernelConfig limits a kernel process.
type KernelConfig struct {
	MemoryLimit int64         // bytes
	Timeout     time.Duration // limit of one interactive execution; the default block timeout of pipelines
	Allow       []string      // opt-in imports from AllowableImports
}

var projectFields = []string{"name", "timezone", "retention", "kernel", "variables", "extensions", "secrets", "alerts", "warehouse", "login"}
var kernelFields = []string{"memory_limit", "timeout", "allow"}

// decodeProject fills p from the strata.yaml root node (nil for an empty file).
func (d *decoder) decodeProject(p *Project, root *yaml.Node) {
	p.Name = filepath.Base(p.Dir)
	p.Timezone = DefaultTimezone
	p.Retention = DefaultRetention
	p.Kernel = KernelConfig{MemoryLimit: DefaultMemoryLimit, Timeout: DefaultKernelTimeout}
	p.Variables = map[string]string{}
	p.Alerts = AlertConfig{Attempts: DefaultAlertAttempts, Backoff: DefaultAlertBackoff}
	p.Warehouse = WarehouseConfig{Kind: WarehouseDuckDB}
	if root == nil {
		return
	}
	f, ok := d.fields(root, "", "project settings", projectFields)
	if !ok {
		return
	}
	if e, ok := f["name"]; ok {
		if s, ok := d.str(e, "name"); ok {
			if strings.TrimSpace(s) == "" {
				d.addf(e.val, "name", "empty name")
			} else {
				p.Name = s
			}
		}
	}
	if e, ok := f["timezone"]; ok {
		if s, ok := d.str(e, "timezone"); ok && d.checkTimezone(e.val, "timezone", s) {
			p.Timezone = s
		}
	}
	if e, ok := f["retention"]; ok {
		if n, ok := d.integer(e, "retention"); ok {
			if n < 1 {
				d.addf(e.val, "retention", "retention %d keeps no version: want at least 1 (the current version)", n)
			} else {
				p.Retention = n
			}
		}
	}
	if e, ok := f["kernel"]; ok {
		d.decodeKernel(&p.Kernel, e)
	}
	if e, ok := f["variables"]; ok {
		if vars := d.strMap(e, "variables"); vars != nil {
			p.Variables = vars
		}
	}
	if e, ok := f["extensions"]; ok {
		d.decodeExtensions(p, e)
	}
	if e, ok := f["secrets"]; ok {
		d.decodeSecrets(p, e)
		d.checkS3NeedsHTTPFS(p, e.key)
	}
	if e, ok := f["alerts"]; ok {
		d.decodeAlerts(&p.Alerts, e)
	}
	if e, ok := f["warehouse"]; ok {
		d.decodeWarehouse(p, e)
	}
	if e, ok := f["login"]; ok {
		d.decodeLogin(p, e) // after secrets: client_secret names one
	}
}

func (d *decoder) decodeKernel(k *KernelConfig, e entry) {
	f, ok := d.fields(e.val, "kernel", "kernel settings", kernelFields)
	if !ok {
		return
	}
	if e, ok := f["memory_limit"]; ok {
		if s, ok := d.str(e, "kernel.memory_limit"); ok {
			n, err := ParseBytes(s)
			switch {
			case err != nil:
				d.addf(e.val, "kernel.memory_limit", "%s", err)
			case n < minMemoryLimit:
				d.addf(e.val, "kernel.memory_limit", "memory_limit %s is too small: the kernel needs at least 64MiB", s)
			default:
				k.MemoryLimit = n
			}
		}
	}
	if e, ok := f["timeout"]; ok {
		if v, ok := d.duration(e, "kernel.timeout", false); ok {
			k.Timeout = v
		}
	}
	if e, ok := f["allow"]; ok {
		names, nodes, _ := d.strList(e, "kernel.allow")
		for i, name := range names {
			field := index("kernel.allow", i)
			switch {
			case !slices.Contains(AllowableImports, name):
				d.addf(nodes[i], field, "import %q cannot be allowed%s: want some of %s (other imports need no opt-in)",
					name, didYouMean(name, AllowableImports), quoteList(AllowableImports))
			case slices.Contains(k.Allow, name):
				d.addf(nodes[i], field, "import %q is listed twice", name)
			default:
				k.Allow = append(k.Allow, name)
			}
		}
	}
}

// byteUnits maps size suffixes, lowercased, to their multiplier.
var byteUnits = map[string]float64{
	"": 1, "b": 1,
	"k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
	"ki": 1 << 10, "kib": 1 << 10, "mi": 1 << 20, "mib": 1 << 20,
	"gi": 1 << 30, "gib": 1 << 30, "ti": 1 << 40, "tib": 1 << 40,
}

// ParseBytes reads a size such as "2GiB", "512MiB", "1.5GB" or "1073741824".
// KiB, MiB, GiB and TiB are powers of 1024; KB, MB, GB and TB powers of 1000.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	mult, okUnit := byteUnits[unit]
	v, err := strconv.ParseFloat(num, 64)
	if num == "" || err != nil || !okUnit {
		return 0, fmt.Errorf("bad size %q: want a number with a unit, such as 512MiB or 2GiB", s)
	}
	bytes := v * mult
	if bytes > math.MaxInt64 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return int64(bytes), nil
}
