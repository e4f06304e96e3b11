// Package corpus is the kernel's regression corpus: ordinary Go programs
// (kernel/testdata/corpus/NAME/main.go, each a plain `package main`) with
// the stdout `go run` gives (NAME/stdout.golden). A program runs as a block
// through Block; the ones the interpreter cannot run faithfully are listed
// in NeedsCompiled, with the reason the kernel must give, and must pass in
// compiled mode.
//
// The test that runs it is kernel/supervisor/corpus_test.go;
// `go test ./kernel/supervisor -run TestCorpus -update` rewrites the
// expectations by running `go run` on each program.
package corpus

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// NeedsCompiled names the programs the interpreter refuses with a "needs
// compiled" classification (protocol.ErrUnsupported), each with a part of
// the reason it must give. Every other program must print exactly what
// `go run` prints.
var NeedsCompiled = map[string]string{
	"const_iota":        "%d of Weekday, which has methods",
	"errors_astype":     "errors.AsType (Go 1.26)",
	"errors_custom":     "errors.As with an error type the block declares",
	"fmt_verbs":         "%#v of a value that can be of the block's own type",
	"interfaces_switch": "type switch case int: the kernel's interpreter (yaegi) keeps ID as its underlying type int",
	"iter_seq":          `package "iter" (Go 1.23)`,
	"json_tour":         "unexported field secret of Person",
	"maps_iter":         "slices.Sorted (Go 1.23)",
	"method_values":     "method expression Greeter.Greet",
	"new_expr":          "new with a value",
	"range_func":        "range over a function",
	"slices_ops":        "cannot compile this block",
	"structs_methods":   "a value of Circle, with a method String, stored in an interface inside a slice",
	"sync_oncevalue":    "sync.OnceValue (Go 1.21)",
	"unique_pkg":        `package "unique" (Go 1.23)`,
	// Found by the adversarial corpus (adv_*): routed, never a wrong answer.
	"adv_errors_join":          "errors.Join with an error type the block declares",
	"adv_fmt_nested":           "%T of a value that can be of the block's own type",
	"adv_generic_infer":        "%T of a value that can be of the block's own type",
	"adv_generic_type_switch":  "type switch case int",
	"adv_iface_embedded_iface": "impossible type assertion",
	"adv_json_embedded":        "the method MarshalJSON in a block that uses encoding/json",
	"adv_loopvar_addr_for":     "the address of loop variable i is taken",
	"adv_maps_sorted_keys":     "slices.Sorted (Go 1.23)",
	"adv_recover_repanic":      "type assertion to an interface with methods",
	"adv_slices_pkg":           "slices.Chunk (Go 1.23)",
	"adv_stringer_receivers":   "%d of V, which has methods",
	"adv_strings_misc":         "strings.SplitSeq (Go 1.24)",
	"adv_env_log":              "log.Lshortfile: the logger asks the Go runtime",
	"adv_sync_prims":           "atomic.Pointer (generic, Go 1.19)",
	"adv_goroutine_select":     "range over a slice of channels with a value variable",
	"adv_range_chan_slice":     "range over a slice of channels with a value variable",
	"adv_template_funcs":       "a template calls the method Expensive the block declares",
	"adv_multiwriter_own_type": "passed to io.MultiWriter's variadic io.Writer",
	"adv_io_pipe":              "passed to io.MultiWriter's variadic io.Writer",
	"adv_generic_tilde":        "a slice holding Pair, with a method String",
	"adv_sort_embed_iface":     "a value of desc, which embeds the interface sort.Interface",
	"adv_embed_iface_own_func": "a value of desc, which embeds the interface sort.Interface",
	// Found by adversarial round 3 (adv3_*).
	"adv3_json_embedded_plain": "embedded field Meta in a block that uses encoding, reflect or templates",
	"adv3_template_embedded":   "embedded field Person in a block that uses encoding, reflect or templates",
	"adv3_comma_ok_header":     "a comma-ok that may fail, in a for, if or switch header",
	"adv3_iface_switch_case":   "switch on an interface value (v) with a case of type int",
	"adv3_const_div_iota":      "a division of untyped constants repeated with iota in a const group",
	// Found by adversarial round 4 (adv4_*).
	"adv4_runtime_panics_recovered":    "type assertion to an interface with methods",
	"adv4_runtime_panics_plain":        "raised inside itself (reflect: slice index out of range)",
	"adv4_embed_ptr_promotion":         "raised inside itself (reflect: call of reflect.Value.Field on zero Value)",
	"adv4_math_numeric":                "complex128 is not constant.Value",
	"adv4_json_tags":                   "%T of a value that can be of the block's own type",
	"adv4_generic_stack_queue":         "CFG post-order panic",
	"adv4_generic_constraints_methods": "CFG post-order panic",
	"adv4_print_nested_iface":          "a slice holding the interface Shape the block declares, printed",
	"adv4_own_iface_into_any":          "a value of the interface Shape the block declares made an empty interface (any)",
	"adv4_map_multi_header":            "a call's results assigned to a map element among several destinations, in a header",
	"adv4_map_commaok_dest":            "a comma-ok map index, type assertion or receive assigned to a map element",
	"adv4_invoice_money":               "%d of Money, which has methods",
	// yaegi's own error for a failed type assertion, with its position,
	// reached the block's recover (it printed "19:9: interface conversion").
	"adv4_recover_type_assert": "raises as an error of its own, with its position (19:9: interface conversion",
	// A nil pointer of the block's type in a standard interface (Go's
	// typed-nil gotcha): yaegi said `err == nil`.
	"typed_nil_error": "p (a *myErr that may be nil) becomes error",
	"typed_nil_iface": "a value of myErr, with a method Error, made an interface value (any)",
	// Values of the block's types inside slices, maps, structs and `any`
	// reach fmt without their methods; an error value type in an error
	// prints as its fields.
	"fmt_nested_stringers": "a slice holding Temp, with a method String",
	"error_value_type":     "V{…} (a V value with an Error method) becomes error",
	// Found by the ordinary-programs round of issue k9 (k9_*).
	"k9_json_api":             "%T of a value that can be of the block's own type",
	"k9_generics_constraints": "CFG post-order panic",
	"k9_goroutines_select":    "a select statement that several goroutines may run at once",
	"k9_enum_state_machine":   "%q of State, which has methods",
	"k9_defer_loop_recover":   "defer inside a loop whose deferred calls may recover",
	// Found by issue k9c (k9c_*).
	"k9c_json_type_error":        "this error (encoding or template) names a type the block declares",
	"k9c_template_error":         "this error (encoding or template) names a type the block declares",
	"k9c_json_named_field_error": "which holds a type the block declares that is not a struct",
	"k9c_select_in_goroutines":   "a select statement that several goroutines may run at once",
	"k9c_method_value_native":    "method value b.WriteString of *strings.Builder",
	"k9c_recover_yaegi_fault":    "the block recovers a panic that the kernel's interpreter (yaegi) raised inside itself",
	"k9c_select_recv_call":       "a select case that receives into m[slot(m, \"a\")]",
	// A block's own types under yaegi (unsupported_types.go): each printed
	// a different answer interpreted before it was routed.
	"k9c_types_assert_underlying": "type assertion to int: the kernel's interpreter (yaegi) keeps ID as its underlying type int",
	"k9c_types_errors_named":      "type switch case Code: the kernel's interpreter (yaegi) keeps Code as its underlying type int",
	"k9c_types_iface_equal":       "== between interface values in a block where a value of ID becomes an interface",
	"k9c_types_json_marshaler":    "the method MarshalJSON in a block that uses encoding/json",
	"k9c_types_log_stringer":      "a value of Point, with a method String, passed to log.Printf", // l.Printf: a *log.Logger method has no wrapper
	"k9c_types_reflect_name":      "reflect.Type's Name in a block that declares types",
	"k9c_types_stringer_any_map":  "a value of Celsius, with a method String, stored in an interface inside a slice, map or struct",
	"k9c_types_stringer_any_var":  "a value of Point, with a method String, made an interface value (any)",
	"k9c_types_stringer_field":    "a struct holding Celsius, with a method String, made an interface value",
	"k9c_types_stringer_generic":  "Stack instantiated with a type holding Point, with a method String",
	"k9c_types_stringer_nested":   "a slice holding Point, with a method String, made an interface value",
	"k9c_types_unexported_field":  "a struct with the unexported field timeout of type time.Duration",
	"k9c_types_switch_named":      "type switch case float64: the kernel's interpreter (yaegi) keeps Celsius as its underlying type float64",
	// Found by adversarial round 5 (adv5_*): routed by existing checks.
	"adv5_type_switch_multi":      "%T of a value that can be of the block's own type",
	"adv5_tour_sqrt_error":        "ErrNegativeSqrt(x) (a ErrNegativeSqrt value with an Error method) becomes error",
	"adv5_tour_rot13":             "passed to io.MultiReader's variadic io.Reader",
	"adv5_template_pipeline":      "this error (encoding or template) names a type the block declares",
	"adv5_set_ops":                "%+v of a struct with unexported fields",
	"adv5_runtime_panic_msgs":     "raised inside itself (reflect: slice index out of range)",
	"adv5_range_func_defer":       "range over a function",
	"adv5_method_expr":            "method expression Counter.Value",
	"adv5_matrix_generic":         "CFG post-order panic",
	"adv5_json_custom":            "the method MarshalJSON in a block that uses encoding/json",
	"adv5_iter_seq_pull":          `package "iter" (Go 1.23)`,
	"adv5_generic_heap":           "an interface value assigned with other values to an empty interface (h.items[i], …)",
	"adv5_formatter_verbs":        "%q of Color, which has methods",
	"adv5_errors_join_multi":      "type assertion to an interface with methods",
	"adv5_context_cancel":         "a select statement that several goroutines may run at once",
	"adv5_binsearch_infer":        "cannot use type func(int,int) int as type func([]int,[]int) int",
	"adv5_bytesize_iota":          "%f of ByteSize, which has methods",
	"adv5_shadow_builtins":        "undefined selector: v",
	"adv5_local_types":            "cannot convert untyped int to corpusblock.reading",
	"adv5_anon_struct_embed":      "embedded field Meta in a block that uses encoding",
	"adv5_generic_ptr_constraint": "CFG post-order panic",
	"adv5_generic_embed_map":      "nil type: nil",
	"adv5_chan_of_chan":           "range over a slice of channels with a value variable",
	// Found by adversarial round 5 (adv5_*): valid Go the interpreter
	// refused as a type error, failed on at no line, or killed the kernel
	// on; now refused at its line.
	"adv5_binsearch_cmp":        "explicit type arguments to slices.Compare",
	"adv5_lexer_statefn":        "type stateFn refers to itself through a function type",
	"adv5_recursive_func_types": "type Handler refers to itself through a function type",
	// Package variables initialized in another order than Go's.
	"adv5_init_order": "package variable prices would initialize before tax",
	// A comma-ok var declaration in a loop kept the previous value.
	"adv5_comma_ok_var_decl": "var n, known = stock[item] in a loop",
	"adv5_goto_comma_ok":     "a comma-ok statement with a label",
	"adv5_goto_type_switch":  "a type switch variable a closure captures or whose address is taken, in a loop made with goto",
	"adv6_init_order_names":  "package variable b would initialize before c",
	// Found by adversarial round 7 (adv7_*): routed by existing checks.
	"adv7_switch_forms":         "%T of a value that can be of the block's own type",
	"adv7_json_tags_nested":     "%T of a value that can be of the block's own type",
	"adv7_struct_keys_compare":  "cannot compile this valid Go: undefined: anon",
	"adv7_pipeline_ctx":         "a select statement that several goroutines may run at once",
	"adv7_panic_recover_kinds":  "raised inside itself (reflect: slice index out of range)",
	"adv7_generics_collections": "CFG post-order panic",
	// Issue 24: every function printed at one address interpreted.
	"i24_func_value_identity": "a function value printed by fmt.Sprint",
}

// ExitCodes are the programs that end with os.Exit or log.Fatal: `go run`
// exits with that status after the expected stdout, and the block fails
// with a "block called os.Exit(N)" panic at that line after the same stdout.
var ExitCodes = map[string]int{
	"os_exit_code": 3,
	"log_fatal":    1,
}

// Program is one corpus program.
type Program struct {
	Name   string
	Dir    string
	Source string // main.go as written
	Want   string // stdout.golden; empty before the first -update
}

// Load reads every program under dir (kernel/testdata/corpus), by name.
func Load(dir string) ([]Program, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*", "main.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Program
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		d := filepath.Dir(f)
		want, _ := os.ReadFile(filepath.Join(d, "stdout.golden"))
		out = append(out, Program{Name: filepath.Base(d), Dir: d, Source: string(src), Want: string(want)})
	}
	return out, nil
}

// BlockPackage is the package name a wrapped program gets: yaegi runs a
// `package main` as a program when it loads it.
const BlockPackage = "corpusblock"

// Block wraps a `package main` program as a Load block without moving any
// line: the package clause becomes `package corpusblock` plus the SDK
// import (on that same line), and a Load that calls main() and returns an
// empty table is appended after the last line. Errors keep the program's
// own line numbers.
func Block(src string) string {
	head, rest, ok := strings.Cut(src, "package main\n")
	if !ok {
		return src
	}
	return head + "package " + BlockPackage + `; import strata_sdk "github.com/stratahq/strata/blocks/sdk"` + "\n" + rest +
		"\nfunc Load(ctx *strata_sdk.Context) (*strata_sdk.Table, error) { main(); return strata_sdk.NewTable(strata_sdk.Int64(\"done\")), nil }\n"
}
