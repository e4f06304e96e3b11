package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// yaegi v0.16 compiles a select statement once into one array of
// reflect.SelectCase and fills in its channels and sent values on each
// execution (run.go, _select). Two goroutines running the same select at
// once share that array: one can send on the other's channel, send the
// other's value, or wait on the other's cancellation. It showed as "send
// on closed channel" from a pipeline's producers under -race (corpus
// k9c_select_in_goroutines), and can as silently crossed values. A select
// that goroutines may run is routed to compiled mode.

// goroutineSelects reports each select statement of the analysis's file
// that several goroutines may run at once: code started by a go statement
// (a go'd function literal, or a function of the block it calls,
// transitively) unless only one goroutine runs it, which is a go statement
// outside any loop and function literal, in main or the block's entry
// (run once), being the only one to reach it, and no other code calling it.
func (a *analysis) goroutineSelects(at func(token.Pos, string, ...any)) {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range a.files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := a.info.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	target := func(c *ast.CallExpr) ast.Node {
		if lit, ok := ast.Unparen(c.Fun).(*ast.FuncLit); ok {
			return lit.Body
		}
		if fn := a.callee(c); fn != nil {
			if fd := decls[fn.Origin()]; fd != nil {
				return fd.Body
			}
		}
		return nil
	}
	// Each go statement, and whether it may start several goroutines.
	type start struct {
		body  ast.Node
		multi bool
	}
	var starts []start
	for _, f := range a.files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			once := fd.Recv == nil && (fd.Name.Name == "main" || fd.Name.Name == "Load" || fd.Name.Name == "Transform" || fd.Name.Name == "Export")
			var walk func(n ast.Node, loops, lits int)
			walk = func(n ast.Node, loops, lits int) {
				ast.Inspect(n, func(c ast.Node) bool {
					if c == n {
						return true
					}
					switch c := c.(type) {
					case *ast.ForStmt:
						walk(c.Body, loops+1, lits)
						return false
					case *ast.RangeStmt:
						walk(c.Body, loops+1, lits)
						return false
					case *ast.FuncLit:
						walk(c.Body, loops, lits+1)
						return false
					case *ast.GoStmt:
						if b := target(c.Call); b != nil {
							starts = append(starts, start{b, !once || loops > 0 || lits > 0})
						}
						// The go'd literal's own go statements: walked as a literal.
						if lit, ok := ast.Unparen(c.Call.Fun).(*ast.FuncLit); ok {
							walk(lit.Body, loops, lits+1)
						}
						for _, arg := range c.Call.Args {
							walk(arg, loops, lits)
						}
						return false
					}
					return true
				})
			}
			walk(fd.Body, 0, 0)
		}
	}
	// What each go statement reaches, and how many goroutines may run it.
	reachers := map[ast.Node]int{}
	multi := map[ast.Node]bool{}
	for _, st := range starts {
		seen := map[ast.Node]bool{}
		queue := []ast.Node{st.body}
		for len(queue) > 0 {
			b := queue[0]
			queue = queue[1:]
			if seen[b] {
				continue
			}
			seen[b] = true
			reachers[b]++
			multi[b] = multi[b] || st.multi
			ast.Inspect(b, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if t := target(c); t != nil {
						if _, lit := ast.Unparen(c.Fun).(*ast.FuncLit); !lit {
							queue = append(queue, t)
						}
					}
				}
				return true
			})
		}
	}
	// A named function that code outside the goroutines calls runs
	// outside them as well.
	inside := func(p token.Pos) bool {
		for b := range reachers {
			if b.Pos() <= p && p < b.End() {
				return true
			}
		}
		return false
	}
	outside := map[ast.Node]int{}
	for _, f := range a.files {
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				for _, arg := range g.Call.Args {
					ast.Inspect(arg, func(m ast.Node) bool { return true })
				}
				if _, lit := ast.Unparen(g.Call.Fun).(*ast.FuncLit); !lit {
					return false // its call is the go statement's
				}
				return true
			}
			if c, ok := n.(*ast.CallExpr); ok && !inside(c.Pos()) {
				if _, lit := ast.Unparen(c.Fun).(*ast.FuncLit); !lit {
					if t := target(c); t != nil {
						outside[t]++
					}
				}
			}
			return true
		})
	}
	reported := map[*ast.SelectStmt]bool{}
	for b, n := range reachers {
		if n < 2 && !multi[b] && outside[b] == 0 {
			continue
		}
		ast.Inspect(b, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectStmt); ok && a.inFile(s.Pos()) && !reported[s] {
				reported[s] = true
				at(s.Pos(), "a select statement that several goroutines may run at once: the kernel's interpreter (yaegi) keeps one set of cases per select statement, shared by the goroutines running it, so one could use another's channels or values")
			}
			return true
		})
	}
}
