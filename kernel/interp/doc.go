// Package interp runs Go block source in the yaegi interpreter, inside a
// kernel process. It owns what happens between receiving source and
// returning a table: parsing and type-checking (as Go 1.26) against the
// exact symbols the interpreter has, lowering what yaegi lacks, refusing
// what it would run wrongly, evaluating, and mapping every error back to
// the block file's own line and column.
//
// # Lowered (runs interpreted, same lines; rewrite.go, lower.go)
//
//   - range over an integer (`for i := range n`, `for range n`), min, max,
//     clear, and inferred type arguments of generic calls (written out);
//   - Go 1.22 per-iteration loop variables, including closures handed to
//     native functions (wg.Go, sync.OnceFunc, time.AfterFunc);
//   - deferred calls' arguments (evaluated at the defer statement), and the
//     receiver of a deferred or go method call (`defer v.Log(x)`,
//     `go v.Run()`), bound at the statement as Go does;
//   - a method value's receiver (v.M of the block's own or an interface
//     method), evaluated where the value is made (rewrite_bind.go);
//   - range variables whose address is taken (&v, pointer method values)
//     get a per-iteration copy, as closures' do;
//   - defer inside a loop: the function's defer statements push onto a
//     stack of its own that one real defer runs (lower_defer.go); only a
//     function whose deferred calls may recover stays "needs compiled";
//   - `break L` out of a select inside the labeled loop (yaegi broke only
//     the select and looped forever) becomes a goto to a label right after
//     the loop, on its closing line (lower_break.go);
//   - `dst = <-c` where dst is an element, a field, *p or a variable of an
//     enclosing function (yaegi wrote the value into a temporary and lost
//     it, silently) becomes `dst = (<-c)` (lower_assign.go); a select case
//     `case x, ok = <-c:` (yaegi lost x and then failed "reflect.Select:
//     invalid Dir") becomes `case strata_recv, strata_ok := <-c: x, ok =
//     strata_recv, strata_ok;` on the case's line (destinations with calls
//     are routed to compiled);
//   - a function literal in a loop whose closure outlives its statement
//     (passed, assigned, returned) is made by a call of its own: yaegi
//     keeps the closure in a slot of the loop's frame and a closure, when
//     it returns, puts back what the slot held before it was made, so one
//     from an earlier iteration returning (in another goroutine) between
//     the next literal and its use replaced the new closure with an older
//     one or with nil (lower_loop_closures.go; corpus adv5_errgroup_wg);
//   - `go f(x[i], g())`: yaegi read arguments other than plain variables
//     after the goroutine started (another iteration's value, or "call of
//     nil function"); an ordinary call in the caller evaluates them and the
//     go statement passes its parameters on (lower_go_args.go);
//   - a range with assigned loop variables (`for i = range s`; yaegi
//     never wrote them, so after the loop they kept their old values)
//     declares its own and assigns them first thing in the body; a range
//     over a pointer to an array (yaegi overwrote a neighbouring variable
//     with the array) becomes a count loop or a range over (*p)[:]; a
//     range over a string with an index, alone or with the rune, decodes
//     natively (yaegi's index went wrong after an invalid byte, and alone
//     it counted runes, not bytes) (lower.go);
//   - yaegi writing a value straight into its destination (lower_assign.go):
//     a call or composite literal among several assigned values (`a, b =
//     x, f()`: yaegi lost a) is parenthesized; a nil among them becomes
//     (T)(nil); an interface value into an any among them is split into
//     one assignment per name; a unary -, ^, ! becoming an interface, and
//     any operator into a standard struct's interface field (e.Value =
//     n + 1), is parenthesized (yaegi stopped the function silently);
//   - a value of the block's type with methods (or a pointer to one) that
//     becomes an interface (outside native calls) is copied into a fresh
//     variable first: yaegi's interface aliased the variable, range
//     variable, element, &-expression or call result slot it came from,
//     and in an any printed as yaegi's wrapper (lower_iface_copy.go);
//   - a call of a method promoted from an embedded interface field (s.Log
//     for s.Logger.Log; yaegi failed it at run time, "invalid interface
//     value") names the embedded fields (lower_promoted.go);
//   - `m[k], err = f()` (a call's results into a map element and more;
//     yaegi never wrote the element) receives the results into fresh
//     variables first, in a block on the statement's line
//     (lower_map_multi.go);
//   - named results are zeroed at the function's entry (yaegi kept the
//     previous call's values at the same call site, as in a loop), and a
//     function that may recover names its unnamed results to zero them too
//     (lower_results.go);
//   - (*log.Logger).SetPrefix, which yaegi's wrapped log.Logger lacks;
//   - == between interfaces holding the block's own types, and between an
//     interface and a concrete value (yaegi said false for iface == Sq{1});
//   - a shift by a signed non-constant count panics when it is negative
//     (strata_rt.ShiftCount; yaegi gave 0);
//   - clear of a map goes native (reflect's Clear), so NaN keys go too;
//   - json/xml Unmarshal, Decode and Encode, and template Execute, over
//     the block's types: an
//     error that would name one of the block's structs ("Go struct field
//     Person.age"; yaegi's say ".age") fails the run "needs compiled" at
//     the call when it happens (CodecErr); others pass through;
//   - recover(): a panic that is yaegi's own (a reflect misuse where Go
//     raises a runtime error, or its positioned error for a failed type
//     assertion) is not handed to the block, which would see another
//     value; the run fails "needs compiled" at the recover;
//   - slices and maps are the kernel's own source (overlay/), with the API
//     of Go 1.21+ except the iterator functions;
//   - what the block prints while it loads (package variables'
//     initializers, init functions, which yaegi runs then) reaches the run
//     before the entry's output, and a block with init functions is loaded
//     again for every run, as a program runs its init once per run;
//   - a block's process (block_process.go): os.Args is [block], flag parses
//     no arguments, the environment is a per-run copy, the standard logger
//     is per run, stdin is empty, os.Stdout and os.Stderr are real *os.File
//     whose bytes reach the run's streams in order (stdio_capture.go), and os.Exit/log.Fatal end
//     the run at their line without running deferred calls.
//
// # Needs compiled (refused; runs in compiled mode)
//
// Valid Go the interpreter cannot run faithfully is refused with
// protocol.ErrUnsupported and diagnostics that start with
// NeedsCompiledPrefix ("needs compiled: ") followed by what and why, at the
// user's line. Executor.NeedsCompiled returns the static ones without running
// the block (the last item below only shows in an Exec result); the compiled
// path routes such blocks to a native worker. A refusal that comes once the
// block is running (a fault of yaegi's plumbing midway, a routed runtime
// fault) carries protocol.RunError.Started: what ran had its effects, so the
// editor and `strata exec` report it and offer compiled instead of running
// the block again by themselves. (The replay that finds such a fault's line,
// locatePanic, has no effects: see fault_replay.go.) Today:
//
//   - packages and API newer than Go 1.22 (yaegi v0.16's tables): iter,
//     unique, slices.Collect, sync.OnceValue, errors.AsType, …
//     (std_api.go, generated from $GOROOT/api);
//   - range over a function, new(expr), a range assigning to a
//     destination with a call in it (m[key()]);
//   - errors.Is/As/Unwrap/Join in a block that declares an error type (yaegi
//     hides the type's methods from the errors package);
//   - type assertions and type switches to interfaces with methods (yaegi
//     matches standard-library values wrongly);
//   - a block's own types where yaegi keeps only the underlying type
//     (unsupported_types.go): type switches and assertions that could not
//     tell `type ID int` from int (or two types made of the same type), ==
//     and interface-keyed maps over such values, reflect.Type names; values
//     with String/Error/Format methods nested in what fmt gets ([]Point, a
//     field, an element of a []any), made an `any`, logged, or with an
//     Error method (only a String method reaches fmt directly); unexported
//     fields of an interface or method type in printed structs (Go prints
//     them raw); MarshalJSON/UnmarshalJSON (and Text) in a block using
//     encoding/json;
//   - a slice, map, struct or pointer holding an interface the block
//     declares, printed (yaegi's wrappers of the values inside reach fmt;
//     unsupported_nested_iface.go), and a value of such an interface
//     stored into an any (yaegi's wrapper stays inside);
//   - %T and %#v of values that can be of the block's types, other verbs than
//     %v/%s on the block's types with methods, %+v or encoding/json/reflect
//     over structs with unexported fields (yaegi's types have no names and
//     export every field);
//   - method values of standard types' methods (w := b.WriteString; yaegi
//     fails calling them);
//   - defer inside a loop whose deferred calls may recover, method expressions (T.Method), a captured loop
//     variable the loop body changes, the address of a three-clause loop's
//     variable, multi-parameter generic calls whose type arguments cannot
//     be written;
//   - sync/atomic.Pointer (a generic std type yaegi cannot import), templates
//     that call a method the block declares (reflection cannot see it),
//     log.Lshortfile/Llongfile (the caller would be yaegi's source), a range
//     over a slice of channels with a value variable, a block's own type in
//     a standard variadic interface parameter (io.MultiWriter);
//   - anything that type-checks but yaegi fails to compile, and reflect
//     panics from inside yaegi at run time.
//
// It knows nothing of pipelines, projects or warehouses: a block is a file,
// an entry function, some input tables and a partition.
package interp
